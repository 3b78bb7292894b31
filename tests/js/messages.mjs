// Server messages shaped as src/baccara/server/wire/protocol.py's models (snapshot, events,
// private answers), for the client's tests. Amounts are integer cents.

export const BETS = [
  { kind: "player", label: "Player", pays: "1:1", short_pays: "1:1", main: true, min: 1000, max: 500000 },
  { kind: "banker", label: "Banker", pays: "1:1 less 5% commission", short_pays: "0.95:1", main: true, min: 1000, max: 500000 },
  { kind: "tie", label: "Tie", pays: "8:1", short_pays: "8:1", main: true, min: 1000, max: 50000 },
  { kind: "player_pair", label: "Player Pair", pays: "11:1 when the Player's first two cards are a pair", short_pays: "11:1", main: false, min: 500, max: 25000 },
  { kind: "dragon_bonus_player", label: "Dragon Bonus P", pays: "Player natural win 1:1, natural tie push; non-natural win by 9/8/7/6/5/4: 30/10/6/4/2/1 to 1", short_pays: "up to 30:1", main: false, min: 500, max: 25000 },
];
export const CHIPS = [100, 500, 2500, 10000, 50000, 100000];
const ROADS = {
  svg: "<svg></svg>", results: "",
  predictions: { banker: { big_eye_boy: null, small_road: null, cockroach_pig: null }, player: { big_eye_boy: null, small_road: null, cockroach_pig: null } },
  statistics: { banker: 0, player: 0, tie: 0, banker_pairs: 0, player_pairs: 0, naturals: 0, coups: 0, longest_streak: { banker: 0, player: 0 }, current_streak: { side: null, length: 0 } },
};
const FAIR = { server_seed_hash: "ab".repeat(32), rules_hash: "cd".repeat(32), rules: { decks: 8 }, client_seeds: [] };

export function snapshot(overrides = {}) {
  return {
    type: "snapshot", table: "t1", seq: 40, variant: "punto-banco", title: "Punto Banco",
    pays: Object.fromEntries(BETS.map((b) => [b.kind, b.pays])),
    limits: Object.fromEntries(BETS.map((b) => [b.kind, { min: b.min, max: b.max }])),
    bets: BETS, chips: CHIPS,
    phase: "betting", round: 88, number: 12, closes_at: 1000.0, server_time: 992.0, received_at: 990.0,
    time_left: 8.0, bet_seconds: 15.0, squeeze: false, squeeze_seconds: 0.0, squeezing: null,
    user: "ann", seat: 1, seats: { ann: 1, bob: 2 }, balance: 100000, my_bets: [], table_bets: {},
    revealed: [], history: [], roads: ROADS, fair: FAIR, records: [], shoe_coups: 11,
    ...overrides,
  };
}

let seq = 40;
export const resetSeq = (value = 40) => { seq = value; };
const event = (type, data) => ({ type, table: "t1", seq: ++seq, time: 1000 + seq, missed: false, ...data });

export const housePause = (reason) => event("house_pause", { reason });
export const roundOpen = (round = 89, number = 13) => event("round_open", { round, number, closes_at: 1020.0, seconds: 15.0 });
export const bets = (round, players) => {
  const totals = {};
  for (const stakes of Object.values(players)) for (const [k, a] of Object.entries(stakes)) totals[k] = (totals[k] ?? 0) + a;
  return event("bets", { round, totals, players });
};
export const noMoreBets = (round) => event("no_more_bets", { round });
export const squeeze = (round, side, squeezer, first = 0, count = 2) => event("squeeze", { round, side, first, count, squeezer, seconds: 30.0, ends_at: 1050.0 });
export const peel = (round, side, value, by, cards = null) => ({ type: "peel", table: "t1", round, side, by, peel: value, cards });

