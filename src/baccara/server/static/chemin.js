// Chemin de Fer at the web table: the reducer's part for a players' table. The server's
// `chemin` state says everything (who sits, each player's chips, the banker and the bank,
// the stakes, whose turn it is with which choices and until when, the hands, the news);
// nothing here knows a rule of the game: what may be done comes from `choices` (each
// button's words from `labels`, the server's rulebook; the punter's own, in his
// private `chemin_hand`, where the state offers both on every total), amounts and totals from the
// server. The reducer only keeps what a person needs to follow the table: the last
// coup's cards once the server has put them away, and the news lines that have just
// happened (the result).
import { money, parseMoney } from "./money.js";
import {
  actionLabel, FACE_DOWN, SEAT_LOCAL, clockSeconds, dueOf, freshLines, newsOf, playersSelectors, seatsOf, tableStateOf, timeLeft,
} from "./players.js";
import { outgoing } from "./protocol.js";

export { actionLabel, FACE_DOWN, freshLines };

export const GAME = "chemin-de-fer";

/** A punter's pass: a stake of nothing (the engine's `stake` of 0 declines). */
export const PASS = "pass";

/** The decisions whose act message carries an amount (server/realtime/sockets.py). */
export const WITH_AMOUNT = new Set(["open_bank", "stake"]);

const PHASE_LABELS = {
  starting: "Opening", waiting: "Waiting for players", shuffle: "Shuffling", bank: "The bank",
  stakes: "Stakes", punter: "Punter's choice", banker: "Banker's choice", after: "Coup over",
  over: "Shoe over",
};
const IN_COUP = new Set(["stakes", "punter", "banker"]);  // a coup under way
const FRESH = new Set(["starting", "waiting", "shuffle", "stakes"]);  // the last coup is put away

// -- selectors --------------------------------------------------------------------------

export const { phaseLabel: cheminPhaseLabel, isSeated, myTurn, turnChoices, myChoices } =
  playersSelectors("chemin", PHASE_LABELS);
/** The part of the bank the punters have covered so far. */
export const covered = (chemin) => Object.values(chemin.stakes).reduce((sum, amount) => sum + amount, 0);

/** Seconds left to decide at client time `now` (seconds), on the server's clock. */
export const decisionTimeLeft = (state, now) => timeLeft(state, state.chemin?.deadline, now);

/** What the player whose turn it is is asked, in words (empty when it is not mine). */
export function prompt(state) {
  const c = state.chemin, choices = myChoices(state);
  if (!choices.length) return "";
  const total = (value) => (value === null ? "" : ` (${value})`);
  if (choices.includes("open_bank")) return `You hold the bank: set it (at least ${money(c.minimum)}) or pass it.`;
  if (choices.includes("keep_bank")) return `Your bank won: keep it at ${money(c.bank)} or pass it.`;
  if (choices.includes("banco")) return `The bank is ${money(c.bank)}, ${money(covered(c))} covered: stake part of it or call banco.`;
  if (choices.includes("draw") && choices.includes("stand")) return `Your hand${total(c.punterTotal)}: draw a third card or stand.`;
  if (choices.includes("draw")) return `Your hand${total(c.punterTotal)}: draw a third card, as the tableau has you.`;
  if (choices.includes("stand")) return `Your hand${total(c.punterTotal)}: stand, as the tableau has you.`;
  if (choices.includes("banker_draw")) return `Your bank's hand${total(c.bankerTotal)}: draw a third card or stand.`;
  return "Your turn.";
}

// -- the server's state ---------------------------------------------------------------------

function handOf(m) {
  const down = Array(m.hidden ?? 0).fill(FACE_DOWN);
  return {
    punter: m.punter, banker: m.banker, punterCards: [...down, ...m.punter_cards],
    bankerCards: [...down, ...m.banker_cards], punterTotal: null, bankerTotal: null, over: false,
  };
}

/** The felt as its punter or banker sees it: their own hand face up, with its total. */
function withMine(hand, mine) {
  if (!hand || !mine || hand.over) return hand;
  return mine.side === "punter"
    ? { ...hand, punterCards: mine.cards, punterTotal: mine.total }
    : { ...hand, bankerCards: mine.cards, bankerTotal: mine.total };
}

/** A `chemin_hand` message: my own hand during a coup (private), and if I choose, what I
 * may do and my advice. */
