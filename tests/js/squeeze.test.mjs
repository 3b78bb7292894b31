// The squeeze interaction on a stand-in card (node's EventTarget): drag, click, keys.
import assert from "node:assert/strict";
import { test } from "node:test";

import { initialState, reduce } from "../../src/baccara/server/static/reducer.js";
import { createSqueeze } from "../../src/baccara/server/static/squeeze.js";
import * as msg from "./messages.mjs";

function table(side, squeezer) {
  let state = reduce(reduce(initialState(), { type: "login", name: "ann", balance: 0 }), msg.snapshot({ squeeze: true }));
  state = reduce(state, msg.squeeze(88, side, squeezer));
  const sent = [], timers = [];
  const dispatch = (action) => { state = reduce(state, action); sent.push(...state.outbox); };
  const squeeze = createSqueeze({ getState: () => state, dispatch, setTimer: (fn) => timers.push(fn) });
  return { squeeze, sent, timers, get state() { return state; } };
}

function fakeCard() {
  const card = new EventTarget();
  card.offsetHeight = 100;
  card.setPointerCapture = () => {};
  return card;
}

const pointer = (type, x, y) => Object.assign(new Event(type), { clientX: x, clientY: y, pointerId: 1 });

test("dragging my card's corner bends it and sends the peel once per tick", () => {
  const t = table("banker", "ann");
  const card = fakeCard();
  t.squeeze.bind(card, "banker");
  card.dispatchEvent(pointer("pointerdown", 200, 200));
  card.dispatchEvent(pointer("pointermove", 165, 165));  // 70 px of 140: half way
  card.dispatchEvent(pointer("pointerup", 165, 165));
  assert.equal(t.state.squeeze.peel, 0.5);
  assert.equal(t.timers.length, 1);  // one send scheduled, not one per move
  t.timers[0]();
  assert.deepEqual(t.sent, [{ type: "squeeze", side: "banker", peel: 0.5, first: 0 }]);
});

test("a click or Space bends a quarter", () => {
  const t = table("banker", "ann");
  const card = fakeCard();
  t.squeeze.bind(card, "banker");
  card.dispatchEvent(pointer("pointerdown", 10, 10));
  card.dispatchEvent(pointer("pointerup", 10, 10));
  const space = Object.assign(new Event("keydown"), { key: " " });
  card.dispatchEvent(space);
  assert.equal(t.state.squeeze.peel, 0.5);
  t.timers[0]();
  assert.deepEqual(t.sent, [{ type: "squeeze", side: "banker", peel: 0.5, first: 0 }]);
});

test("another's cards do not bend and nothing is sent", () => {
  const t = table("player", "bob");
  const card = fakeCard();
  t.squeeze.bind(card, "player");
  card.dispatchEvent(pointer("pointerdown", 10, 10));
  card.dispatchEvent(pointer("pointerup", 10, 10));
  assert.equal(t.state.squeeze.peel, 0);
  assert.equal(t.timers.length, 0);
  assert.deepEqual(t.sent, []);
});