// P:9h,3d,Jd B:Ks,5c: the Player draws on 2, the Banker stands on 5; Banker wins (6 steps).
export const COUP_STEPS = [
  { card: "9h", side: "player", player: ["9h"], banker: [], player_total: 9, banker_total: null, words: "Player nine", reason: "" },
  { card: "Ks", side: "banker", player: ["9h"], banker: ["Ks"], player_total: 9, banker_total: 0, words: "Banker zero", reason: "" },
  { card: "3d", side: "player", player: ["9h", "3d"], banker: ["Ks"], player_total: 2, banker_total: 0, words: "Player two", reason: "" },
  { card: "5c", side: "banker", player: ["9h", "3d"], banker: ["Ks", "5c"], player_total: 2, banker_total: 5, words: "Banker five", reason: "" },
  { card: "Jd", side: "player", player: ["9h", "3d", "Jd"], banker: ["Ks", "5c"], player_total: 2, banker_total: 5, words: "Player draws: two", reason: "Player draws on 0-5" },
  { card: null, side: null, player: ["9h", "3d", "Jd"], banker: ["Ks", "5c"], player_total: 2, banker_total: 5, words: "Banker five, Player two: Banker wins", reason: "Banker stands on 5 when the Player's third card is a 10" },
];
export const card = (round, index) => event("card", { round, step: index, ...COUP_STEPS[index] });
export const result = (round, number) => event("result", {
  round, number, coup: "P:9h,3d,Jd B:Ks,5c", winner: "banker", player_total: 2, banker_total: 5,
  announcement: "Banker five, Player two: Banker wins", steps: COUP_STEPS, roads: { ...ROADS, results: "B" },
});
export const notice = (text) => event("notice", { text });
export const shoeEnd = () => event("shoe_end", { record: { server_seed_hash: "ef".repeat(32), coups: ["P:9h,3d,Jd B:Ks,5c"] } });
export const seat = (player, number, left = false) => event("seat", { seat: number, player, left });

export const betAck = (betId, kind, amount, round, { balance = 100000 - amount, duplicate = false, status = "placed" } = {}) => ({
  type: "bet_ack", table: "t1", bet_id: betId, round, kind, amount, balance, duplicate, status, returned: null,
});
export const payout = (round, staked, returned, balance) => ({ type: "payout", table: "t1", round, staked, returned, balance });
export const error = (code, message, betId = null) => ({ type: "error", code, message, bet_id: betId });

export const at = (message, received_at) => ({ ...message, received_at });

// -- a players' table: Chemin de Fer ("c1") -----------------------------------------------
// A `chemin` state after every change (server/wire/protocol.py CheminState); the sequence below
// is a real one, played by the engine (skill/chemin.py) with the shoe of seed 16: Ann holds
// the first bank for 50.00, Bob calls banco, has 5 and stands, wins; the bank passes to Bob.
export const CHEMIN_MINIMUM = 1000;
const CHEMIN_FAIR = { ...FAIR, rules: { decks: 1 } };
const SHOE_NEWS = [
  "ann sits down with 200.00.", "bob sits down with 200.00.", "cy sits down with 200.00.",
  "A new shoe: send your seeds to shuffle it.", "The shoe is shuffled; ann holds the bank first.",
];
const STACKS = { ann: 20000, bob: 20000, cy: 20000 };
export const PLAYERS = ["ann", "bob", "cy"];

export function chemin(overrides = {}) {
  return {
    type: "chemin", table: "c1", seq: ++seq, time: 1000 + seq, missed: false,
    phase: "waiting", players: [], in_shoe: [], chips: null, banker: null, bank: 0, stakes: {},
    to_act: null, choices: [], deadline: null, punter: null, punter_cards: [], banker_cards: [],
    news: [], minimum: CHEMIN_MINIMUM, fair: null,
    ...overrides,
  };
}

/** The table in play: every seat in the shoe, `news` the latest lines (at most 12, as sent),
 * the one to act with 20 s on the clock. */
function inShoe(news, overrides) {
  const state = chemin({
    players: PLAYERS, in_shoe: PLAYERS, fair: { ...CHEMIN_FAIR, client_seeds: ["seed of ann", "seed of bob", "seed of cy"] },
    shoe: 7, coup: 1, news: news.slice(-12), ...overrides,
  });
  return { ...state, deadline: state.to_act ? state.time + 20 : null };
}

