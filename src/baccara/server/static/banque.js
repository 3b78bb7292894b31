// Baccarat Banque at the web table: the reducer's part for the `banque` state. The server
// says everything (who sits and plays this shoe, each player's chips, the auction's bids
// and the least bid that beats the best, the banker and the bank, the stakes on the left
// and the right tableau and who plays each, whose turn it is with which choices and until
// when, the cards face up, the coup just settled, this shoe's coups, the news); nothing
// here knows a rule of the game: what may be done comes from `choices` (a punter's own,
// in his private `banque_hand`, where the state offers both on every total), `can_retire`
// and `next_bid`, each button's words from `labels`, amounts and totals from the server. The
// reducer lays the felt: everybody's view (backs for the cards face down), my own hands
// over it (`banque_hand`, private), or the coup just settled (`last`) between coups.
import { money, parseMoney } from "./money.js";
import {
  actionLabel, clockSeconds, dueOf, FACE_DOWN, newsOf, playersSelectors, SEAT_LOCAL, seatsOf, tableStateOf, timeLeft,
} from "./players.js";
import { outgoing } from "./protocol.js";

export { actionLabel };

export const GAME = "banque";
/** The two tableaux, and the three hands on the felt (left, the banker's, right). */
export const TABLEAUX = ["L", "R"];
export const HANDS = ["L", "B", "R"];
export const HAND_NAMES = Object.freeze({ L: "Left", R: "Right", B: "Banker" });
/** A tableau's result as the server codes it: the punters win, the bank wins, a tie. */
export const OUTCOMES = Object.freeze({ P: "Punters win", B: "Bank wins", T: "Tie" });

const PHASE_LABELS = {
  starting: "Opening", waiting: "Waiting for players", shuffle: "Shuffling", auction: "Auction for the bank",
  stakes: "Stakes", punter: "Punter's choice", banker: "Banker's choice", over: "Shoe over",
};
const IN_COUP = new Set(["punter", "banker"]);  // a coup dealt, its hands on the felt

// -- selectors --------------------------------------------------------------------------

export const { phaseLabel: banquePhaseLabel, isSeated, myTurn, turnChoices, myChoices } =
  playersSelectors("banque", PHASE_LABELS);
/** Whether I play this shoe (seated players join at the next shoe). */
export const inShoe = (state) => Boolean(state.banque?.inShoe.includes(state.me));
/** Whether I may bid now: the auction is open to everybody in the shoe, in no order. */
export const canBid = (state) => Boolean(state.banque?.choices.includes("bid") && inShoe(state));
/** Whether I hold the bank and the server says I may retire now. */
export const mayRetire = (state) => Boolean(state.banque?.canRetire && state.banque.banker === state.me && !state.banque.decided);

/** Every bid of the auction, the best first: [{name, amount}]. */
export const bidsInOrder = (banque) => Object.entries(banque?.bids ?? {})
  .map(([name, amount]) => ({ name, amount })).sort((a, b) => b.amount - a.amount);
export const bestBid = (banque) => bidsInOrder(banque)[0] ?? null;

/** The stakes on both tableaux, and what the bank still covers. */
export const covered = (banque) => TABLEAUX.reduce(
  (sum, t) => sum + Object.values(banque.stakes[t]).reduce((s, amount) => s + amount, 0), 0);
export const open = (banque) => Math.max(0, banque.bank - covered(banque));
/** Each player's stake on either tableau: {name: {tableau, amount}}. */
export function stakesByName(banque) {
  const out = {};
  for (const t of TABLEAUX) for (const [name, amount] of Object.entries(banque.stakes[t])) out[name] = { tableau: t, amount };
  return out;
}

/** Seconds left at client time `now` (seconds), on the server's clock. */
export const decisionTimeLeft = (state, now) => timeLeft(state, state.banque?.deadline, now);

const tableauWord = (t) => HAND_NAMES[t].toLowerCase();
const total = (value) => (value === null || value === undefined ? "" : ` (${value})`);

/** What I am asked now, in words (empty when nothing is mine to do). */
export function prompt(state) {
  const b = state.banque;
  if (!b) return "";
  if (canBid(state)) {
    const best = bestBid(b);
    if (best?.name === state.me) return `You hold the best bid, ${money(best.amount)}: the bank is yours unless somebody raises.`;
    const beat = best ? `, to beat ${best.name}'s ${money(best.amount)}` : "";
    return `The bank is up for auction: bid ${money(b.nextBid)} or more${beat}.`;
  }
  const choices = myChoices(state);
  if (choices.includes("stake")) {
    return `The bank is ${money(b.bank)}, ${money(covered(b))} covered: stake on the left or the right tableau, or sit out.`;
  }
  if (choices.includes("draw") || choices.includes("stand")) {
    const what = !choices.includes("stand") ? "draw a third card, as the rule has you"
      : !choices.includes("draw") ? "stand, as the rule has you" : "draw a third card or stand";
    return `Your ${tableauWord(b.live)} tableau${total(b.felt?.[b.live]?.total)}: ${what}.`;
  }
  if (choices.includes("banker_draw")) {
    return `Your bank's hand${total(b.felt?.B?.total)}, against both tableaux: draw a third card or stand.`;
  }
  if (mayRetire(state)) return "You hold the bank: you may retire before the first stake.";
  return "";
}

// -- the server's state ---------------------------------------------------------------------

