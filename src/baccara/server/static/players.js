// What the players' tables (Chemin de Fer, Baccarat Banque) share at the web table: the
// news lines just added, the face-down card, the decision's clock, and the player's own
// seat actions (sit down with a typed buy-in, leave, add a seed). No rule of any game.
import { money, parseMoney } from "./money.js";
import { heldLabel, outgoing } from "./protocol.js";

/** A card lying face down on the felt (its value stays on the server until it is shown). */
export const FACE_DOWN = "??";

/** The lines of `next` that `prev` did not end with (the news is the server's latest lines). */
export function freshLines(prev, next) {
  for (let overlap = Math.min(prev.length, next.length); overlap > 0; overlap--) {
    const tail = prev.slice(prev.length - overlap);
    if (tail.every((line, i) => line === next[i])) return next.slice(overlap);
  }
  return next.slice();
}

/** The news of state `m` after `prev` (the game's part of the state): all of it, the lines
 * it adds, and the lines still fresh (a state sent again with the same news keeps them). */
export function newsOf(prev, m) {
  const added = freshLines(prev?.news ?? [], m.news);
  const fresh = prev && !added.length && m.news.length === prev.news.length ? prev.fresh : added;
  return { news: m.news, added, fresh };
}

/** The decision due, as a decision names it (the state's shoe, coup and decision number). */
export const dueOf = (m) => ({ shoe: m.shoe ?? 0, coup: m.coup ?? 0, decision: m.decision ?? 0 });

/** The clock's whole length, in seconds, when the server sets a new deadline (the bar's 100%). */
export function clockSeconds(prev, m) {
  const newDeadline = m.deadline !== null && m.deadline !== prev?.deadline;
  return newDeadline ? Math.max(0, m.deadline - m.time) : prev?.clockSeconds ?? 0;
}

/** Seconds left before `deadline` (server seconds) at client time `now`, on the server's clock. */
export function timeLeft(state, deadline, now) {
  return deadline ? Math.max(0, deadline - (now + state.clockOffset)) : 0;
}

/** What every players' table's state says of its seats: who sits out, who leaves after
 * the coup, whether the table waits for its players, what the seat to act may stake. */
export const seatsOf = (m) => ({
  away: m.away ?? [], leaving: m.leaving ?? [], paused: m.paused ?? false, ranges: m.ranges ?? {},
});

/** The selectors every players' table has, on its part of the state (`state[key]`, such
 * as `state.chemin`) with its phases' words (`labels`): the phase in words, whether I sit
 * at the table, whether it is my turn, what I may do on my turn (my own choices when the
 * server sent them privately: the state's are the same whatever my cards, not to tell
 * them), and the choices shown to me (not again once I have decided, until the server's
 * answer: the next state, or an error). */
export function playersSelectors(key, labels) {
  const myTurn = (state) => Boolean(state[key] && state.me && state[key].toAct === state.me);
  const turnChoices = (state) => (myTurn(state) ? state[key].ownChoices ?? state[key].choices : []);
  return {
    phaseLabel: (state) => (state.housePaused ? heldLabel(state.housePaused)
      : state[key]?.paused ? "Waiting for its players to come back"
        : labels[state[key]?.phase] ?? (state[key]?.phase || "—")),
    isSeated: (state) => Boolean(state[key]?.players.includes(state.me)),
    myTurn,
    turnChoices,
    myChoices: (state) => (state[key]?.decided ? [] : turnChoices(state)),
  };
}

/** What a decision's button says: the server's words (its rulebook's), else the action's name. */
export const actionLabel = (table, action) => table?.labels?.[action] ?? action;

/** What a players' table's state `m` sets beside the game's own part (its `prev`): the
 * table, its phase and fairness, the server's clock, the message line (a refusal stays
 * until I act, `turnMoved` or not) and whether a buy-in is still unanswered. */
export const tableStateOf = (state, prev, m, turnMoved) => ({
  table: m.table, seq: m.seq, phase: m.phase, fair: m.fair, housePaused: m.house_paused ?? null,
  clockOffset: m.received_at === undefined ? state.clockOffset : m.time - m.received_at,
  message: turnMoved && !state.refused ? "" : state.message,
  seatAsked: seatStillAsked(state, prev, m),
});

/** A seat's words on the rail beyond its chips: sitting out, leaving after the coup. */
export function seatNote(table, name) {
  if (table.leaving.includes(name)) return "leaves after this coup";
  if (table.away.includes(name)) return "sitting out";
  return "";
}

/** The most the seat to act may put on `action` (its chips, the bank's open part), or null. */
export const mostFor = (table, action) => table.ranges[action]?.[1] ?? null;

/** Sit down with a buy-in typed by the player (`text`, such as "200" or "200.00"), or add
 * chips to a seat already taken (between coups, at once). */
function sit(state, { text, more }) {
  const cents = parseMoney(text);
  if (!cents) return { ...state, message: `Type the ${more ? "chips to add" : "buy-in"} as an amount, such as 200.00.` };
  const doing = more ? `Adding ${money(cents)} of chips…` : `Buying in for ${money(cents)}…`;
  return { ...state, outbox: [outgoing.sit(cents)], message: doing, seatAsked: true };
}

/** Whether a buy-in asked for is still unanswered after state `m` (the table's `prev`
 * part): it is answered by my chips changing, or by a refusal (`error`), whose message
 * then stays through the table's news until I act again. */
export const seatStillAsked = (state, prev, m) =>
  Boolean(state.seatAsked) && (m.chips?.[state.me] ?? null) === (prev?.chips?.[state.me] ?? null);

function sendSeed(state, { seed }) {
  const text = String(seed ?? "").trim();
  return text ? { ...state, outbox: [outgoing.seed(text)] } : state;
}

/** The seat's own actions, the same at every players' table. */
export const SEAT_LOCAL = {
  sit,
  leave_seat: (s) => ({ ...s, outbox: [outgoing.leave(Boolean((s.chemin ?? s.banque)?.leaving.includes(s.me)))], message: "" }),
  sit_out: (s, { out }) => ({ ...s, outbox: [outgoing.sitOut(out)] }),
  send_seed: sendSeed,
};
