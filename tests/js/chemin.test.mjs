// The reducer at a Chemin de Fer table over a real sequence of the server's states
// (node --test tests/js/): join, sit, the shuffle, a banco, a decision on 5, the bank
// passing, the shoe's end, an error; the page's own actions become the wire's messages.
import assert from "node:assert/strict";
import { beforeEach, describe, test } from "node:test";

import {
  actionLabel, cheminPhaseLabel, covered, decisionTimeLeft, freshLines, isSeated, myChoices, myTurn, prompt, turnChoices,
} from "../../src/baccara/server/static/chemin.js";
import { initialState, reduce } from "../../src/baccara/server/static/reducer.js";
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

const as = (name) => run(initialState(), { type: "login", name, balance: 100000 },
  { type: "open_table", table: "c1", game: "chemin-de-fer", title: "Chemin de Fer" });

/** The shoe so far, as `name` receives it (each message stamped on arrival, 2 s behind the server). */
function shoe(name, upTo) {
  const steps = [
    msg.cheminJoined, () => msg.cheminSat(1), () => msg.cheminSat(2), () => msg.cheminSat(3), msg.cheminShuffle,
    msg.cheminBank, msg.cheminStakes, msg.cheminPunterOnFive, msg.cheminBankPassed,
  ];
  msg.resetSeq(40);
  let state = as(name);
  for (const make of steps.slice(0, upTo)) {
    const m = make();
    state = run(state, msg.at(m, m.time - 2));
  }
  return state;
}
const STEPS = { joined: 1, seated: 4, shuffle: 5, bank: 6, stakes: 7, five: 8, passed: 9 };

beforeEach(() => msg.resetSeq(40));

describe("joining and sitting down", () => {
  test("the join's answer is the table's state: a players' table, nobody seated", () => {
    const s = shoe("ann", STEPS.joined);
    assert.equal(s.game, "chemin-de-fer");
    assert.equal(s.title, "Chemin de Fer");
    assert.equal(s.chemin.phase, "waiting");
    assert.equal(cheminPhaseLabel(s), "Waiting for players");
    assert.equal(isSeated(s), false);
    assert.equal(s.chemin.minimum, 1000);
    assert.deepEqual(myChoices(s), []);
  });

  test("a buy-in typed by a person is sent in cents; a bad one is refused here", () => {
    let s = shoe("ann", STEPS.joined);
    s = run(s, { type: "sit", text: "200" });
    assert.deepEqual(s.outbox, [{ type: "sit", buy_in: 20000 }]);
    assert.equal(s.message, "Buying in for 200.00…");
    s = run(s, { type: "sit", text: "two hundred" });
    assert.deepEqual(s.outbox, []);
    assert.match(s.message, /such as 200\.00/);
  });

  test("a refused buy-in's message stays through the table's news until I act again", () => {
    let s = run(shoe("ann", STEPS.joined), { type: "sit", text: "5000" });
    s = run(s, msg.error("insufficient_funds", "your wallet has 1,000.00: buy in for less"));
    s = run(s, msg.cheminSat(1), msg.cheminSat(2), msg.cheminShuffle());  // it vanished at the next state
    s = run(s, { type: "balance", balance: 100000 }, msg.cheminBank());  // the page's own doing, not mine
    assert.equal(s.message, "your wallet has 1,000.00: buy in for less");
    s = run(s, { type: "sit", text: "200" });
    assert.equal(s.message, "Buying in for 200.00…");
    s = run(s, msg.cheminStakes());
    assert.equal(s.message, "");  // the turn moved: an ordinary message goes as before
  });

  test("the seats fill in order and the news says so", () => {
    const s = shoe("ann", STEPS.seated);
    assert.deepEqual(s.chemin.players, ["ann", "bob", "cy"]);
    assert.equal(isSeated(s), true);
    assert.deepEqual(s.chemin.fresh, ["cy sits down with 200.00."]);
  });
});

describe("a decision names the one it answers", () => {
  test("the state's shoe, coup and decision go with every decision sent", () => {
    const bob = shoe("bob", STEPS.stakes);
    assert.deepEqual(bob.chemin.due, { shoe: 7, coup: 1, decision: 1 });
    assert.deepEqual(run(bob, { type: "act", action: "banco" }).outbox,
      [{ type: "act", action: "banco", shoe: 7, coup: 1, decision: 1 }]);
    assert.deepEqual(shoe("bob", STEPS.passed).chemin.due, { shoe: 7, coup: 2, decision: 3 });
  });
});

