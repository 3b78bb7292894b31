// The client's reducer over real message sequences (node --test tests/js/).
import assert from "node:assert/strict";
import { beforeEach, describe, test } from "node:test";

import {
  betKeys, betTimeLeft, chipStack, initialState, myStakes, phaseLabel, reduce, squeezeKeyActions, stagedStakes,
} from "../../src/baccara/server/static/reducer.js";
import * as msg from "./messages.mjs";

function deepFreeze(value) {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/** Fold actions through the reducer; every state is frozen, so a mutation throws. */
function run(state, ...actions) {
  for (const action of actions) state = deepFreeze(reduce(deepFreeze(state), action));
  return state;
}

const joined = (overrides) => run(initialState(), { type: "login", name: "ann", balance: 100000 },
  { type: "open_table", table: "t1" }, msg.snapshot(overrides));

beforeEach(() => msg.resetSeq(40));

describe("snapshot", () => {
  test("takes the layout, chips, limits and clock from the server", () => {
    const s = joined();
    assert.equal(s.seq, 40);
    assert.equal(s.phase, "betting");
    assert.equal(phaseLabel(s), "Place your bets");
    assert.deepEqual(s.chips, msg.CHIPS);
    assert.deepEqual(s.bets.map((b) => b.kind), ["player", "banker", "tie", "player_pair", "dragon_bonus_player"]);
    assert.equal(s.clockOffset, 2);  // server_time 992 received at 990
    assert.equal(betTimeLeft(s, 990), 8);
    assert.deepEqual(betKeys(s), { p: "player", b: "banker", t: "tie" });
    assert.deepEqual(s.outbox, []);
  });

  test("my bets of the round count by bet id, refunded ones do not", () => {
    const s = joined({ my_bets: [
      { bet_id: "a-banker", kind: "banker", amount: 2500, status: "placed" },
      { bet_id: "b-banker", kind: "banker", amount: 500, status: "placed" },
      { bet_id: "c-tie", kind: "tie", amount: 1000, status: "refunded" },
    ] });
    assert.deepEqual(myStakes(s), { banker: 3000 });
  });

  test("mid-deal: the cards revealed so far with the server's totals", () => {
    const s = joined({ phase: "dealing", revealed: msg.COUP_STEPS.slice(0, 3) });
    assert.deepEqual(s.hands.player, ["9h", "3d"]);
    assert.deepEqual(s.hands.banker, ["Ks"]);
    assert.equal(s.hands.player_total, 2);
    assert.equal(s.hands.banker_total, 0);
    assert.equal(s.croupier, "Player two");
    assert.equal(phaseLabel(s), "Dealing");
  });

  test("a settled round shows its result from the history", () => {
    const last = { ...msg.result(88, 12), round: 88 };
    const s = joined({ phase: "settled", history: [last] });
    assert.equal(s.result.announcement, "Banker five, Player two: Banker wins");
  });

  test("a squeeze under way: the hands turned so far, the cards face down, the peel", () => {
    const squeezing = { round: 88, side: "banker", first: 0, count: 2, squeezer: "ann", seconds: 30, ends_at: 1010,
      peel: 0.4, cards: ["Ks", "5c"] };
    const s = joined({ phase: "squeeze", squeeze: true, squeezing, revealed: msg.COUP_STEPS.slice(0, 2) });
    assert.equal(s.phase, "squeeze");
    assert.deepEqual(s.hands.down, { player: 0, banker: 2 });
    assert.deepEqual(s.hands.player, ["9h"]);
    assert.equal(s.squeeze.remote, 0.4);
    assert.deepEqual(s.squeeze.cards, ["Ks", "5c"]);
    assert.equal(s.croupier, "Squeeze: the Banker cards, yours.");
  });
});

describe("a whole round", () => {
  test("bets, the deal card by card, the result and the payout", () => {
    let s = joined({ phase: "settled" });
    s = run(s, msg.roundOpen(89, 13));
    assert.equal(s.round, 89);
    assert.equal(s.seq, 41);
    assert.equal(s.betSeconds, 15);

    // stake the 100.00 chip twice on Banker and 5.00 on the Player Pair, then confirm
    s = run(s, { type: "pick_chip", index: 3 }, { type: "stage", kind: "banker" }, { type: "stage", kind: "banker" },
      { type: "pick_chip", index: 1 }, { type: "stage", kind: "player_pair" });
    assert.equal(s.message, "Player Pair +5.00 — Confirm (Enter) to send.");
    assert.deepEqual(stagedStakes(s), { banker: 20000, player_pair: 500 });
    s = run(s, { type: "confirm", id: "w1" });
    assert.deepEqual(s.outbox, [
      { type: "bet", bet_id: "w1-banker", kind: "banker", amount: 20000, round: 89 },
      { type: "bet", bet_id: "w1-player_pair", kind: "player_pair", amount: 500, round: 89 },
    ]);
    assert.deepEqual(s.staged, []);
    assert.deepEqual(Object.keys(s.pending), ["w1-banker", "w1-player_pair"]);

    s = run(s, msg.betAck("w1-banker", "banker", 20000, 89, { balance: 80000 }));
    assert.deepEqual(s.outbox, []);  // effects last one action
    assert.equal(s.balance, 80000);
    assert.equal(s.message, "Bet accepted: Banker 200.00.");
    s = run(s, msg.betAck("w1-player_pair", "player_pair", 500, 89, { balance: 79500 }));
    assert.deepEqual(myStakes(s), { banker: 20000, player_pair: 500 });
    assert.deepEqual(s.pending, {});

    s = run(s, msg.bets(89, { ann: { banker: 20000, player_pair: 500 }, bob: { player: 10000 } }));
    assert.deepEqual(s.tableTotals, { banker: 20000, player_pair: 500, player: 10000 });
    assert.deepEqual(s.tableBets.bob, { player: 10000 });

    s = run(s, msg.noMoreBets(89));
    assert.equal(phaseLabel(s), "No more bets");
    s = run(s, { type: "stage", kind: "tie" });
    assert.deepEqual(s.staged, []);
    assert.equal(s.message, "Wait for the next round to bet.");

    for (let i = 0; i < msg.COUP_STEPS.length; i++) s = run(s, msg.card(89, i));
    assert.deepEqual(s.hands.player, ["9h", "3d", "Jd"]);
    assert.deepEqual(s.hands.banker, ["Ks", "5c"]);
    assert.equal(s.hands.player_total, 2);
    assert.equal(s.hands.banker_total, 5);
    assert.equal(s.reason, "Banker stands on 5 when the Player's third card is a 10");

    assert.equal(s.croupier, "Banker five, Player two: Banker wins");
    s = run(s, msg.result(89, 13));
    assert.equal(s.phase, "settled");
    assert.equal(s.result.winner, "banker");
    // the banner says the result once (the croupier's line said it too); the coup's
    // rules stay, all of them, for teaching mode
    assert.equal(s.croupier, "");
    assert.deepEqual(s.reasons, ["Player draws on 0-5", "Banker stands on 5 when the Player's third card is a 10"]);
    assert.equal(s.history.length, 1);
    assert.equal(s.history[0].roads, undefined);  // the roads go to state.roads
    assert.equal(s.roads.results, "B");

    s = run(s, msg.payout(89, 20500, 39000, 118500));
    assert.equal(s.balance, 118500);
    assert.equal(s.message, "You win 185.00!");
    s = run(s, { ...msg.payout(89, 1000, 1950, 119450), bets: { banker: { staked: 1000, returned: 1950 } } });
    assert.deepEqual(s.payout, { round: 89, bets: { banker: { staked: 1000, returned: 1950 } } });

    // the next round clears the layout and remembers the bets for Rebet
    s = run(s, msg.roundOpen(90, 14));
    assert.equal(s.payout, null);
    assert.deepEqual(myStakes(s), {});
    assert.deepEqual(s.tableBets, {});
    assert.deepEqual(s.hands.player, []);
    assert.equal(s.hands.player_total, null);
    assert.equal(s.result, null);
    assert.deepEqual(s.reasons, []);
    s = run(s, { type: "rebet" });
    assert.deepEqual(stagedStakes(s), { banker: 20000, player_pair: 500 });
    s = run(s, { type: "double" });
    assert.deepEqual(stagedStakes(s), { banker: 40000, player_pair: 1000 });
    s = run(s, { type: "undo" });
    assert.deepEqual(stagedStakes(s), { banker: 40000, player_pair: 500 });
    s = run(s, { type: "clear" });
    assert.deepEqual(s.staged, []);
  });

  test("a loss and a push say so in money", () => {
    const s = joined();
    assert.equal(run(s, msg.payout(88, 1000, 0, 99000)).message, "You lose 10.00.");
    assert.equal(run(s, msg.payout(88, 1000, 1000, 100000)).message, "Your bets push.");
  });

  test("a chip under a spot's minimum is staged with a hint and not sent until there is enough", () => {
    let s = run(joined(), { type: "pick_chip", index: 1 }, { type: "stage", kind: "banker" });  // 5.00 of 10.00
    assert.equal(s.message, "Banker +5.00 (10.00 at least: add more)");
    s = run(s, { type: "stage", kind: "player_pair" }, { type: "confirm", id: "c1" });
    assert.deepEqual(s.outbox.map((bet) => [bet.kind, bet.amount]), [["player_pair", 500]]);
    assert.deepEqual(s.staged, [{ kind: "banker", amount: 500 }]);  // kept, not lost at the close
    assert.equal(s.message, "Not sent: Banker takes 10.00 at least.");
    s = run(s, { type: "stage", kind: "banker" }, { type: "confirm", id: "c2" });
    assert.deepEqual(s.outbox, [{ type: "bet", bet_id: "c2-banker", kind: "banker", amount: 1000, round: 88 }]);
    assert.deepEqual(s.staged, []);
  });

  test("chips staged and not confirmed when betting closes are dropped, and the player told", () => {
    let s = run(joined(), { type: "pick_chip", index: 3 }, { type: "stage", kind: "banker" },
      { type: "pick_chip", index: 1 }, { type: "stage", kind: "tie" });
    s = run(s, msg.noMoreBets(88));
    assert.deepEqual(s.staged, []);
    assert.equal(s.message, "Not sent: betting closed before you confirmed Banker 100.00, Tie 5.00.");
    s = run(s, msg.noMoreBets(88));  // nothing staged: the message stays
    assert.equal(s.message, "Not sent: betting closed before you confirmed Banker 100.00, Tie 5.00.");
  });

  test("a chip over a spot's maximum is not staged", () => {
    let s = run(joined(), { type: "pick_chip", index: 3 }, { type: "stage", kind: "player_pair" }, { type: "stage", kind: "player_pair" });
    assert.deepEqual(stagedStakes(s), { player_pair: 20000 });
    s = run(s, { type: "stage", kind: "player_pair" });  // 300.00 > 250.00
    assert.deepEqual(stagedStakes(s), { player_pair: 20000 });
    assert.equal(s.message, "Player Pair takes 250.00 at most.");
  });

  test("a bet that puts me behind the seats closes the side bets to me at once", () => {
    let s = run(joined({ seat: null }), msg.betAck("x-banker", "banker", 1000, 88), { type: "stage", kind: "player_pair" });
    assert.equal(s.staged.length, 1);  // the ack said nothing of a seat: as before
    s = run(joined({ seat: null }), { ...msg.betAck("x-banker", "banker", 1000, 88), seat: null, behind: true });
    assert.deepEqual([s.seat, s.behind], [null, true]);
    s = run(s, { type: "stage", kind: "player_pair" });
    assert.deepEqual(s.staged, []);
    assert.equal(s.message, "Behind the seats the bets are Player, Banker, Tie only.");
    s = run(s, { ...msg.betAck("y-banker", "banker", 1000, 88), seat: 3, behind: false });  // a seat came free
    assert.deepEqual([s.seat, s.behind], [3, false]);
  });

  test("rebet and double stage only what the table takes: within the maximum, main bets behind", () => {
    let s = run(joined(), msg.betAck("x-pp", "player_pair", 15000, 88), { type: "double" });
    assert.deepEqual(s.staged, []);  // 150.00 more would make 300.00 of a 250.00 maximum
    assert.equal(s.message, "Player Pair takes 250.00 at most.");
    s = run(joined({ seat: null, behind: true }), msg.roundOpen(89, 13));
    s = run({ ...s, lastBets: [{ kind: "banker", amount: 2000 }, { kind: "player_pair", amount: 500 }] }, { type: "rebet" });
    assert.deepEqual(s.staged, [{ kind: "banker", amount: 2000 }]);
    assert.equal(s.message, "Behind the seats the bets are Player, Banker, Tie only.");
  });

  test("a seat that comes free and is mine opens the side bets again", () => {
    let s = joined({ seat: null, behind: true });
    s = run(s, msg.seat("ann", 4));
    assert.deepEqual([s.seat, s.behind], [4, false]);
    s = run(s, msg.seat("bob", 5));
    assert.equal(s.seat, 4);
  });

  test("double with nothing staged doubles the accepted bets", () => {
    let s = run(joined(), msg.betAck("x-tie", "tie", 1000, 88));
    s = run(s, { type: "double" });
    assert.deepEqual(s.staged, [{ kind: "tie", amount: 1000 }]);
  });

  test("confirm with nothing staged sends nothing; an unknown kind is not staged", () => {
    const s = run(joined(), { type: "stage", kind: "lucky_6" }, { type: "confirm", id: "w9" });
    assert.deepEqual(s.outbox, []);
    assert.deepEqual(s.pending, {});
  });
});

describe("bet answers", () => {
  test("a duplicate bet_ack counts the bet once", () => {
    let s = run(joined(), { type: "stage", kind: "player" }, { type: "confirm", id: "w2" });
    const ack = msg.betAck("w2-player", "player", 2500, 88, { balance: 97500 });
    s = run(s, ack, { ...ack, duplicate: true });
    assert.deepEqual(myStakes(s), { player: 2500 });
    assert.equal(s.balance, 97500);
  });

  test("a bet_ack for another round changes the balance, not this round's stakes", () => {
    const s = run(joined(), msg.betAck("old-player", "player", 2500, 87, { balance: 97500, duplicate: true, status: "settled" }));
    assert.deepEqual(myStakes(s), {});
    assert.equal(s.balance, 97500);
  });

  test("an error with bet_id drops that bet from pending and shows the message", () => {
    let s = run(joined(), { type: "pick_chip", index: 3 }, { type: "stage", kind: "tie" },
      { type: "stage", kind: "player" }, { type: "confirm", id: "w3" });
    assert.deepEqual(Object.keys(s.pending).sort(), ["w3-player", "w3-tie"]);
    s = run(s, msg.error("loss_limit", "that would pass your daily loss limit of 150.00", "w3-tie"));
    assert.deepEqual(Object.keys(s.pending), ["w3-player"]);
    assert.equal(s.message, "that would pass your daily loss limit of 150.00");
    assert.deepEqual(myStakes(s), {});
  });

  test("table_moving leaves the bet pending: it goes again with the next snapshot", () => {
    let s = run(joined(), { type: "stage", kind: "banker" }, { type: "confirm", id: "w6" });
    s = run(s, msg.error("table_moving", "table t1 is moving to another server: nothing was done, try again", "w6-banker"));
    assert.deepEqual(Object.keys(s.pending), ["w6-banker"]);
    assert.match(s.message, /moving/);
    s = run(s, msg.snapshot());
    assert.deepEqual(s.outbox.map((m) => m.bet_id), ["w6-banker"]);
  });

  test("an error without bet_id keeps the pending bets", () => {
    let s = run(joined(), { type: "stage", kind: "player" }, { type: "confirm", id: "w4" });
    s = run(s, msg.error("rate_limited", "too many messages: slow down"));
    assert.deepEqual(Object.keys(s.pending), ["w4-player"]);
    assert.equal(s.message, "too many messages: slow down");
  });
});

describe("betting behind the seats", () => {
  test("the snapshot says the player bets behind; the layout counts who does", () => {
    let s = run(initialState(), { type: "open_table", table: "t1" },
      msg.snapshot({ seat: null, behind: true, bettors_behind: 3 }));
    assert.equal(s.behind, true);
    assert.equal(s.seat, null);
    assert.equal(s.bettorsBehind, 3);
    s = run(s, { type: "bets", table: "t1", seq: 99, round: 88, totals: { banker: 5000 }, players: {}, bettors_behind: 7 });
    assert.equal(s.bettorsBehind, 7);
  });
});

describe("a reconnect", () => {
  test("resends the unanswered bets under their ids; the missed events change nothing", () => {
    let s = run(joined(), { type: "stage", kind: "banker" }, { type: "confirm", id: "w5" });
    s = run(s, { type: "connection", open: false });
    assert.equal(s.message, "Connection lost: reconnecting…");

    // The server took the bet before the drop: it is in the new snapshot's my_bets.
    // Meanwhile the round closed and two cards were dealt (seq 41..44), and a notice.
    msg.resetSeq(40);
    const missed = [msg.noMoreBets(88), msg.card(88, 0), msg.card(88, 1), msg.notice("the croupier changes")];
    const snap = msg.snapshot({
      seq: 44, phase: "dealing", revealed: msg.COUP_STEPS.slice(0, 2),
      my_bets: [{ bet_id: "w5-banker", kind: "banker", amount: 2500, status: "placed" }],
      table_bets: { ann: { banker: 2500 } },
    });
    s = run(s, { type: "connection", open: true }, snap);
    assert.deepEqual(s.outbox, []);  // already placed: nothing to resend
    assert.deepEqual(s.pending, {});
    for (const event of missed) s = run(s, { ...event, missed: true });
    assert.equal(s.seq, 44);
    assert.deepEqual(myStakes(s), { banker: 2500 });
    assert.deepEqual(s.hands.banker, ["Ks"]);
    assert.equal(s.message, "the croupier changes");

    // live events continue after the snapshot's seq; an old one again is ignored
    s = run(s, msg.card(88, 2));
    assert.equal(s.seq, 45);
    assert.deepEqual(s.hands.player, ["9h", "3d"]);
    const again = run(s, { ...msg.card(88, 1), seq: 43 });
    assert.deepEqual(again.hands.player, ["9h", "3d"]);
  });

  test("a bet the server never got goes again, same id, same round", () => {
    let s = run(joined(), { type: "pick_chip", index: 2 }, { type: "stage", kind: "tie" }, { type: "confirm", id: "w6" });
    s = run(s, { type: "connection", open: false }, msg.snapshot({ seq: 41 }));
    assert.deepEqual(s.outbox, [{ type: "bet", bet_id: "w6-tie", kind: "tie", amount: 2500, round: 88 }]);
    assert.deepEqual(Object.keys(s.pending), ["w6-tie"]);
    s = run(s, msg.betAck("w6-tie", "tie", 2500, 88, { duplicate: false }));
    assert.deepEqual(myStakes(s), { tie: 2500 });
  });

  test("a missed result is not added to the history twice", () => {
    let s = joined();
    msg.resetSeq(40);
    const result = msg.result(88, 12);
    const snap = msg.snapshot({ seq: 41, phase: "settled", history: [{ ...result, roads: undefined }] });
    s = run(s, snap, { ...result, missed: true });
    assert.equal(s.history.length, 1);
    assert.equal(s.result.winner, "banker");
  });

  test("another table's messages are ignored", () => {
    const s = joined();
    const other = run(s, { ...msg.roundOpen(500), table: "t2" });
    assert.equal(other.round, 88);
  });
});

describe("the squeeze", () => {
  const atSqueeze = (side = "player", squeezer = "bob") => {
    let s = joined({ squeeze: true });
    s = run(s, msg.bets(88, { ann: { banker: 10000 }, bob: { player: 20000 } }), msg.noMoreBets(88));
    return run(s, msg.squeeze(88, side, squeezer));
  };

  test("announced: the Player's cards face down first, who squeezes, no values", () => {
    const s = atSqueeze();
    assert.equal(phaseLabel(s), "Squeeze");
    assert.deepEqual(s.hands.down, { player: 2, banker: 0 });
    assert.deepEqual(s.hands.player, []);
    assert.equal(s.squeeze.cards, null);
    assert.equal(s.croupier, "Squeeze: the Player cards, by bob.");
    assert.equal(s.message, "bob squeezes the Player cards.");
  });

  test("only the squeezer bends the cards, never back; peels are sent once each", () => {
    const theirs = atSqueeze();
    assert.deepEqual(run(theirs, { type: "bend", side: "player", value: 0.5 }), theirs);
    let s = run(atSqueeze("banker", "ann"), { type: "bend", side: "player", value: 0.5 });
    assert.equal(s.squeeze.peel, 0);  // not the hand under the squeeze
    assert.equal(s.message, "You squeeze the Banker cards: drag the corner, click, or press S.");
    s = run(s, { type: "bend", side: "banker", value: 0.3 }, { type: "bend", side: "banker", value: 0.2 });
    assert.equal(s.squeeze.peel, 0.3);
    s = run(s, { type: "send_peels" });
    assert.deepEqual(s.outbox, [{ type: "squeeze", side: "banker", peel: 0.3, first: 0 }]);
    s = run(s, { type: "send_peels" });
    assert.deepEqual(s.outbox, []);
    s = run(s, { type: "bend", side: "banker", value: 1.7 }, { type: "send_peels" });
    assert.deepEqual(s.outbox, [{ type: "squeeze", side: "banker", peel: 1, first: 0 }]);
  });

  test("the S key bends the cards I squeeze a quarter more", () => {
    const s = run(atSqueeze("banker", "ann"), { type: "bend", side: "banker", value: 0.5 });
    assert.deepEqual(squeezeKeyActions(s), [{ type: "bend", side: "banker", value: 0.75 }]);
    assert.deepEqual(squeezeKeyActions(atSqueeze()), []);
    assert.deepEqual(squeezeKeyActions(joined()), []);
  });

  test("a squeezer back after a reconnect bends on from where the cards are", () => {
    const squeezing = { round: 88, side: "banker", first: 0, count: 2, squeezer: "ann", seconds: 30, ends_at: 1010,
      peel: 0.4, cards: ["Ks", "5c"] };
    let s = joined({ phase: "squeeze", squeeze: true, squeezing });
    assert.deepEqual([s.squeeze.peel, s.squeeze.sent], [0.4, 0.4]);
    s = run(s, { type: "bend", side: "banker", value: 0.5 }, { type: "send_peels" });
    assert.deepEqual(s.outbox, [{ type: "squeeze", side: "banker", peel: 0.5, first: 0 }]);
  });

  test("the squeezer's peel is relayed with the values once the corner shows", () => {
    let s = run(atSqueeze(), msg.peel(88, "player", 0.1, "bob"), msg.peel(87, "player", 0.9, "bob"));
    assert.equal(s.squeeze.remote, 0.1);
    assert.equal(s.squeeze.cards, null);
    s = run(s, msg.peel(88, "banker", 0.9, "ann", ["Ks", "5c"]));  // not this squeeze
    assert.equal(s.squeeze.remote, 0.1);
    s = run(s, msg.peel(88, "player", 0.6, "bob", ["9h", "3d"]));
    assert.deepEqual([s.squeeze.remote, s.squeeze.cards], [0.6, ["9h", "3d"]]);
  });

  test("the first card ends the squeeze; the next hand's comes after the first's turned", () => {
    let s = run(atSqueeze(), msg.card(88, 0));
    assert.equal(s.squeeze, null);
    assert.equal(s.message, "");  // the squeeze hint is gone
    assert.equal(s.phase, "dealing");
    assert.deepEqual(s.hands.down, { player: 2, banker: 0 });  // the second stays down until turned
    assert.deepEqual(s.hands.player, ["9h"]);
    assert.deepEqual(run(s, { type: "bend", side: "player", value: 1 }), s);
    s = run(s, msg.card(88, 2));  // the second card (steps here in the deal's order)
    s = run(s, msg.squeeze(88, "banker", "ann"));
    assert.deepEqual(s.hands.down, { player: 2, banker: 2 });
    assert.deepEqual(s.hands.player, ["9h", "3d"]);  // the Player's hand stays turned
    s = run(s, msg.squeeze(88, "player", "bob", 2, 1));
    assert.equal(s.croupier, "Squeeze: the Player third card, by bob.");
    assert.equal(s.hands.down.player, 3);
  });
});

describe("local views", () => {
  test("recall steps through a round and stops at its ends", () => {
    let s = run(joined(), msg.result(88, 12), { type: "recall", index: 0 });
    assert.equal(s.recall.step, 0);
    s = run(s, { type: "recall_step", delta: -1 });
    assert.equal(s.recall.step, 0);
    for (let i = 0; i < 10; i++) s = run(s, { type: "recall_step", delta: 1 });
    assert.equal(s.recall.step, msg.COUP_STEPS.length - 1);
    assert.equal(run(s, { type: "recall_close" }).recall, null);
  });

  test("seats, shoe records and notices", () => {
    const s = run(joined(), msg.seat("cy", 3), msg.shoeEnd(), msg.notice("round 7 was open: voided, bets refunded"));
    assert.deepEqual(s.seats, { ann: 1, bob: 2, cy: 3 });
    assert.deepEqual(run(joined(), msg.seat("bob", 2, true)).seats, { ann: 1 });  // freed
    assert.equal(s.records.length, 1);
    assert.equal(s.message, "round 7 was open: voided, bets refunded");
  });

  test("chip picks stay inside the server's chip set", () => {
    const s = joined();
    assert.equal(run(s, { type: "pick_chip", index: 5 }).chip, 5);
    assert.equal(run(s, { type: "pick_chip", index: 6 }).chip, s.chip);
    const fewer = run(s, { type: "pick_chip", index: 5 }, msg.snapshot({ chips: [500, 2500] }));
    assert.equal(fewer.chip, 1);
  });

  test("pong resets the clock offset", () => {
    const s = run(joined(), { type: "pong", server_time: 2000, received_at: 1995 });
    assert.equal(s.clockOffset, 5);
  });
});

test("chipStack breaks a stake into the table's chips, biggest first", () => {
  assert.deepEqual(chipStack(12600, msg.CHIPS), [3, 2, 0]);
  assert.deepEqual(chipStack(0, msg.CHIPS), []);
  assert.equal(chipStack(10_000_000, msg.CHIPS).length, 7);
});

describe("the edges of the cards left", () => {
  test("kept for this table only, shown when asked, kept across tables as a choice", () => {
    let s = joined({ phase: "betting" });
    s = run(s, { type: "show_edges", on: true });
    const edges = { coups: 3, left: 405, edges: { banker: 0.0101, player: 0.0129 } };
    s = run(s, { type: "edges", table: "elsewhere", edges });
    assert.equal(s.edges, null);
    s = run(s, { type: "edges", table: "t1", edges });
    assert.equal(s.edges.left, 405);
    s = run(s, { type: "leave_table" });
    assert.equal(s.showEdges, true);
    assert.equal(s.edges, null);
  });
});


describe("the house's pause", () => {
  test("a pause shows in the phase line until the house lets the table play again", () => {
    let s = joined();
    assert.equal(s.housePaused, null);
    s = run(s, msg.housePause("paused by the house"));
    assert.equal(s.housePaused, "paused by the house");
    assert.equal(phaseLabel(s), "Paused by the house");
    assert.match(s.message, /no new one starts/);
    s = run(s, msg.housePause(null));
    assert.equal(s.housePaused, null);
    assert.notEqual(phaseLabel(s), "Paused by the house");
  });

  test("a snapshot of a held table says why it holds", () => {
    const s = joined({ house_paused: "play stopped by the house" });
    assert.equal(phaseLabel(s), "Play stopped by the house");
  });
});
