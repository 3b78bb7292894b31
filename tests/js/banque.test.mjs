// The reducer at a Baccarat Banque table over a real sequence of the server's states
// (node --test tests/js/): join, sit, the shuffle, the auction in the open (a bid, a raise),
// the stakes on a tableau, a punter's choice on 5 and the banker's, the hands face down
// with mine face up, the coup's result, retiring, the shoe's end, errors; the page's own
// actions become the wire's messages. The fixtures validate against the protocol's models
// (tests/test_client_messages.py).
import assert from "node:assert/strict";
import { beforeEach, describe, test } from "node:test";

import {
  OUTCOMES, actionLabel, banquePhaseLabel, bestBid, bidsInOrder, canBid, covered, decisionTimeLeft, inShoe,
  isSeated, mayRetire, myChoices, myTurn, open, prompt, stakesByName, turnChoices,
} from "../../src/baccara/server/static/banque.js";
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
  { type: "open_table", table: "b1", game: "banque", title: "Baccarat Banque" });

const STEPS = [
  msg.banqueJoined, () => msg.banqueSat(1), () => msg.banqueSat(2), () => msg.banqueSat(3), msg.banqueShuffle,
  msg.banqueAuction, msg.banqueBid, msg.banqueRaised, msg.banqueStakes, msg.banquePunterOnFive,
  msg.banqueBankerChoice, msg.banqueSettled, msg.banqueRetired,
];
const AT = {
  joined: 1, seated: 4, shuffle: 5, auction: 6, bid: 7, raised: 8, stakes: 9, five: 10, banker: 11, settled: 12, retired: 13,
};

/** The shoe so far, as `name` receives it (each state stamped on arrival, 2 s behind the
 * server); the private hands come after the states of the coup, to whom they belong. */
function shoe(name, upTo) {
  msg.resetSeq(40);
  let state = as(name);
  for (const make of STEPS.slice(0, upTo)) {
    const m = make();
    state = run(state, msg.at(m, m.time - 2));
    if (m.phase === "punter" && name === "ann") state = run(state, msg.banqueHandAnn());
    if (m.phase === "banker" && name === "ann") state = run(state, msg.banqueHandAnn(null));
    if (m.phase === "punter" && name === "bob") state = run(state, msg.banqueHandBob());
    if (m.phase === "banker" && name === "bob") state = run(state, msg.banqueHandBob(msg.BQ_BANKER_ADVICE));
  }
  return state;
}

beforeEach(() => msg.resetSeq(40));

describe("joining, sitting down, the shuffle", () => {
  test("the join's answer is the table's state: a Banque table, nobody seated", () => {
    const s = shoe("ann", AT.joined);
    assert.equal(s.game, "banque");
    assert.equal(s.title, "Baccarat Banque");
    assert.equal(banquePhaseLabel(s), "Waiting for players");
    assert.equal(isSeated(s), false);
    assert.equal(s.banque.felt, null);
    assert.deepEqual(myChoices(s), []);
    assert.equal(prompt(s), "");
  });

  test("a buy-in typed by a person is sent in cents; leaving and a seed are the wire's messages", () => {
    const s = shoe("ann", AT.joined);
    assert.deepEqual(run(s, { type: "sit", text: "300" }).outbox, [{ type: "sit", buy_in: 30000 }]);
    assert.match(run(s, { type: "sit", text: "lots" }).message, /such as 200\.00/);
    const seated = shoe("ann", AT.shuffle);
    assert.equal(isSeated(seated), true);
    assert.equal(banquePhaseLabel(seated), "Shuffling");
    assert.deepEqual(run(seated, { type: "send_seed", seed: " lucky " }).outbox, [{ type: "seed", seed: "lucky" }]);
    assert.deepEqual(run(seated, { type: "leave_seat" }).outbox, [{ type: "leave" }]);
  });

  test("the seats fill in order and the news says so", () => {
    const s = shoe("cy", AT.seated);
    assert.deepEqual(s.banque.players, ["ann", "bob", "cy"]);
    assert.deepEqual(s.banque.fresh, ["cy sits down with 300.00."]);
  });
});