describe("the shuffle", () => {
  test("the shoe is committed; every seated player may add a seed", () => {
    let s = shoe("bob", STEPS.shuffle);
    assert.equal(s.chemin.phase, "shuffle");
    assert.equal(cheminPhaseLabel(s), "Shuffling");
    assert.equal(s.fair.server_seed_hash, "ab".repeat(32));
    s = run(s, { type: "send_seed", seed: "  seed of bob " });
    assert.deepEqual(s.outbox, [{ type: "seed", seed: "seed of bob" }]);
    s = run(s, { type: "seed_ack", table: "c1", seed: "seed of bob" });
    assert.equal(s.message, "Client seed added to the next shuffle.");
    assert.deepEqual(run(s, { type: "send_seed", seed: "   " }).outbox, []);
  });
});

describe("the bank", () => {
  test("the first banker is asked to set the bank, with a clock everybody sees", () => {
    const ann = shoe("ann", STEPS.bank), bob = shoe("bob", STEPS.bank);
    assert.equal(ann.chemin.banker, "ann");
    assert.equal(myTurn(ann), true);
    assert.deepEqual(myChoices(ann), ["open_bank", "pass_bank"]);
    assert.equal(prompt(ann), "You hold the bank: set it (at least 10.00) or pass it.");
    assert.deepEqual(myChoices(bob), []);  // not his turn: no controls
    assert.equal(prompt(bob), "");
    // deadline 1066 on the server's clock; the state came at server time 1046, client 1044
    assert.equal(ann.chemin.deadline, 1066);
    assert.equal(ann.clockOffset, 2);
    assert.equal(decisionTimeLeft(bob, 1044), 20);
    assert.equal(decisionTimeLeft(bob, 1054), 10);
    assert.equal(decisionTimeLeft(bob, 1070), 0);
    assert.equal(ann.chemin.clockSeconds, 20);
  });

  test("setting the bank sends the amount typed; passing it sends no amount", () => {
    const ann = shoe("ann", STEPS.bank);
    assert.deepEqual(run(ann, { type: "act", action: "open_bank", text: "50.00" }).outbox,
      [{ type: "act", action: "open_bank", amount: 5000, ...ann.chemin.due }]);
    assert.deepEqual(run(ann, { type: "act", action: "pass_bank" }).outbox, [{ type: "act", action: "pass_bank", ...ann.chemin.due }]);
    const bad = run(ann, { type: "act", action: "open_bank", text: "fifty" });
    assert.deepEqual(bad.outbox, []);
    assert.equal(bad.message, "Type an amount, such as 10.00.");
  });

  test("once decided, the controls wait for the server's answer: the next state, or an error", () => {
    const ann = run(shoe("ann", STEPS.bank), { type: "act", action: "open_bank", text: "5,000" });
    assert.deepEqual(myChoices(ann), []);  // no second click while the first is on its way
    assert.deepEqual(run(ann, { type: "act", action: "pass_bank" }).outbox, []);
    const refused = run(ann, msg.error("not_allowed", "bad bank 5,000.00: between 10.00 and the banker's 200.00"));
    assert.deepEqual(myChoices(refused), ["open_bank", "pass_bank"]);
    assert.match(refused.message, /^bad bank 5,000\.00/);
    const accepted = run(ann, msg.cheminStakes());
    assert.equal(accepted.chemin.decided, false);
  });

  test("a decision that is not mine, or not among the choices, is not sent", () => {
    const bob = shoe("bob", STEPS.bank), ann = shoe("ann", STEPS.bank);
    assert.deepEqual(run(bob, { type: "act", action: "open_bank", text: "50" }).outbox, []);
    assert.deepEqual(run(ann, { type: "act", action: "banco" }).outbox, []);
    assert.equal(run(ann, { type: "act", action: "banco" }).message, "Wait for your turn.");
  });
});