/** Everybody's view of the three hands: the cards face down as backs, then those face up. */
function publicHandsOf(m) {
  return Object.fromEntries(HANDS.map((k) => [k, [...Array(m.hidden[k] ?? 0).fill(FACE_DOWN), ...m.cards[k]]]));
}

/** The felt during a coup: each hand as everybody sees it, mine (private) over it with its
 * total; a card turned face up since my hand came is kept. */
function feltOf(publicHands, mine) {
  return Object.fromEntries(HANDS.map((k) => {
    const shown = publicHands[k], own = mine?.cards[k];
    if (!own) return [k, { cards: shown, total: null }];
    const cards = [...own, ...shown.slice(own.length)];
    return [k, { cards, total: own.length >= shown.length ? mine.totals[k] ?? null : null }];
  }));
}

/** The coup just settled (`last`): the three hands whole, with their totals. */
function lastFeltOf(last) {
  return Object.fromEntries(HANDS.map((k) => [k, { cards: last.cards[k], total: last.totals[k] }]));
}

const lastKey = (last) => (last ? HANDS.map((k) => last.cards[k].join()).join("|") : null);

/** A `banque` event: the whole table as the server sees it, after every change. */
export function onBanque(state, m) {
  if (m.missed) return state;  // replayed after a reconnect: the state sent on joining is newer
  const prev = state.banque;
  const dealt = IN_COUP.has(m.phase);
  const publicHands = dealt ? publicHandsOf(m) : null;
  const mine = dealt ? prev?.mine ?? null : null;  // my own hands stay mine for the coup
  const last = m.last ?? null;
  const turnMoved = m.to_act !== prev?.toAct || m.phase !== prev?.phase
    || JSON.stringify(m.bids) !== JSON.stringify(prev?.bids);  // a new bid: an old refusal is past
  const banque = {
    phase: m.phase, players: m.players, inShoe: m.in_shoe, chips: m.chips ?? {}, banker: m.banker,
    bank: m.bank, toAct: m.to_act, choices: m.choices, labels: m.labels ?? {},
    deadline: m.deadline, clockSeconds: clockSeconds(prev, m), due: dueOf(m), ...newsOf(prev, m),
    history: m.history ?? [], minimum: m.minimum,
    bids: m.bids, nextBid: m.next_bid, canRetire: m.can_retire,
    stakes: m.stakes, playing: m.playing, live: m.live,
    dealt, publicHands, mine, felt: dealt ? feltOf(publicHands, mine) : last ? lastFeltOf(last) : null,
    last, lastKey: lastKey(last), justSettled: Boolean(last && prev && lastKey(last) !== prev.lastKey),
    advice: dealt && m.to_act === prev?.toAct ? prev?.advice ?? null : null, decided: false,
    ownChoices: turnMoved ? null : prev?.ownChoices ?? null,  // mine until the turn moves
    ...seatsOf(m),
  };
  return {
    ...state, ...tableStateOf(state, prev, m, turnMoved), game: GAME, banque, title: state.title || "Baccarat Banque",
  };
}

/** A `banque_hand` message: my own hands during a coup (private), and if I choose, what I
 * may do and my advice. */
export function onBanqueHand(state, m) {
  const b = state.banque;
  if (!b?.dealt || m.table !== state.table) return state;  // a coup already put away
  const mine = { cards: m.cards, totals: m.totals };
  const own = { advice: m.advice ?? null, ownChoices: m.choices ?? null };
  return { ...state, banque: { ...b, mine, felt: feltOf(b.publicHands, mine), ...own } };
}

/** The server's answer to a refused decision: the choices come back. */
export function onBanqueError(state) {
  return state.banque?.decided ? { ...state, banque: { ...state.banque, decided: false } } : state;
}

// -- the player's own actions --------------------------------------------------------------

const decide = (state, message) => ({ ...state, banque: { ...state.banque, decided: true }, outbox: [message], message: "" });

function bid(state, text) {
  if (!canBid(state)) return { ...state, message: "Only the players of this shoe bid, while the bank is auctioned." };
  const cents = parseMoney(text);
  if (!cents) return { ...state, message: "Type your bid as an amount, such as 50.00." };
  if (cents < state.banque.nextBid) return { ...state, message: `Bid ${money(state.banque.nextBid)} or more.` };
  return { ...state, outbox: [outgoing.act(state.banque.due, "bid", cents)], message: "" };
}

/**
 * A decision (`action`): a bid (`text` the amount typed), retiring from the bank, or one of
 * the server's `choices` on my turn: a stake of `text` on `tableau` ("0": I sit out), draw
 * or stand.
 */
function act(state, { action, text, tableau }) {
  if (!state.banque) return state;
  if (action === "bid") return bid(state, text);
  if (action === "retire") {
    return mayRetire(state) ? decide(state, outgoing.act(state.banque.due, "retire")) : { ...state, message: "You may not retire now." };
  }
  if (!myChoices(state).includes(action)) return { ...state, message: "Wait for your turn." };
  if (action !== "stake") return decide(state, outgoing.act(state.banque.due, action));
  const cents = parseMoney(text);
  if (cents === null) return { ...state, message: "Type your stake as an amount, such as 10.00." };
  if (cents === 0) return decide(state, outgoing.act(state.banque.due, "stake", 0));
  if (!TABLEAUX.includes(tableau)) return { ...state, message: "Choose the left or the right tableau." };
  return decide(state, outgoing.act(state.banque.due, "stake", cents, tableau));
}

export const BANQUE_LOCAL = { ...SEAT_LOCAL, banque_act: act };