describe("the auction", () => {
  test("everybody in the shoe may bid, from the server's least bid; nobody's turn; a clock for all", () => {
    const ann = shoe("ann", AT.auction), cy = shoe("cy", AT.auction);
    assert.equal(banquePhaseLabel(ann), "Auction for the bank");
    assert.equal(canBid(ann), true);
    assert.equal(ann.banque.nextBid, 1000);
    assert.equal(ann.banque.toAct, null);
    assert.deepEqual(myChoices(ann), []);  // bidding is not a turn
    assert.equal(prompt(ann), "The bank is up for auction: bid 10.00 or more.");
    assert.equal(actionLabel(ann.banque, "bid"), "Bid");
    assert.equal(bestBid(ann.banque), null);
    // Cy sits for the next shoe: he watches the auction
    assert.equal(inShoe(cy), false);
    assert.equal(canBid(cy), false);
    assert.equal(prompt(cy), "");
    assert.equal(run(cy, { type: "banque_act", action: "bid", text: "20" }).outbox.length, 0);
    // the deadline on the server's clock, the state stamped 2 s behind it
    assert.equal(ann.clockOffset, 2);
    assert.equal(decisionTimeLeft(cy, ann.banque.deadline - 2 - 5), 5);
    assert.equal(ann.banque.clockSeconds, 20);
  });

  test("a decision names the one it answers: the state's shoe, coup and decision", () => {
    assert.deepEqual(shoe("ann", AT.auction).banque.due, { shoe: 9, coup: 1, decision: 0 });
    assert.deepEqual(shoe("bob", AT.bid).banque.due, { shoe: 9, coup: 1, decision: 1 });
  });

  test("a bid typed by a person is sent in cents; under the least bid it is not sent", () => {
    const ann = shoe("ann", AT.auction);
    assert.deepEqual(run(ann, { type: "banque_act", action: "bid", text: "50" }).outbox,
      [{ type: "act", action: "bid", amount: 5000, ...ann.banque.due }]);
    const low = run(ann, { type: "banque_act", action: "bid", text: "9.99" });
    assert.deepEqual(low.outbox, []);
    assert.equal(low.message, "Bid 10.00 or more.");
    assert.match(run(ann, { type: "banque_act", action: "bid", text: "fifty" }).message, /such as 50\.00/);
  });

  test("Bob sees Ann's bid and raises over it; both see every bid, the best first", () => {
    const bob = shoe("bob", AT.bid);
    assert.deepEqual(bestBid(bob.banque), { name: "ann", amount: 5000 });
    assert.equal(bob.banque.nextBid, 5001);
    assert.equal(prompt(bob), "The bank is up for auction: bid 50.01 or more, to beat ann's 50.00.");
    assert.deepEqual(run(bob, { type: "banque_act", action: "bid", text: "60.00" }).outbox,
      [{ type: "act", action: "bid", amount: 6000, ...bob.banque.due }]);
    const ann = shoe("ann", AT.raised);
    assert.deepEqual(bidsInOrder(ann.banque), [{ name: "bob", amount: 6000 }, { name: "ann", amount: 5000 }]);
    assert.equal(prompt(ann), "The bank is up for auction: bid 60.01 or more, to beat bob's 60.00.");
    assert.equal(prompt(shoe("bob", AT.raised)), "You hold the best bid, 60.00: the bank is yours unless somebody raises.");
    assert.equal(ann.banque.deadline, 1068);  // each bid restarts the clock
  });

  test("a refused bid is shown until the next bid comes", () => {
    let ann = shoe("ann", AT.bid);
    ann = run(ann, msg.error("not_allowed", "bad bid 50.00: it must beat 50.00"));
    assert.equal(ann.message, "bad bid 50.00: it must beat 50.00");
    assert.equal(canBid(ann), true);
    assert.equal(run(ann, msg.banqueRaised()).message, "");
  });
});

