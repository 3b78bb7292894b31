// Money for people: the one formatter (node --test tests/js/).
import assert from "node:assert/strict";
import { test } from "node:test";

import { money, parseMoney } from "../../src/baccara/server/static/money.js";

test("cents are shown as units with two decimals and thousands separators", () => {
  assert.equal(money(1000), "10.00");
  assert.equal(money(5), "0.05");
  assert.equal(money(0), "0.00");
  assert.equal(money(123456789), "1,234,567.89");
  assert.equal(money(-250), "-2.50");
});

test("compact: the short form on chips and stacks", () => {
  assert.equal(money(100, { compact: true }), "1");
  assert.equal(money(2500, { compact: true }), "25");
  assert.equal(money(250, { compact: true }), "2.50");
  assert.equal(money(100000, { compact: true }), "1K");
  assert.equal(money(250000, { compact: true }), "2.5K");
  assert.equal(money(1234567, { compact: true }), "12.3K");
});

test("amounts are integer cents, never floats", () => {
  assert.throws(() => money(10.5), TypeError);
  assert.throws(() => money("1000"), TypeError);
});

test("amounts typed by people become integer cents", () => {
  assert.equal(parseMoney("10"), 1000);
  assert.equal(parseMoney(" 10.5 "), 1050);
  assert.equal(parseMoney("10.50"), 1050);
  assert.equal(parseMoney("1,250.05"), 125005);
  assert.equal(parseMoney(".25"), 25);
  assert.equal(parseMoney("0"), 0);
  for (const bad of ["", ".", "-5", "10.005", "1,25", "ten", "1e3", "10,00.00"]) assert.equal(parseMoney(bad), null, bad);
});