export function onCheminHand(state, m) {
  const c = state.chemin;
  if (!c || m.table !== state.table) return state;
  const mine = { side: m.side, cards: m.cards, total: m.total };
  const hand = withMine(c.publicHand, mine);
  return {
    ...state,
    chemin: {
      ...c, mine, hand, advice: m.advice ?? null, ownChoices: m.choices ?? null,
      punterTotal: hand?.punterTotal ?? null, bankerTotal: hand?.bankerTotal ?? null,
    },
  };
}

/** The coup the server just settled (`last`), as it stays on the felt with its result. */
function settledHandOf(last) {
  return {
    punter: last.punter, banker: last.banker, punterCards: last.punter_cards,
    bankerCards: last.banker_cards, punterTotal: last.punter_total, bankerTotal: last.banker_total,
    result: last.result, over: true,
  };
}

const lastKey = (last) => (last ? `${last.punter_cards.join()}|${last.banker_cards.join()}` : null);

/** A `chemin` event: the whole table as the server sees it, after every change. */
export function onChemin(state, m) {
  if (m.missed) return state;  // replayed after a reconnect: the state sent on joining is newer
  const prev = state.chemin;
  const dealt = (m.hidden ?? 0) > 0 || m.punter_cards.length > 0 || m.banker_cards.length > 0;
  const { added, fresh } = newsOf(prev, m);
  const settled = !dealt && m.last && lastKey(m.last) !== prev?.lastKey;  // a coup just ended
  const coupOver = Boolean(prev && IN_COUP.has(prev.phase) && !IN_COUP.has(m.phase)) || Boolean(prev && settled);
  // a tie goes straight to the next stakes: its result stays on the felt until a deal
  const held = !dealt && (settled ? m.phase === "stakes" : Boolean(prev?.held) && m.phase === "stakes");
  const keep = !FRESH.has(m.phase) || held;
  const publicHand = dealt ? handOf(m) : null;
  const mine = dealt ? prev?.mine ?? null : null;  // my own cards stay mine for the coup
  const hand = dealt ? withMine(publicHand, mine) : settled ? settledHandOf(m.last)
    : keep && prev?.hand ? { ...prev.hand, over: true } : null;
  const result = coupOver ? { lines: added } : keep ? prev?.result ?? null : null;
  const turnMoved = m.to_act !== prev?.toAct || m.phase !== prev?.phase;
  const chemin = {
    phase: m.phase, players: m.players, inShoe: m.in_shoe, chips: m.chips ?? {}, banker: m.banker,
    bank: m.bank, stakes: m.stakes, toAct: m.to_act, choices: m.choices, labels: m.labels ?? {},
    deadline: m.deadline, clockSeconds: clockSeconds(prev, m), due: dueOf(m),
    punter: m.punter, punterTotal: hand?.punterTotal ?? null, bankerTotal: hand?.bankerTotal ?? null,
    hand, publicHand, mine, result, news: m.news, fresh, minimum: m.minimum,
    advice: dealt && m.to_act === prev?.toAct ? prev?.advice ?? null : null, decided: false,
    ownChoices: turnMoved ? null : prev?.ownChoices ?? null,  // mine until the turn moves
    lastKey: lastKey(m.last ?? null), held, ...seatsOf(m),
  };
  return {
    ...state, ...tableStateOf(state, prev, m, turnMoved), game: GAME, chemin, title: state.title || "Chemin de Fer",
  };
}

// -- the player's own actions --------------------------------------------------------------

/** A decision: one of the server's `choices`, on my turn; `text` the amount typed, if any. */
function act(state, { action, text }) {
  const passing = action === PASS && myChoices(state).includes("stake");
  if (!passing && !myChoices(state).includes(action)) return { ...state, message: "Wait for your turn." };
  const decided = { ...state, chemin: { ...state.chemin, decided: true }, message: "" };
  if (passing) return { ...decided, outbox: [outgoing.act(state.chemin.due, "stake", 0)] };
  if (!WITH_AMOUNT.has(action)) return { ...decided, outbox: [outgoing.act(state.chemin.due, action)] };
  const cents = parseMoney(text);
  if (!cents) return { ...state, message: "Type an amount, such as 10.00." };
  return { ...decided, outbox: [outgoing.act(state.chemin.due, action, cents)] };
}

/** The server's answer to a refused decision: the choices come back. */
export function onCheminError(state) {
  return state.chemin?.decided ? { ...state, chemin: { ...state.chemin, decided: false } } : state;
}

export const CHEMIN_LOCAL = { ...SEAT_LOCAL, act };