describe("the stakes", () => {
  test("the best bid takes the bank; Ann, on the banker's right, stakes on a tableau", () => {
    const ann = shoe("ann", AT.stakes), bob = shoe("bob", AT.stakes);
    assert.equal(ann.banque.banker, "bob");
    assert.equal(ann.banque.bank, 6000);
    assert.equal(canBid(ann), false);
    assert.deepEqual(ann.banque.bids, {});
    assert.equal(myTurn(ann), true);
    assert.deepEqual(myChoices(ann), ["stake"]);
    assert.equal(prompt(ann), "The bank is 60.00, 0.00 covered: stake on the left or the right tableau, or sit out.");
    assert.equal(actionLabel(ann.banque, "stake"), "Stake");
    assert.equal(open(ann.banque), 6000);
    assert.deepEqual(myChoices(bob), []);
    assert.deepEqual(ann.banque.fresh, ["bob takes the bank for 60.00."]);
  });

  test("a stake goes with its tableau; a stake of 0 sits out; a bad one is not sent", () => {
    const ann = shoe("ann", AT.stakes);
    assert.deepEqual(run(ann, { type: "banque_act", action: "stake", text: "20", tableau: "L" }).outbox,
      [{ type: "act", action: "stake", amount: 2000, tableau: "L", ...ann.banque.due }]);
    assert.deepEqual(run(ann, { type: "banque_act", action: "stake", text: "1,000.50", tableau: "R" }).outbox,
      [{ type: "act", action: "stake", amount: 100050, tableau: "R", ...ann.banque.due }]);
    assert.deepEqual(run(ann, { type: "banque_act", action: "stake", text: "0" }).outbox,
      [{ type: "act", action: "stake", amount: 0, ...ann.banque.due }]);
    assert.deepEqual(run(ann, { type: "banque_act", action: "stake", text: "20", tableau: "X" }).outbox, []);
    assert.deepEqual(run(ann, { type: "banque_act", action: "stake", text: "twenty", tableau: "L" }).outbox, []);
    assert.equal(run(shoe("bob", AT.stakes), { type: "banque_act", action: "stake", text: "5", tableau: "L" }).message,
      "Wait for your turn.");
  });

  test("once decided, the controls wait for the server's answer: the next state, or an error", () => {
    const sent = run(shoe("ann", AT.stakes), { type: "banque_act", action: "stake", text: "20", tableau: "L" });
    assert.deepEqual(myChoices(sent), []);
    assert.deepEqual(run(sent, { type: "banque_act", action: "stake", text: "20", tableau: "L" }).outbox, []);
    const refused = run(sent, msg.error("not_allowed", "bad stake 80.00: the bank covers only 60.00 more"));
    assert.deepEqual(myChoices(refused), ["stake"]);
    assert.match(refused.message, /^bad stake 80\.00/);
  });

  test("the banker may retire when the server says so, with its words on the button", () => {
    const bob = shoe("bob", AT.stakes), ann = shoe("ann", AT.stakes);
    assert.equal(mayRetire(bob), true);
    assert.equal(mayRetire(ann), false);
    assert.equal(actionLabel(bob.banque, "retire"), "Retire from the bank");
    assert.equal(prompt(bob), "You hold the bank: you may retire before the first stake.");
    const sent = run(bob, { type: "banque_act", action: "retire" });
    assert.deepEqual(sent.outbox, [{ type: "act", action: "retire", shoe: 9, coup: 1, decision: 3 }]);
    assert.equal(mayRetire(sent), false);  // sent once
    assert.deepEqual(run(ann, { type: "banque_act", action: "retire" }).outbox, []);
    assert.equal(mayRetire(shoe("bob", AT.five)), false);  // not once staked
  });
});

