// The player's limits in words (records.js): the daily loss limit, the loss limits over 7
// and 30 days and the deposit limits, each with a raise or removal pending.
import { test } from "node:test";
import assert from "node:assert/strict";

import { limitsText, periodText } from "../../src/baccara/server/static/records.js";

const at = (seconds) => `t${seconds}`;
const none = { amount: null, next_amount: null, next_from: null };

test("a limit over a period, and its change pending, in words", () => {
  assert.equal(periodText("7-day loss", none, at), "");
  assert.equal(periodText("7-day loss", { ...none, amount: 30000 }, at), "7-day loss limit 300.00.");
  assert.equal(periodText("24-hour deposit", { amount: 10000, next_amount: 15000, next_from: 5 }, at),
    "24-hour deposit limit 100.00 (from t5: 150.00).");
  assert.equal(periodText("30-day loss", { amount: 500, next_amount: null, next_from: 7 }, at),
    "30-day loss limit 5.00 (from t7: no limit).");
});

test("every limit the player has, in one line", () => {
  const limits = { loss_limit: 5000, next_loss_limit: null, next_from: null, reminder_minutes: 30,
    loss_week: { ...none, amount: 20000 }, loss_month: none };
  const deposits = { day: { ...none, amount: 10000 }, week: none, month: { amount: 1, next_amount: null, next_from: 9 } };
  assert.equal(limitsText(limits, deposits, at),
    "Daily loss limit 50.00. 7-day loss limit 200.00. 24-hour deposit limit 100.00. " +
    "30-day deposit limit 0.01 (from t9: no limit). A reminder every 30 minutes.");
  assert.equal(limitsText({ ...limits, loss_week: undefined }), "Daily loss limit 50.00. A reminder every 30 minutes.");
});
