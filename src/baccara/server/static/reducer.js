// The table's state as a pure reducer: `reduce(state, message) -> newState` over every
// server message and the player's local actions. No DOM, no clock, no randomness: the
// time comes in the messages (`received_at`), bet ids in the `confirm` action. Nothing
// here knows a rule of the game: labels, pays, limits, main bets, chips and hand totals
// all come from the server. `outbox` holds the messages the last action asks to send.
// A players' table keeps its state in `chemin` (chemin.js) or `banque` (banque.js).
import { BANQUE_LOCAL, onBanque, onBanqueError, onBanqueHand } from "./banque.js";
import { CHEMIN_LOCAL, onChemin, onCheminError, onCheminHand } from "./chemin.js";
import { money } from "./money.js";
import { heldLabel, outgoing } from "./protocol.js";

export const SIDES = ["player", "banker"];
const NO_DOWN = Object.freeze({ player: 0, banker: 0 });  // face-down card slots, by hand
const NEW_ROUND = Object.freeze({
  staged: [], mine: {}, tableBets: {}, tableTotals: {}, result: null, payout: null, squeeze: null,
  croupier: "", reason: "", reasons: [],
});

function emptyHands() {
  return { player: [], banker: [], player_total: null, banker_total: null, down: NO_DOWN };
}

export function initialState() {
  return {
    me: null, balance: null, table: null, game: "", seq: 0, clockOffset: 0, connected: false, lost: false, housePaused: null,
    title: "", seat: null, behind: false, bettorsBehind: 0, phase: "", round: null, number: null, closesAt: 0, betSeconds: 0,
    bets: [], chips: [], chip: 2, pays: {},
    staged: [], mine: {}, pending: {}, lastBets: [],
    seats: {}, tableBets: {}, tableTotals: {},
    hands: emptyHands(), croupier: "", reason: "", reasons: [], result: null, payout: null,
    squeezeTable: false, squeeze: null,
    history: [], recall: null, roads: null, ask: null, fair: null, records: [],
    teaching: false, showEdges: false, edges: null, message: "", refused: false, outbox: [], chemin: null, banque: null,
  };
}

// -- selectors ------------------------------------------------------------------------

/** The server's description of a bet kind (label, pays, short_pays, main, min, max). */
export function betOf(state, kind) {
  return state.bets.find((bet) => bet.kind === kind) ?? null;
}

export function labelOf(state, kind) {
  return betOf(state, kind)?.label ?? kind;
}

function sumByKind(list) {
  const totals = {};
  for (const { kind, amount } of list) totals[kind] = (totals[kind] ?? 0) + amount;
  return totals;
}

/** My accepted stakes this round, by kind. */
export const myStakes = (state) => sumByKind(Object.values(state.mine));
/** The chips staged but not yet sent, by kind. */
export const stagedStakes = (state) => sumByKind(state.staged);

/** Seconds left to bet at client time `now` (seconds), corrected to the server's clock. */
export function betTimeLeft(state, now) {
  return Math.max(0, state.closesAt - (now + state.clockOffset));
}

export function squeezeTimeLeft(state, now) {
  return state.squeeze ? Math.max(0, state.squeeze.endsAt - (now + state.clockOffset)) : 0;
}

const PHASE_LABELS = {
  betting: "Place your bets", closing: "No more bets", dealing: "Dealing", squeeze: "Squeeze",
  settled: "Result", closed: "Closed",
};

export function phaseLabel(state) {
  if (state.housePaused) return heldLabel(state.housePaused);
  const quiet = state.phase === "dealing" && !state.hands.player.length && !state.hands.banker.length;
  return quiet ? "No more bets" : PHASE_LABELS[state.phase] ?? (state.phase || "—");
}

/** A stake as the chips that make it up (indices into `chips`, biggest first, at most 7). */
export function chipStack(cents, chips, most = 7) {
  const discs = [];
  let left = cents;
  for (let i = chips.length - 1; i >= 0 && discs.length < most; i--) {
    while (left >= chips[i] && discs.length < most) { discs.push(i); left -= chips[i]; }
  }
  return discs;
}

const CONTROL_KEYS = new Set(["s", "u", "c", "r", "d"]);

/** The keys that stake the main bets: each one's first letter (P, B, T), unless taken. */
export function betKeys(state) {
  const keys = {};
  for (const bet of state.bets) {
    const key = bet.label[0]?.toLowerCase();
    if (bet.main && key && !CONTROL_KEYS.has(key) && !(key in keys)) keys[key] = bet.kind;
  }
  return keys;
}