export const cheminJoined = () => chemin();
export const cheminSat = (count) => chemin({ players: PLAYERS.slice(0, count), news: SHOE_NEWS.slice(0, count) });
export const cheminShuffle = () => chemin({ phase: "shuffle", players: PLAYERS, news: SHOE_NEWS.slice(0, 4), fair: CHEMIN_FAIR });

const COUP1 = [
  "ann holds the bank for 50.00.", "Banco! bob plays for the whole bank of 50.00.",
  "bob plays the hand against the bank.",
];
const COUP1_END = [
  "The punter stands.", "Banker has 0 and draws 2c: 2. (bound by the tableau)",
  "Punter wins: 5 to 2; the banker pays 50.00.", "The bank passes from ann to bob (lost).",
];
/** Ann, the first banker, is asked to set the bank. */
export const cheminBank = () => inShoe(SHOE_NEWS, {
  phase: "bank", chips: STACKS, banker: "ann", to_act: "ann", choices: ["open_bank", "pass_bank"],
  labels: { open_bank: "Set the bank", pass_bank: "Pass the bank" }, decision: 0,
});
/** Ann's bank is 50.00; Bob, on her right, speaks first. */
export const cheminStakes = () => inShoe([...SHOE_NEWS, ...COUP1.slice(0, 1)], {
  phase: "stakes", chips: { ...STACKS, ann: 15000 }, banker: "ann", bank: 5000, to_act: "bob",
  choices: ["stake", "banco"], labels: { stake: "Stake", banco: "Banco" }, decision: 1,
});
export const FIVE_ADVICE = "The tableau leaves the punter free on 5: with 0-5 the equilibrium draws "
  + "(Ethier-Gámez compositions model, 6 decks, 5% commission); by the rule he would draw.";
/** Bob called banco and holds 5: his free choice (with teaching mode's advice). */
export const cheminPunterOnFive = () => inShoe([...SHOE_NEWS, ...COUP1], {
  phase: "punter", chips: { ...STACKS, ann: 15000, bob: 15000 }, banker: "ann", bank: 5000, stakes: { bob: 5000 },
  to_act: "bob", choices: ["draw", "stand"], labels: { draw: "Draw", stand: "Stand" }, punter: "bob", punter_cards: [], banker_cards: [], hidden: 2,
  decision: 2,
});
/** Privately, to Bob (the punter, with what he may do) and to Ann (the banker), with every state of the coup. */
export const cheminHandBob = () => ({
  type: "chemin_hand", table: "c1", side: "punter", cards: ["Td", "5d"], total: 5, advice: FIVE_ADVICE,
  choices: ["draw", "stand"],
});
export const BOUND_ADVICE = "The tableau binds the punter on 4: he draws (he is free only on 5).";
/** The same coup as Bob would hold it on 4: the state is the same, his own choices only the tableau's. */
export const cheminHandBobOnFour = () => ({
  type: "chemin_hand", table: "c1", side: "punter", cards: ["Td", "4d"], total: 4, advice: BOUND_ADVICE,
  choices: ["draw"],
});
export const cheminHandAnn = () => ({ type: "chemin_hand", table: "c1", side: "banker", cards: ["Jd", "Qh"], total: 0, advice: null });
/** Bob stood and won: the bank passes to him. */
export const cheminBankPassed = () => inShoe([...SHOE_NEWS, ...COUP1, ...COUP1_END], {
  phase: "bank", chips: { ann: 15000, bob: 25000, cy: 20000 }, banker: "bob", to_act: "bob",
  choices: ["open_bank", "pass_bank"], labels: { open_bank: "Set the bank", pass_bank: "Pass the bank" },
  coup: 2, decision: 3, last: {
    punter: "bob", banker: "ann", punter_cards: ["Td", "5d"], banker_cards: ["Jd", "Qh", "2c"],
    punter_total: 5, banker_total: 2, result: "P",
  },
});
/** A banker in a free cell (another shoe): his choice, the cards on the felt. */
export const cheminBankerChoice = () => inShoe(["cy plays the hand against the bank.", "The punter draws: 3s."], {
  phase: "banker", chips: { ann: 15000, bob: 21000, cy: 18500 }, banker: "bob", bank: 4000, stakes: { cy: 1500 },
  to_act: "bob", choices: ["banker_draw", "banker_stand"], labels: { banker_draw: "Draw", banker_stand: "Stand" }, punter: "cy",
  punter_cards: ["3s"], banker_cards: [], hidden: 2, shoe: 8, coup: 4, decision: 13,
});
export const cheminShoeEnd = () => event("shoe_end", {
  table: "c1", record: { version: 3, server_seed_hash: "ef".repeat(32), client_seeds: ["seed of ann", "seed of bob", "seed of cy"], coups: ["P:Td,5d B:Jd,Qh,2c"] },
});

