// Cards and coups as people read them (history, records and drills showed "P:9h,3d B:Ks,5c").
import assert from "node:assert/strict";
import { test } from "node:test";

import { cardText, coupText } from "../../src/baccara/server/static/cards.js";

test("a card with its suit's sign, a ten as 10", () => {
  assert.deepEqual(["Td", "Ah", "Ks", "2c"].map(cardText), ["10♦", "A♥", "K♠", "2♣"]);
});

test("a coup's notation as each hand's cards, named as the table names them", () => {
  assert.equal(coupText("P:9h,3d,Jd B:Ks,5c"), "Player 9♥ 3♦ J♦ · Banker K♠ 5♣");
  assert.equal(coupText("P:Th,Ad B:2s,3c", { P: "Punto", B: "Banco" }), "Punto 10♥ A♦ · Banco 2♠ 3♣");
});