/** The squeeze key (S): bend the cards I squeeze a quarter more. */
export function squeezeKeyActions(state) {
  const sq = state.squeeze;
  return sq && sq.squeezer === state.me ? [{ type: "bend", side: sq.side, value: sq.peel + 0.25 }] : [];
}

/** How far the squeezed cards are bent as everybody sees them (0 flat .. 1 turned). */
export const bentOf = (sq) => Math.max(sq.peel, sq.remote);

// -- server messages ----------------------------------------------------------------------

function handsOf(step) {
  return {
    player: step.player, banker: step.banker,
    player_total: step.player_total ?? null, banker_total: step.banker_total ?? null,
  };
}

/** A squeeze announced (or a snapshot's): one hand's cards, `count` of them from
 * position `first`; `peel` is mine, `remote` the squeezer's as relayed, `cards` the
 * values once the corner shows. */
function squeezeOf(announced, me) {
  const bent = announced.peel ?? 0, mine = announced.squeezer === me ? bent : 0;  // a reconnect's
  return {
    round: announced.round, side: announced.side, first: announced.first, count: announced.count,
    squeezer: announced.squeezer, endsAt: announced.ends_at, seconds: announced.seconds,
    peel: mine, remote: bent, sent: mine, cards: announced.cards ?? null,
  };
}

function squeezeWords(state, sq) {
  const what = `${labelOf(state, sq.side)} ${sq.count === 1 ? "third card" : "cards"}`;
  const mine = sq.squeezer === state.me;
  return {
    croupier: `Squeeze: the ${what}, ${mine ? "yours" : `by ${sq.squeezer}`}.`,
    message: mine ? `You squeeze the ${what}: drag the corner, click, or press S.` : `${sq.squeezer} squeezes the ${what}.`,
  };
}

const downFor = (hands, sq) => ({ ...hands.down, [sq.side]: sq.first + sq.count });

function onSnapshot(state, m) {
  const mine = {};
  for (const bet of m.my_bets) if (bet.status !== "refunded") mine[bet.bet_id] = { kind: bet.kind, amount: bet.amount };
  const pending = Object.fromEntries(Object.entries(state.pending).filter(([id]) => !(id in mine)));
  const last = m.revealed.at(-1);
  let hands = last ? { ...emptyHands(), ...handsOf(last) } : emptyHands();
  let squeeze = null;
  let words = { croupier: last?.words ?? "", message: state.message };
  if (m.squeezing) {
    squeeze = squeezeOf(m.squeezing, m.user ?? state.me);
    hands = { ...hands, down: downFor(hands, squeeze) };
    words = squeezeWords({ ...state, me: m.user ?? state.me, bets: m.bets }, squeeze);
  }
  const sameRound = m.round === state.round && m.phase === "betting";
  const chips = m.chips;
  return {
    ...state, table: m.table, game: "punto-banco", seq: m.seq, clockOffset: m.server_time - m.received_at,
    title: m.title, seat: m.seat, behind: m.behind ?? false, bettorsBehind: m.bettors_behind ?? 0,
    balance: m.balance ?? state.balance, me: m.user ?? state.me, housePaused: m.house_paused ?? null,
    phase: m.squeezing ? "squeeze" : m.phase, round: m.round, number: m.number,
    closesAt: m.closes_at, betSeconds: m.bet_seconds, squeezeTable: m.squeeze,
    bets: m.bets, chips, chip: Math.min(state.chip, chips.length - 1), pays: m.pays ?? {},
    staged: sameRound ? state.staged : [], mine, pending,
    seats: { ...m.seats }, tableBets: m.table_bets ?? {}, tableTotals: {},
    hands, squeeze, croupier: words.croupier, reason: last?.reason ?? "", message: words.message,
    reasons: m.revealed.map((step) => step.reason).filter(Boolean),
    result: m.phase === "settled" && m.history[0]?.round === m.round ? m.history[0] : null,
    history: m.history, roads: m.roads, fair: m.fair, records: m.records,
    // bets sent but never answered go again under the same ids (the server acks a
    // bet id once and answers a repeat with the same bet, `duplicate: true`)
    outbox: Object.entries(pending).map(([id, b]) => outgoing.bet(id, b.kind, b.amount, b.round)),
  };
}