describe("the coup", () => {
  test("the hands lie face down; mine come privately, face up with the total", () => {
    const ann = shoe("ann", AT.five), bob = shoe("bob", AT.five), cy = shoe("cy", AT.five);
    assert.deepEqual(ann.banque.felt.L, { cards: ["5s", "Js"], total: 5 });
    assert.deepEqual(ann.banque.felt.B, { cards: ["??", "??"], total: null });
    assert.deepEqual(ann.banque.felt.R, { cards: ["??", "??"], total: null });
    assert.deepEqual(bob.banque.felt.B, { cards: ["Ac", "2c"], total: 3 });
    assert.deepEqual(bob.banque.felt.L.cards, ["??", "??"]);
    for (const k of ["L", "B", "R"]) assert.deepEqual(cy.banque.felt[k].cards, ["??", "??"]);
    assert.deepEqual(stakesByName(cy.banque), { ann: { tableau: "L", amount: 2000 } });
    assert.equal(covered(cy.banque), 2000);
    assert.equal(cy.banque.playing.L, "ann");
  });

  test("Ann on 5 draws or stands on the live tableau, with teaching mode's advice", () => {
    const ann = shoe("ann", AT.five), cy = shoe("cy", AT.five);
    assert.equal(ann.banque.live, "L");
    assert.deepEqual(myChoices(ann), ["draw", "stand"]);
    assert.equal(prompt(ann), "Your left tableau (5): draw a third card or stand.");
    assert.equal(actionLabel(ann.banque, "stand"), "Stand");
    assert.equal(ann.banque.advice, msg.BQ_FIVE_ADVICE);
    assert.equal(cy.banque.advice, null);
    assert.deepEqual(run(ann, { type: "banque_act", action: "stand" }).outbox, [{ type: "act", action: "stand", ...ann.banque.due }]);
    assert.deepEqual(myChoices(cy), []);
  });

  test("on a bound total Ann's state is the same; her own message gives the rule's stand", () => {
    const seven = run(shoe("ann", AT.five), msg.banqueHandAnnOnSeven());
    const cy = shoe("cy", AT.five);
    assert.deepEqual(cy.banque.choices, ["draw", "stand"]);  // everybody's view, whatever her total
    assert.deepEqual(myChoices(seven), ["stand"]);
    assert.deepEqual(turnChoices(seven), ["stand"]);
    assert.equal(prompt(seven), "Your left tableau (7): stand, as the rule has you.");
    assert.deepEqual(run(seven, { type: "banque_act", action: "draw" }).outbox, []);  // not sent
    assert.deepEqual(run(seven, { type: "banque_act", action: "stand" }).outbox, [{ type: "act", action: "stand", ...seven.banque.due }]);
    const moved = run(seven, msg.banqueBankerChoice());  // the turn moved to the banker
    assert.equal(moved.banque.ownChoices, null);
    assert.deepEqual(myChoices(moved), []);
  });

  test("the banker chooses knowing both tableaux; a third card shows beside the backs", () => {
    const bob = shoe("bob", AT.banker), ann = shoe("ann", AT.banker);
    assert.deepEqual(myChoices(bob), ["banker_draw", "banker_stand"]);
    assert.equal(prompt(bob), "Your bank's hand (3), against both tableaux: draw a third card or stand.");
    assert.equal(actionLabel(bob.banque, "banker_draw"), "Draw");
    assert.equal(bob.banque.advice, msg.BQ_BANKER_ADVICE);
    assert.equal(ann.banque.advice, null);  // her choice is made: no advice now
    assert.deepEqual(ann.banque.felt.R, { cards: ["??", "??", "Kc"], total: null });
    assert.deepEqual(ann.banque.felt.L, { cards: ["5s", "Js"], total: 5 });
    assert.deepEqual(run(bob, { type: "banque_act", action: "banker_stand" }).outbox, [{ type: "act", action: "banker_stand", ...bob.banque.due }]);
  });

  test("a card turned up since my hand came stays on the felt, without a stale total", () => {
    let ann = shoe("ann", AT.five);
    ann = run(ann, { ...msg.banquePunterOnFive(), cards: { L: ["4c"], R: [], B: [] }, to_act: "bob" });
    assert.deepEqual(ann.banque.felt.L, { cards: ["5s", "Js", "4c"], total: null });
    ann = run(ann, { ...msg.banqueHandAnn(null), cards: { L: ["5s", "Js", "4c"] }, totals: { L: 9 } });
    assert.deepEqual(ann.banque.felt.L, { cards: ["5s", "Js", "4c"], total: 9 });
  });

  test("a natural is shown whole at once, with the banker's hand", () => {
    const cy = run(shoe("cy", AT.stakes), msg.banqueNatural());
    assert.deepEqual(cy.banque.felt.L.cards, ["Jd", "9d"]);
    assert.deepEqual(cy.banque.felt.B.cards, ["7c", "6d"]);
    assert.deepEqual(cy.banque.felt.R.cards, ["??", "??", "As"]);
  });
});