describe("a banco and a decision on 5", () => {
  test("a state sent again with the same news keeps its fresh lines", () => {
    const bob = shoe("bob", STEPS.five);
    const again = run(bob, { ...msg.cheminPunterOnFive(), news: bob.chemin.news });
    assert.deepEqual(again.chemin.fresh, bob.chemin.fresh);
    assert.equal(again.chemin.fresh.length, 2);
  });

  test("the punters speak in turn: Bob may stake or call banco", () => {
    const bob = shoe("bob", STEPS.stakes);
    assert.equal(bob.chemin.bank, 5000);
    assert.equal(covered(bob.chemin), 0);
    assert.deepEqual(myChoices(bob), ["stake", "banco"]);
    assert.equal(prompt(bob), "The bank is 50.00, 0.00 covered: stake part of it or call banco.");
    assert.deepEqual(run(bob, { type: "act", action: "banco" }).outbox, [{ type: "act", action: "banco", ...bob.chemin.due }]);
    assert.deepEqual(run(bob, { type: "act", action: "stake", text: "20" }).outbox,
      [{ type: "act", action: "stake", amount: 2000, ...bob.chemin.due }]);
    assert.equal(bob.chemin.deadline, 1067);
    assert.equal(bob.chemin.clockSeconds, 20);  // the clock's length when the deadline was set
  });

  test("banco: Bob plays the whole bank with 5 and chooses; the others watch", () => {
    const bob = run(shoe("bob", STEPS.five), msg.cheminHandBob()), cy = shoe("cy", STEPS.five);
    assert.equal(bob.chemin.punter, "bob");
    assert.deepEqual(bob.chemin.stakes, { bob: 5000 });
    // his own cards, privately; the banker's lie face down until the settlement
    assert.deepEqual(bob.chemin.hand.punterCards, ["Td", "5d"]);
    assert.deepEqual(bob.chemin.hand.bankerCards, ["??", "??"]);
    assert.equal(bob.chemin.hand.over, false);
    assert.equal(bob.chemin.punterTotal, 5);
    assert.deepEqual(cy.chemin.hand.punterCards, ["??", "??"]);  // Cy sees backs only
    assert.equal(cy.chemin.punterTotal, null);
    assert.deepEqual(bob.chemin.fresh, ["Banco! bob plays for the whole bank of 50.00.", "bob plays the hand against the bank."]);
    assert.deepEqual(myChoices(bob), ["draw", "stand"]);
    assert.equal(prompt(bob), "Your hand (5): draw a third card or stand.");
    assert.deepEqual(run(bob, { type: "act", action: "stand" }).outbox, [{ type: "act", action: "stand", ...bob.chemin.due }]);
    assert.deepEqual(myChoices(cy), []);
    assert.equal(cy.chemin.result, null);
    assert.equal(bob.chemin.advice, msg.FIVE_ADVICE);  // teaching mode's word, to the one choosing
    assert.equal(cy.chemin.advice, null);
  });

  test("on a bound total the state offers both choices; my own message gives the tableau's", () => {
    // the same public state whether Bob holds 4 or 5 (the banker learns nothing from it)
    const five = run(shoe("bob", STEPS.five), msg.cheminHandBob());
    const four = run(shoe("bob", STEPS.five), msg.cheminHandBobOnFour());
    const ann = shoe("ann", STEPS.five);
    assert.deepEqual(ann.chemin.choices, ["draw", "stand"]);
    assert.deepEqual(myChoices(five), ["draw", "stand"]);
    assert.deepEqual(myChoices(four), ["draw"]);
    assert.deepEqual(turnChoices(four), ["draw"]);
    assert.equal(prompt(four), "Your hand (4): draw a third card, as the tableau has you.");
    assert.equal(four.chemin.advice, msg.BOUND_ADVICE);
    assert.deepEqual(run(four, { type: "act", action: "stand" }).outbox, []);  // not sent
    assert.deepEqual(run(four, { type: "act", action: "draw" }).outbox, [{ type: "act", action: "draw", ...four.chemin.due }]);
    // the state sent again on the same turn keeps my choices; once the turn moves they go
    const again = run(four, msg.cheminPunterOnFive());
    assert.deepEqual(myChoices(again), ["draw"]);
    const moved = run(again, msg.cheminBankPassed());
    assert.equal(moved.chemin.ownChoices, null);
    assert.deepEqual(myChoices(moved), ["open_bank", "pass_bank"]);
  });

  test("my own hand comes privately with its total, and stays mine through the coup", () => {
    let ann = run(shoe("ann", STEPS.five), msg.cheminHandAnn());
    assert.deepEqual(ann.chemin.hand.bankerCards, ["Jd", "Qh"]);
    assert.deepEqual(ann.chemin.hand.punterCards, ["??", "??"]);
    ann = run(ann, msg.cheminPunterOnFive());  // the state again: her cards stay face up for her
    assert.deepEqual(ann.chemin.hand.bankerCards, ["Jd", "Qh"]);
    const bob = run(shoe("bob", STEPS.five), msg.cheminHandBob());
    assert.equal(prompt(bob), "Your hand (5): draw a third card or stand.");
  });

  test("a banker in a free cell draws or stands", () => {
    const bob = run(as("bob"), msg.cheminBankerChoice());
    assert.deepEqual(myChoices(bob), ["banker_draw", "banker_stand"]);
    assert.equal(prompt(bob), "Your bank's hand: draw a third card or stand.");
    // each button's words are the server's (its rulebook's), sent with the choices
    assert.equal(actionLabel(bob.chemin, "banker_draw"), "Draw");
    assert.equal(actionLabel(bob.chemin, "banker_stand"), "Stand");
    assert.deepEqual(run(bob, { type: "act", action: "banker_stand" }).outbox, [{ type: "act", action: "banker_stand", ...bob.chemin.due }]);
  });
});