function onRoundOpen(state, m) {
  const stakes = myStakes(state);
  const lastBets = Object.keys(stakes).length
    ? Object.entries(stakes).map(([kind, amount]) => ({ kind, amount }))
    : state.lastBets;
  return {
    ...state, ...NEW_ROUND, hands: emptyHands(), lastBets, phase: "betting",
    round: m.round, number: m.number, closesAt: m.closes_at, betSeconds: m.seconds,
  };
}

function onCard(state, m) {
  const squeezeOver = state.squeeze !== null;  // its "you squeeze…" hint is done with
  return {
    ...state, phase: state.phase === "squeeze" ? "dealing" : state.phase, squeeze: null,
    hands: { ...state.hands, ...handsOf(m) }, croupier: m.words, reason: m.reason ?? "",
    reasons: m.reason ? [...state.reasons, m.reason] : state.reasons,
    message: squeezeOver ? "" : state.message,
  };
}

function onResult(state, m) {
  const { roads, type, table, seq, time, missed, received_at, ...coup } = m;
  return {
    ...state, phase: "settled", squeeze: null, result: coup, roads,
    croupier: "",  // the result banner says it: once
    history: [coup, ...state.history].slice(0, 10),
  };
}

function onPayout(state, m) {
  const won = m.returned - m.staked;
  const message = won > 0 ? `You win ${money(won)}!` : won === 0 ? "Your bets push." : `You lose ${money(-won)}.`;
  return { ...state, balance: m.balance, message, payout: { round: m.round, bets: m.bets ?? {} } };
}

function onBetAck(state, m) {
  const { [m.bet_id]: _, ...pending } = state.pending;
  const counts = m.round === state.round && m.status !== "refunded";
  const mine = counts ? { ...state.mine, [m.bet_id]: { kind: m.kind, amount: m.amount } } : state.mine;
  const placed = m.seat != null || m.behind ? { seat: m.seat ?? null, behind: m.behind } : {};
  return {
    ...state, ...placed, pending, mine, balance: m.balance,
    message: `Bet accepted: ${labelOf(state, m.kind)} ${money(m.amount)}.`,
  };
}

function onError(state, m) {
  // nothing was done (the table is passing to another server): the bet stays pending
  // and goes again with the next snapshot, under its id
  if (!m.bet_id || m.code === "table_moving") return { ...onBanqueError(onCheminError(state)), message: m.message, refused: Boolean(state.seatAsked), seatAsked: false };
  const { [m.bet_id]: _, ...pending } = state.pending;
  return { ...state, pending, message: m.message };
}

function onPeel(state, m) {
  const sq = state.squeeze;
  if (!sq || m.round !== sq.round || m.side !== sq.side) return state;
  return { ...state, squeeze: { ...sq, remote: Math.max(sq.remote, m.peel), cards: m.cards ?? sq.cards } };
}

function onSqueeze(state, m) {
  const squeeze = squeezeOf(m, state.me);
  return {
    ...state, ...squeezeWords(state, squeeze), phase: "squeeze", squeeze,
    hands: { ...state.hands, down: downFor(state.hands, squeeze) },
  };
}

/** No more bets: chips staged and never confirmed are dropped, and the player told so. */
function onNoMoreBets(state) {
  const unsent = Object.entries(stagedStakes(state))
    .map(([kind, amount]) => `${betOf(state, kind)?.label ?? kind} ${money(amount)}`);
  const message = unsent.length ? `Not sent: betting closed before you confirmed ${unsent.join(", ")}.` : state.message;
  return { ...state, phase: "dealing", staged: [], message };
}

const SERVER = {
  snapshot: onSnapshot,
  chemin: onChemin,
  chemin_hand: onCheminHand,
  banque: onBanque,
  banque_hand: onBanqueHand,
  round_open: onRoundOpen,
  bets: (s, m) => ({ ...s, tableBets: m.players, tableTotals: m.totals, bettorsBehind: m.bettors_behind ?? 0 }),
  no_more_bets: onNoMoreBets,
  squeeze: onSqueeze,
  peel: onPeel,
  card: onCard,
  result: onResult,
  payout: onPayout,
  shoe: (s, m) => ({ ...s, fair: { server_seed_hash: m.server_seed_hash, rules_hash: m.rules_hash, client_seeds: m.client_seeds } }),
  shoe_end: (s, m) => ({ ...s, records: [...s.records, m.record] }),
  seat: (s, m) => {  // taken, or freed (`left`: the player had gone with no bet)
    const { [m.player]: _gone, ...others } = s.seats;
    const mine = m.player === s.me ? { seat: m.left ? null : m.seat, behind: false } : {};
    return { ...s, ...mine, seats: m.left ? others : { ...others, [m.player]: m.seat } };
  },
  notice: (s, m) => ({ ...s, message: m.text }),
  house_pause: (s, m) => ({  // the house holds the table after the round in play, or lets it play
    ...s, housePaused: m.reason ?? null,
    message: m.reason ? `The table is ${m.reason}: the round in play finishes, no new one starts.` : "The table plays again.",
  }),
  bet_ack: onBetAck,
  error: onError,
  seed_ack: (s) => ({ ...s, message: "Client seed added to the next shuffle." }),
  pong: (s, m) => ({ ...s, clockOffset: m.server_time - m.received_at }),
};