describe("the result", () => {
  test("the coup just settled stays on the felt with its totals and each tableau's result", () => {
    const cy = shoe("cy", AT.settled), ann = shoe("ann", AT.settled);
    assert.equal(cy.banque.dealt, false);
    assert.equal(cy.banque.justSettled, true);
    assert.deepEqual(cy.banque.felt, {
      L: { cards: ["5s", "Js"], total: 5 }, B: { cards: ["Ac", "2c"], total: 3 }, R: { cards: ["Ah", "Kh", "Kc"], total: 1 },
    });
    assert.deepEqual(cy.banque.last.result, { L: "P", R: "B" });
    assert.equal(OUTCOMES[cy.banque.last.result.L], "Punters win");
    assert.deepEqual(cy.banque.fresh.slice(-3), msg.BQ_SETTLED_NEWS);
    assert.equal(ann.banque.mine, null);  // her hand is put away with the coup
    assert.deepEqual(ann.banque.chips, { ann: 32000, bob: 24000 });
    assert.equal(ann.banque.history.length, 1);
    assert.equal(ann.banque.history[0].decisions.length, 2);
    // the same state again (the clock restarted) is not a new result
    assert.equal(run(ann, msg.banqueSettled()).banque.justSettled, false);
  });

  test("a hand of a coup put away changes nothing", () => {
    const ann = shoe("ann", AT.settled);
    assert.equal(run(ann, msg.banqueHandAnn()).banque, ann.banque);
  });

  test("the banker retires: the bank is auctioned again, the last coup still shown", () => {
    const ann = shoe("ann", AT.retired);
    assert.equal(ann.banque.banker, null);
    assert.equal(canBid(ann), true);
    assert.equal(ann.banque.nextBid, 1000);
    assert.deepEqual(ann.banque.felt.R.cards, ["Ah", "Kh", "Kc"]);
    assert.deepEqual(ann.banque.fresh, ["bob leaves the bank (retired) with 40.00."]);
  });
});

describe("the shoe's end and reconnecting", () => {
  test("the shoe's record is kept to download", () => {
    const s = run(shoe("ann", AT.settled), msg.banqueShoeEnd());
    assert.equal(s.records.length, 1);
    assert.equal(s.records[0].coups[0].cards, "L:5s,Js R:Ah,Kh,Kc B:Ac,2c");
  });

  test("after a reconnect the join's state counts, whatever its seq; replayed states do not", () => {
    let s = shoe("ann", AT.five);
    s = run(s, { type: "connection", open: false }, { type: "connection", open: true });
    s = run(s, { ...msg.banqueSettled(), seq: 1 });
    assert.equal(s.banque.phase, "stakes");
    assert.equal(s.seq, 1);
    s = run(s, { ...msg.banquePunterOnFive(), missed: true });
    assert.equal(s.banque.phase, "stakes");
  });

  test("another table's state changes nothing", () => {
    const s = shoe("ann", AT.stakes);
    assert.equal(run(s, { ...msg.banqueRetired(), table: "b2" }).banque, s.banque);
  });
});