describe("the bank passing", () => {
  test("the coup's lines are the result; the last hand stays on the felt; Bob holds the bank", () => {
    const ann = shoe("ann", STEPS.passed), bob = shoe("bob", STEPS.passed);
    assert.deepEqual(ann.chemin.result.lines, [
      "The punter stands.", "Banker has 0 and draws 2c: 2. (bound by the tableau)",
      "Punter wins: 5 to 2; the banker pays 50.00.", "The bank passes from ann to bob (lost).",
    ]);
    assert.equal(ann.chemin.hand.over, true);
    assert.deepEqual(ann.chemin.hand.punterCards, ["Td", "5d"]);
    assert.equal(ann.chemin.banker, "bob");
    assert.deepEqual(ann.chemin.chips, { ann: 15000, bob: 25000, cy: 20000 });
    assert.deepEqual(myChoices(ann), []);
    assert.deepEqual(myChoices(bob), ["open_bank", "pass_bank"]);
    assert.equal(ann.message, "");
  });

  test("a new coup's stakes put the last hand and result away", () => {
    let bob = shoe("bob", STEPS.passed);
    bob = run(bob, { ...msg.cheminStakes(), banker: "bob", to_act: "cy" });
    assert.equal(bob.chemin.hand, null);
    assert.equal(bob.chemin.result, null);
  });
});

describe("the shoe's end, errors and reconnecting", () => {
  test("the shoe's record is kept to download", () => {
    const s = run(shoe("ann", STEPS.passed), msg.cheminShoeEnd());
    assert.equal(s.records.length, 1);
    assert.equal(s.records[0].version, 3);
  });

  test("an error is shown and changes nothing else", () => {
    const bob = shoe("bob", STEPS.stakes);
    const s = run(bob, msg.error("not_allowed", "bad stake 100.00: only 50.00 of the bank is open"));
    assert.equal(s.message, "bad stake 100.00: only 50.00 of the bank is open");
    assert.equal(s.chemin, bob.chemin);
    // the message stays while the turn is the same, and goes when it moves on
    const same = run(s, { ...msg.cheminStakes(), news: s.chemin.news });
    assert.equal(same.message, s.message);
    assert.equal(run(s, msg.cheminPunterOnFive()).message, "");
  });

  test("after a reconnect the join's state counts; replayed states do not, a missed record does", () => {
    let s = shoe("ann", STEPS.five);
    const end = msg.cheminShoeEnd();
    const now = msg.cheminBankPassed();
    s = run(s, { type: "connection", open: false });
    assert.equal(s.message, "Connection lost: reconnecting…");
    s = run(s, { type: "connection", open: true }, now);  // the state sent on joining again
    assert.equal(s.message, "");
    s = run(s, { ...msg.cheminStakes(), missed: true }, { ...end, seq: now.seq - 1, missed: true });
    assert.equal(s.chemin.banker, "bob");
    assert.equal(s.records.length, 1);
    s = run(s, { ...end, missed: true });
    assert.equal(s.records.length, 1);
  });

  test("a restarted server counts its events again from 1: its state is still taken", () => {
    let s = shoe("ann", STEPS.five);
    s = run(s, { ...msg.cheminBankPassed(), seq: 1 });
    assert.equal(s.chemin.banker, "bob");
    assert.equal(s.seq, 1);
  });

  test("leaving sends the wire's message", () => {
    assert.deepEqual(run(shoe("cy", STEPS.passed), { type: "leave_seat" }).outbox, [{ type: "leave" }]);
  });
});