// -- local actions ---------------------------------------------------------------------------

/** What I have on a spot this round: accepted, sent and staged (the limits are on it). */
export function onSpot(state, kind) {
  const sent = Object.values(state.pending).filter((b) => b.kind === kind && b.round === state.round);
  return (myStakes(state)[kind] ?? 0) + (stagedStakes(state)[kind] ?? 0) + sent.reduce((n, b) => n + b.amount, 0);
}

/** Why `amount` more on `kind` may not be staged now (the table's rules as the server
 * sent them: a spot's maximum, the main bets only behind the seats), or "". */
function refusal(state, kind, amount) {
  const bet = betOf(state, kind);
  if (!bet) return "No such bet here.";
  if (state.phase !== "betting") return "Wait for the next round to bet.";
  if (state.behind && !bet.main) {
    const main = state.bets.filter((b) => b.main).map((b) => b.label).join(", ");
    return `Behind the seats the bets are ${main} only.`;
  }
  return onSpot(state, kind) + amount > bet.max ? `${bet.label} takes ${money(bet.max)} at most.` : "";
}

function stage(state, { kind }) {
  const amount = state.chips[state.chip], refused = refusal(state, kind, amount);
  if (refused) return betOf(state, kind) ? { ...state, message: refused } : state;
  const bet = betOf(state, kind), total = onSpot(state, kind) + amount;
  const short = total < bet.min ? ` (${money(bet.min)} at least: add more)` : "";
  return {
    ...state, staged: [...state.staged, { kind, amount }],
    message: `${bet.label} +${money(amount)}${short || " — Confirm (Enter) to send."}`,
  };
}

/** Rebet or double: each chip staged as if placed by hand, those the table refuses left out. */
function addStaged(state, more) {
  if (state.phase !== "betting" || !more.length) return state;
  let next = state;
  const refused = [];
  for (const { kind, amount } of more) {
    const why = refusal(next, kind, amount);
    if (why) refused.push(why); else next = { ...next, staged: [...next.staged, { kind, amount }] };
  }
  return refused.length ? { ...next, message: [...new Set(refused)].join(" ") } : next;
}

/** Send the staged chips: one bet per kind, its id `${id}-${kind}` (`id` fresh per
 * confirm). A spot still under its minimum is not sent: its chips stay staged. */
function confirm(state, { id }) {
  if (!state.staged.length) return state;
  const pending = { ...state.pending };
  const outbox = [], short = [];
  for (const [kind, amount] of Object.entries(stagedStakes(state))) {
    const bet = betOf(state, kind);
    if (bet && onSpot(state, kind) < bet.min) { short.push(`${bet.label} takes ${money(bet.min)} at least`); continue; }
    const betId = `${id}-${kind}`;
    pending[betId] = { kind, amount, round: state.round };
    outbox.push(outgoing.bet(betId, kind, amount, state.round));
  }
  const sent = new Set(outbox.map((bet) => bet.kind));
  const staged = state.staged.filter((chip) => !sent.has(chip.kind));
  return { ...state, staged, pending, outbox, message: short.length ? `Not sent: ${short.join("; ")}.` : state.message };
}

/** Bend the cards under the squeeze (0 flat .. 1 turned): only their squeezer can. */
function bend(state, { side, value }) {
  const sq = state.squeeze;
  if (!sq || sq.side !== side || sq.squeezer !== state.me) return state;
  return { ...state, squeeze: { ...sq, peel: Math.max(sq.peel, Math.min(1, value)) } };
}

/** The squeeze message for my cards bent further than last sent. */
function sendPeels(state) {
  const sq = state.squeeze;
  if (!sq || sq.squeezer !== state.me || sq.peel <= sq.sent) return state;
  return { ...state, squeeze: { ...sq, sent: sq.peel }, outbox: [outgoing.squeeze(sq.side, sq.peel, sq.first)] };
}