// -- a players' table: Baccarat Banque ("b1") ---------------------------------------------
// A `banque` state after every change (server/wire/protocol.py BanqueState), as a real server
// sent them (tables b1=banque, one deck): Ann and Bob play the shoe (Cy sits down for the
// next one); Ann bids 50.00 for the bank, Bob raises to 60.00 and takes it; Ann stakes
// 20.00 on the left tableau, holds 5 and stands; the banker, with 3, stands; the left
// tableau wins 5 to 3, the right (unstaked) loses 1 to 3. Then Bob retires.
const BQ_FAIR = { ...FAIR, rules: { decks: 1 }, client_seeds: ["seed of ann", "seed of bob"] };
const BQ_NEWS = [
  "ann sits down with 300.00.", "bob sits down with 300.00.", "cy sits down with 300.00.",
  "A new shoe: send your seeds to shuffle it.", "The shoe is shuffled, 2 players.",
];
export const BQ_PLAYERS = ["ann", "bob", "cy"];
const RETIRE = { retire: "Retire from the bank" };  // always labelled: the banker may retire out of turn

export function banque(overrides = {}) {
  return {
    type: "banque", table: "b1", seq: ++seq, time: 1000 + seq, missed: false,
    phase: "waiting", players: [], in_shoe: [], chips: null, banker: null, bank: 0,
    to_act: null, choices: [], labels: RETIRE, deadline: null, news: [], history: [],
    minimum: CHEMIN_MINIMUM, fair: null,
    bids: {}, next_bid: null, can_retire: false, stakes: { L: {}, R: {} }, playing: { L: null, R: null },
    live: null, cards: { L: [], R: [], B: [] }, hidden: { L: 0, R: 0, B: 0 }, last: null,
    ...overrides,
  };
}

/** The shoe in play (Ann and Bob; Cy waits for the next), 20 s on the clock. */
function banqueInShoe(news, overrides) {
  const state = banque({
    players: BQ_PLAYERS, in_shoe: ["ann", "bob"], fair: BQ_FAIR, news: [...BQ_NEWS, ...news].slice(-12),
    shoe: 9, coup: 1, decision: news.length, ...overrides,
  });
  return { ...state, deadline: state.time + 20 };
}

export const banqueJoined = () => banque();
export const banqueSat = (count) => banque({ players: BQ_PLAYERS.slice(0, count), news: BQ_NEWS.slice(0, count) });
export const banqueShuffle = () => banque({
  phase: "shuffle", players: BQ_PLAYERS, news: BQ_NEWS.slice(0, 4), fair: { ...BQ_FAIR, client_seeds: [] },
});
const AUCTION = { phase: "auction", chips: { ann: 30000, bob: 30000 }, choices: ["bid"], labels: { bid: "Bid", ...RETIRE } };
const BIDS = ["ann bids 50.00 for the bank.", "bob bids 60.00 for the bank."];
/** The bank is auctioned: nobody has bid; anybody in the shoe may, from the minimum. */
export const banqueAuction = () => banqueInShoe([], { ...AUCTION, next_bid: 1000 });
export const banqueBid = () => banqueInShoe(BIDS.slice(0, 1), { ...AUCTION, bids: { ann: 5000 }, next_bid: 5001 });
export const banqueRaised = () => banqueInShoe(BIDS, { ...AUCTION, bids: { ann: 5000, bob: 6000 }, next_bid: 6001 });