test("fresh lines: what the latest news adds to the previous", () => {
  assert.deepEqual(freshLines([], ["a", "b"]), ["a", "b"]);
  assert.deepEqual(freshLines(["a", "b"], ["a", "b", "c"]), ["c"]);
  assert.deepEqual(freshLines(["a", "b", "c"], ["b", "c", "d", "e"]), ["d", "e"]);  // the oldest dropped
  assert.deepEqual(freshLines(["a", "b"], ["a", "b"]), []);
});

describe("a coup settled without a choice", () => {
  test("the server's last coup stays on the felt with its totals and result", () => {
    const last = {
      punter: "cdf_bob", banker: "cdf_ann", punter_cards: ["8d", "Kc"], banker_cards: ["3h", "4s"],
      punter_total: 8, banker_total: 7, result: "P",
    };
    const bob = shoe("cdf_bob", 6);
    const after = run(bob, msg.at(msg.chemin({ phase: "bank", players: ["cdf_ann", "cdf_bob", "cdf_cy"], last }), 1000));
    assert.deepEqual(after.chemin.hand, {
      punter: "cdf_bob", banker: "cdf_ann", punterCards: ["8d", "Kc"], bankerCards: ["3h", "4s"],
      punterTotal: 8, bankerTotal: 7, result: "P", over: true,
    });
    // the same last coup sent again (the clock restarted) does not put it back once gone
    const again = run(after, msg.at(msg.chemin({ phase: "bank", last }), 1001));
    assert.equal(again.chemin.lastKey, after.chemin.lastKey);
  });
});

describe("a tie", () => {
  test("its result stays on the felt through the next stakes until a coup is dealt", () => {
    const tie = {
      punter: "bob", banker: "ann", punter_cards: ["Td", "5d", "2c"], banker_cards: ["Jd", "7h"],
      punter_total: 7, banker_total: 7, result: "T",
    };
    const line = "7 to 7: a tie, the stakes are returned.";
    let s = shoe("ann", STEPS.five);  // Bob, the punter, on 5
    s = run(s, msg.chemin({ ...msg.cheminStakes(), news: [...msg.cheminPunterOnFive().news, "The punter draws: 2c.", line], last: tie }));
    assert.deepEqual([s.chemin.hand.result, s.chemin.hand.over], ["T", true]);
    assert.deepEqual(s.chemin.result.lines.at(-1), line);  // it showed nothing: stakes is a coup's phase
    s = run(s, msg.chemin({ ...msg.cheminStakes(), news: [...s.chemin.news, "bob stakes 10.00."], last: tie, stakes: { bob: 1000 } }));
    assert.equal(s.chemin.hand.result, "T");  // still there while the punters stake again
    s = run(s, msg.cheminPunterOnFive());
    assert.equal(s.chemin.hand.over, false);  // dealt: the new coup's cards
  });
});

describe("leaving during a coup", () => {
  test("the leave button cancels a leave asked for during the coup (Stay)", () => {
    let s = shoe("bob", STEPS.five);
    s = run(s, { type: "leave_seat" });
    assert.deepEqual(s.outbox, [{ type: "leave" }]);
    s = run(s, msg.chemin({ ...msg.cheminPunterOnFive(), leaving: ["bob"] }), { type: "leave_seat" });
    assert.deepEqual(s.outbox, [{ type: "leave", stay: true }]);
  });
});

describe("the house's pause", () => {
  test("a players' table the house holds says so in its phase line", () => {
    const s = shoe("ann", STEPS.bank);
    const held = run(s, { ...msg.cheminBank(), house_paused: "Chemin de Fer stopped by the house" });
    assert.equal(cheminPhaseLabel(held), "Chemin de Fer stopped by the house");
    const again = run(held, { ...msg.cheminBank(), house_paused: null });
    assert.notEqual(cheminPhaseLabel(again), "Chemin de Fer stopped by the house");
  });
});