function recallStep(state, { delta }) {
  if (!state.recall) return state;
  const last = state.recall.round.steps.length - 1;
  return { ...state, recall: { ...state.recall, step: Math.max(0, Math.min(last, state.recall.step + delta)) } };
}

const CONNECTION_LOST = "Connection lost: reconnecting…";

const LOCAL = {
  login: (s, a) => ({ ...s, me: a.name, balance: a.balance }),
  open_table: (s, a) => ({
    ...initialState(), me: s.me, balance: s.balance, chip: s.chip, teaching: s.teaching, showEdges: s.showEdges,
    table: a.table, game: a.game ?? "", title: a.title ?? "",
  }),
  balance: (s, a) => ({ ...s, balance: a.balance }),
  leave_table: (s) => ({ ...initialState(), me: s.me, balance: s.balance, chip: s.chip, teaching: s.teaching, showEdges: s.showEdges }),
  connection: (s, a) => ({
    ...s, connected: a.open, lost: !a.open,
    message: !a.open ? CONNECTION_LOST : s.message === CONNECTION_LOST ? "" : s.message,
  }),
  pick_chip: (s, a) => (a.index >= 0 && a.index < s.chips.length ? { ...s, chip: a.index } : s),
  stage,
  undo: (s) => ({ ...s, staged: s.staged.slice(0, -1) }),
  clear: (s) => ({ ...s, staged: [] }),
  rebet: (s) => addStaged(s, s.lastBets),
  double: (s) => addStaged(s, s.staged.length ? s.staged
    : Object.entries(myStakes(s)).map(([kind, amount]) => ({ kind, amount }))),
  confirm,
  bend,
  send_peels: sendPeels,
  recall: (s, a) => (s.history[a.index] ? { ...s, recall: { round: s.history[a.index], step: 0 } } : s),
  recall_step: recallStep,
  recall_close: (s) => ({ ...s, recall: null }),
  ask: (s, a) => ({ ...s, ask: a.side }),
  teaching: (s, a) => ({ ...s, teaching: a.on }),
  // the exact edges of the cards this shoe has not shown (GET /api/tables/{id}/edges)
  show_edges: (s, a) => ({ ...s, showEdges: a.on }),
  edges: (s, a) => (a.table === s.table ? { ...s, edges: a.edges } : s),
  ...CHEMIN_LOCAL,
  ...BANQUE_LOCAL,
};

const WHOLE = new Set(["snapshot", "chemin", "banque"]);  // messages that carry the whole table
const NOT_MINE = new Set(["connection", "balance", "edges"]);  // local, but not the player's doing

/**
 * The next state after one server message or local action. A table event already seen
 * (its `seq` not above the state's, as the events replayed after a reconnect's snapshot
 * are) changes nothing but a notice's text: the snapshot already holds it; a shoe's
 * record missed is still kept (a players' table's state carries no records). A `chemin`
 * or `banque` state is the whole table, like a snapshot: it is taken whatever its seq (a
 * restarted server counts again from 1), unless it is a replayed one.
 */
export function reduce(state, action) {
  const quiet = state.outbox.length ? { ...state, outbox: [] } : state;
  const fromServer = Object.hasOwn(SERVER, action.type);
  if (fromServer && action.table && state.table && action.table !== state.table) return quiet;  // another table's
  if (fromServer && action.seq !== undefined && !WHOLE.has(action.type)) {
    if (action.seq <= state.seq) {
      if (action.type === "shoe_end" && !hasRecord(state, action.record)) return step(quiet, action, null);
      return action.type === "notice" ? { ...quiet, message: action.text } : quiet;
    }
    return step(quiet, action, { seq: action.seq });
  }
  return step(quiet, action, null);
}

const hasRecord = (state, record) => state.records.some((held) => held.server_seed_hash === record.server_seed_hash);

function step(state, action, extra) {
  const handlers = [SERVER, LOCAL].find((table) => Object.hasOwn(table, action.type));
  if (!handlers) return state;
  const handler = handlers[action.type];
  // my own action ends a refusal's message (it stays through the table's news until then)
  const mine = handlers === LOCAL && !NOT_MINE.has(action.type);
  const next = handler(mine && state.refused ? { ...state, refused: false } : state, action);
  return extra ? { ...next, ...extra } : next;
}
