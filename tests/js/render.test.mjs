// What the renderer says in words, without a page.
import assert from "node:assert/strict";
import { test } from "node:test";

import { limitsText } from "../../src/baccara/server/static/render.js";
import { BETS } from "./messages.mjs";

test("limits are told bet by bet, those alike together (the lobby put Tie's 1.00 on all)", () => {
  const tie = { ...BETS[2], min: 100 };
  const sides = ["big", "small", "lucky_6"].map((kind) => ({ ...BETS[3], kind, label: kind, min: 100 }));
  assert.equal(limitsText([BETS[0], BETS[1], tie, ...sides]),
    "Player, Banker 10.00–5,000.00 · Tie 1.00–500.00 · side bets 1.00–250.00");
  assert.equal(limitsText(BETS.slice(0, 3)), "Player, Banker 10.00–5,000.00 · Tie 10.00–500.00");
});