const TAKEN = [...BIDS, "bob takes the bank for 60.00."];
const STAKES = { phase: "stakes", banker: "bob", to_act: "ann", choices: ["stake"], labels: { stake: "Stake", ...RETIRE } };
/** Bob holds the bank of 60.00 and may retire; Ann, on his right, stakes first. */
export const banqueStakes = () => banqueInShoe(TAKEN, {
  ...STAKES, chips: { ann: 30000, bob: 24000 }, bank: 6000, can_retire: true,
});
const DEALT = [...TAKEN, "ann stakes 20.00 on the left tableau.", "Two cards to the left tableau, to the right, and to the banker."];
const IN_COUP = {
  chips: { ann: 28000, bob: 24000 }, banker: "bob", bank: 6000, stakes: { L: { ann: 2000 }, R: {} },
  playing: { L: "ann", R: null }, hidden: { L: 2, R: 2, B: 2 },
};
/** Ann plays the left tableau with 5: her choice. */
export const banquePunterOnFive = () => banqueInShoe(DEALT, {
  ...IN_COUP, phase: "punter", live: "L", to_act: "ann", choices: ["draw", "stand"],
  labels: { draw: "Draw", stand: "Stand", ...RETIRE },
});
export const BQ_FIVE_ADVICE = "The left punter is free on 5: the equilibrium draws with probability 0.818 "
  + "(the banker answering both tableaux); by the rule he would draw.";
export const BQ_BANKER_ADVICE = "Banker 3 against left stood and right 0 (stakes 20.00 and 0.00): the equilibrium draws.";
/** Privately: Ann's tableau to Ann, the banker's hand to Bob. */
export const banqueHandAnn = (advice = BQ_FIVE_ADVICE, choices = ["draw", "stand"]) => ({
  type: "banque_hand", table: "b1", cards: { L: ["5s", "Js"] }, totals: { L: 5 }, advice, choices,
});
/** Ann's tableau as she would hold it on 7: only the rule's stand is hers. */
export const banqueHandAnnOnSeven = () => ({
  type: "banque_hand", table: "b1", cards: { L: ["5s", "2s"] }, totals: { L: 7 },
  advice: "The tableau binds the punter on 7: he stands (he is free only on 5).", choices: ["stand"],
});
export const banqueHandBob = (advice = null) => ({
  type: "banque_hand", table: "b1", cards: { B: ["Ac", "2c"] }, totals: { B: 3 }, advice,
  choices: advice ? ["banker_draw", "banker_stand"] : null,
});
/** The left punter stood; the right tableau (unstaked) drew by the rule; the banker chooses. */
export const banqueBankerChoice = () => banqueInShoe([...DEALT, "The left punter stands.", "The right punter draws: Kc."], {
  ...IN_COUP, phase: "banker", to_act: "bob", choices: ["banker_draw", "banker_stand"],
  labels: { banker_draw: "Draw", banker_stand: "Stand", ...RETIRE }, cards: { L: [], R: ["Kc"], B: [] },
});
export const BQ_SETTLED_NEWS = [
  "The banker stands.", "Left: 5 to 3, the punters win 20.00.", "Right: 1 to 3, the banker's side wins (no stakes).",
];
const LAST = {
  banker: "bob", players: { L: "ann", R: null },
  cards: { L: ["5s", "Js"], R: ["Ah", "Kh", "Kc"], B: ["Ac", "2c"] }, totals: { L: 5, R: 1, B: 3 },
  result: { L: "P", R: "B" },
};
const COUP = {
  cards: "L:5s,Js R:Ah,Kh,Kc B:Ac,2c", banker: 1, bank: 6000, stakes: { L: [[0, 2000]], R: [] },
  decisions: [{ seat: 0, hand: "L", total: 5, draws: false }, { seat: 1, hand: "B", total: 3, draws: false }],
  result: { L: "P", R: "B" },
};
const SETTLED = [...DEALT, "The left punter stands.", "The right punter draws: Kc.", ...BQ_SETTLED_NEWS];
/** The coup is settled: its hands and result (`last`), the history; the next coup's stakes. */
export const banqueSettled = () => banqueInShoe(SETTLED, {
    ...STAKES, chips: { ann: 32000, bob: 24000 }, bank: 4000, can_retire: true, last: LAST, history: [COUP],
  });
/** A natural on the left is shown and settled at once (with the banker's hand); the right plays on. */
export const banqueNatural = () => banqueInShoe(DEALT, {
  ...IN_COUP, phase: "banker", to_act: "bob", choices: ["banker_draw", "banker_stand"],
  labels: { banker_draw: "Draw", banker_stand: "Stand", ...RETIRE },
  cards: { L: ["Jd", "9d"], R: ["As"], B: ["7c", "6d"] }, hidden: { L: 0, R: 2, B: 0 },
});
/** Bob retires with his bank of 40.00: the bank is auctioned again; the last coup stays. */
export const banqueRetired = () => banqueInShoe([...SETTLED, "bob leaves the bank (retired) with 40.00."], {
  ...AUCTION, chips: { ann: 32000, bob: 28000 }, next_bid: 1000, last: LAST, history: [COUP],
});
export const banqueShoeEnd = () => event("shoe_end", {
  table: "b1", record: { version: 3, server_seed_hash: "9a".repeat(32), client_seeds: ["seed of ann", "seed of bob"], coups: [COUP] },
});

/** One of every server message, as sent (tests/test_client_messages.py checks them against the protocol). */
export function everyMessage() {
  resetSeq(40);
  const { received_at, ...snap } = snapshot({ my_bets: [{ bet_id: "w1-banker", kind: "banker", amount: 2500, status: "placed" }] });
  return [
    snap, roundOpen(89, 13), bets(89, { ann: { banker: 2500 } }), noMoreBets(89),
    squeeze(89, "banker", "ann"), peel(89, "banker", 0.5, "ann", ["Ks", "5c"]),
    ...COUP_STEPS.map((_, i) => card(89, i)), result(89, 13), payout(89, 2500, 4875, 102375),
    shoeEnd(), seat("cy", 3), notice("round 7 was open: voided, bets refunded"),
    betAck("w1-banker", "banker", 2500, 89), error("betting_closed", "no more bets: wait for the next round", "w2-tie"),
    error("rate_limited", "too many messages: slow down"),
    { type: "pong", server_time: 1000.5 }, { type: "seed_ack", table: "t1", seed: "lucky" },
    cheminJoined(), cheminSat(1), cheminShuffle(), cheminBank(), cheminStakes(), cheminPunterOnFive(),
    cheminHandBob(), cheminHandBobOnFour(), cheminHandAnn(),
    cheminBankPassed(), cheminBankerChoice(), cheminShoeEnd(),
    error("not_allowed", "bad stake 100.00: only 50.00 of the bank is open"),
    { type: "seed_ack", table: "c1", seed: "seed of ann" },
    banqueJoined(), banqueSat(3), banqueShuffle(), banqueAuction(), banqueBid(), banqueRaised(), banqueStakes(),
    banquePunterOnFive(), banqueHandAnn(), banqueHandAnnOnSeven(), banqueHandBob(), banqueBankerChoice(), banqueHandBob(BQ_BANKER_ADVICE),
    banqueSettled(), banqueNatural(), banqueRetired(), banqueShoeEnd(),
    error("not_allowed", "bad bid 60.00: it must beat 60.00"),
  ];
}
