// The web table's wiring: login and lobby, one table's connection, the reducer's state,
// the renderers (Punto Banco's, Chemin de Fer's, Baccarat Banque's), the squeeze, the
// buttons and the keys. No build step: ES modules.
import { GAME as BANQUE, isSeated as isSeatedBanque } from "./banque.js";
import { GAME as CHEMIN, isSeated } from "./chemin.js";
import { parseMoney } from "./money.js";
import { api, endsSession, socketUrl, TableConnection } from "./protocol.js";
import { betKeys, betTimeLeft, initialState, reduce, squeezeKeyActions } from "./reducer.js";
import { createBanqueRenderer } from "./render-banque.js";
import { createCheminRenderer } from "./render-chemin.js";
import { createRenderer } from "./render.js";
import { setLimits, setPeriodLimit, showLimits, showRecords } from "./records.js";
import { createSqueeze } from "./squeeze.js";

const $ = (id) => document.getElementById(id);
const AUTO_CONFIRM_SECONDS = 1.2;  // staged chips go out by themselves this close to the close

let state = initialState();
let connection = null;

/** The page's section for a game: each players' game has its own, the house's games share one. */
const VIEWS = { [CHEMIN]: "chemin", [BANQUE]: "banque" };
const viewOf = (game) => VIEWS[game] ?? "table";

function dispatch(action) {
  const prev = state;
  state = reduce(state, action);
  for (const message of state.outbox) connection?.send(message);
  if (state === prev) return;
  $("link").hidden = !state.table || !state.lost;  // the table's socket dropped: calling again
  if (state.showEdges && state.table && state.game !== CHEMIN && state.game !== BANQUE
      && (state.result !== prev.result || state.table !== prev.table || !prev.showEdges || state.roads !== prev.roads)) fetchEdges(state.table);
  if (state.table && state.game !== prev.game) view.show(viewOf(state.game));
  view.render(prev, state);
  // sitting down and leaving move chips between the wallet and the table
  if (state.game === CHEMIN) {
    cheminView.render(prev.game === CHEMIN ? prev : null, state);
    if (prev.chemin && isSeated(prev) !== isSeated(state)) refreshBalance();
  }
  if (state.game === BANQUE) {
    banqueView.render(prev.game === BANQUE ? prev : null, state);
    if (prev.banque && isSeatedBanque(prev) !== isSeatedBanque(state)) refreshBalance();
  }
}

/** The exact edges of the cards the table's shoe has not shown, after each coup. */
async function fetchEdges(table) {
  try { dispatch({ type: "edges", table, edges: await api(`/api/tables/${encodeURIComponent(table)}/edges`) }); }
  catch { /* the next coup asks again */ }
}

async function refreshBalance() {
  try { dispatch({ type: "balance", balance: (await api("/api/me")).balance }); } catch { /* shown at the next refresh */ }
}

const squeeze = createSqueeze({ getState: () => state, dispatch });
const view = createRenderer(document, {
  stage: (kind) => dispatch({ type: "stage", kind }),
  pickChip: (index) => dispatch({ type: "pick_chip", index }),
  recall: (index) => dispatch({ type: "recall", index }),
  sit: (id, summary) => openTable(id, summary),
  downCard: squeeze.bind,
});
const cheminView = createCheminRenderer(document, {
  act: (action, text) => dispatch({ type: "act", action, text }),
  sit: (text) => dispatch({ type: "sit", text, more: isSeated(state) }),
  leave: () => dispatch({ type: "leave_seat" }),
  sitOut: () => dispatch({ type: "sit_out", out: !state.chemin?.away.includes(state.me) }),
  seed: (seed) => dispatch({ type: "send_seed", seed }),
});

const banqueView = createBanqueRenderer(document, {
  act: (action, text, tableau) => dispatch({ type: "banque_act", action, text, tableau }),
  sit: (text) => dispatch({ type: "sit", text, more: isSeatedBanque(state) }),
  leave: () => dispatch({ type: "leave_seat" }),
  sitOut: () => dispatch({ type: "sit_out", out: !state.banque?.away.includes(state.me) }),
  seed: (seed) => dispatch({ type: "send_seed", seed }),
});

function newBetId() {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return "w" + Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}
const confirm = () => dispatch({ type: "confirm", id: newBetId() });

// -- login, lobby, table ----------------------------------------------------------------
async function start() {
  try { loggedIn(await api("/api/me")); } catch { view.show("login"); $("name").focus(); }
}

function loggedIn(me) {
  dispatch({ type: "login", name: me.name, balance: me.balance });
  api("/api/me/limits").then(remind, () => {});
  const asked = new URLSearchParams(location.search);
  if (asked.has("records")) $("to-records").click();
  else if (asked.get("table")) openTable(asked.get("table"));
  else lobby();
}

async function auth(register) {
  $("login-error").textContent = "";  // e.g. "you excluded yourself from play until ..."
  const body = { name: $("name").value.trim(), password: $("password").value };
  try { loggedIn(await api(register ? "/api/register" : "/api/login", body)); }
  catch (e) { $("login-error").textContent = e.message; }
}

/** The session ended (elsewhere, or the house's hand): back to the login, saying why. */
function sessionEnded(why) {
  leaveTable();
  history.replaceState(null, "", "/");
  view.show("login");
  $("login-error").textContent = why;
}

function leaveTable() {
  connection?.close();
  connection = null;
  dispatch({ type: "leave_table" });
}

async function lobby() {
  leaveTable();
  history.replaceState(null, "", "/");
  view.show("lobby");
  view.renderLobby(await api("/api/tables"));
}

/** Open a table; `summary` is its lobby line (its game and title), when known. */
function openTable(id, summary) {
  leaveTable();
  dispatch({ type: "open_table", table: id, game: summary?.game, title: summary?.title });
  history.replaceState(null, "", "/?table=" + encodeURIComponent(id));
  view.show(viewOf(summary?.game));
  connection = new TableConnection({
    url: socketUrl(location), table: id, since: () => state.seq,
    onMessage: (m) => (endsSession(m) ? sessionEnded(m.message) : dispatch(m)),
    onStatus: (open) => dispatch({ type: "connection", open }),
  });
  connection.open();
}

// the network came back, or the tab is shown again: is the table's socket still alive?
window.addEventListener("online", () => connection?.check());
document.addEventListener("visibilitychange", () => { if (!document.hidden) connection?.check(); });

// -- the clock: the timer bar, and staged chips sent just before the close -------------------
setInterval(() => {
  if (!state.table) return;
  const now = Date.now() / 1000;
  if (state.game === CHEMIN) { cheminView.renderTimer(state, now); return; }
  if (state.game === BANQUE) { banqueView.renderTimer(state, now); return; }
  view.renderTimer(state, now);
  const left = betTimeLeft(state, now);
  if (state.phase === "betting" && left > 0 && left < AUTO_CONFIRM_SECONDS && state.staged.length) confirm();
}, 100);

// -- keys and buttons ---------------------------------------------------------------------------
const KEYS = {
  u: () => dispatch({ type: "undo" }), c: () => dispatch({ type: "clear" }),
  r: () => dispatch({ type: "rebet" }), d: () => dispatch({ type: "double" }),
};

/** Whether a key goes to a field being typed in (a checkbox's focus takes no letters). */
const typing = (target) => target.matches?.("input:not([type=checkbox]):not([type=radio]), textarea, select");

document.addEventListener("keydown", (e) => {
  if (!state.table || $("table").hidden || typing(e.target)) return;
  const key = e.key.toLowerCase();
  const bets = betKeys(state);
  if (/^[1-9]$/.test(key) && Number(key) <= state.chips.length) dispatch({ type: "pick_chip", index: Number(key) - 1 });
  else if (Object.hasOwn(bets, key)) dispatch({ type: "stage", kind: bets[key] });
  else if (key === "s" && state.squeeze) for (const { side, value } of squeezeKeyActions(state)) squeeze.bend(side, value);
  else if (Object.hasOwn(KEYS, key)) KEYS[key]();
  // Enter confirms, also just after a click on a spot or a chip (it clicked it again)
  else if (key === "enter" && (!(e.target instanceof HTMLButtonElement) || e.target.closest(".spots, .chips"))) confirm();
  else return;
  e.preventDefault();
});

$("login-form").addEventListener("submit", (e) => { e.preventDefault(); auth(false); });
$("do-register").addEventListener("click", () => auth(true));
$("logout").addEventListener("click", async () => { leaveTable(); await api("/api/logout", {}); view.show("login"); });
$("to-lobby").addEventListener("click", lobby);
$("to-records").addEventListener("click", async () => {
  leaveTable();
  history.replaceState(null, "", "/?records");
  view.show("mine");
  try { await showRecords(); remind(await showLimits()); } catch (error) { $("my-session").textContent = error.message; }
});
$("my-older").addEventListener("click", () => showRecords($("my-older").dataset.before));

// -- responsible play: the loss limit, the session reminder, the self-exclusion ----------------
async function playSetting(body) {
  try { remind(await setLimits(body)); } catch (error) { $("play-status").textContent = error.message; }
}
$("loss-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const typed = $("loss-limit").value;  // 0.00: no bet at all today, asked before it is set
  if (parseMoney(typed) === 0 && !window.confirm("A daily loss limit of 0.00 stops every bet and buy-in until tomorrow. Set it?")) return;
  playSetting({ loss_limit: typed });
});
$("loss-remove").addEventListener("click", () => playSetting({ loss_limit: null }));
async function periodSetting(typed) {
  try { await setPeriodLimit($("period-kind").value, typed); } catch (error) { $("play-status").textContent = error.message; }
}
$("period-form").addEventListener("submit", (e) => { e.preventDefault(); periodSetting($("period-limit").value); });
$("period-remove").addEventListener("click", () => periodSetting(null));
$("reminder").addEventListener("change", (e) => playSetting({ reminder_minutes: e.target.value ? Number(e.target.value) : null }));
$("exclusion-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  const days = Number($("exclusion-days").value);
  if (!window.confirm(`No play, and no login, for ${$("exclusion-days").selectedOptions[0].text}: nothing can lift it early. Go on?`)) return;
  try {
    const l = await api("/api/me/exclusion", { days });
    leaveTable();
    view.show("login");
    $("login-error").textContent = `You are excluded from play until ${new Date(l.excluded_until * 1000).toLocaleString()}.`;
  } catch (error) { $("play-status").textContent = error.message; }
});

let reminder = null;
/** Remind the player every `reminder_minutes` of their session (their own setting). */
function remind(limits) {
  clearInterval(reminder);
  $("reminder-banner").hidden = true;
  if (!limits.reminder_minutes || !limits.session_since) return;
  let shown = Math.floor((Date.now() / 1000 - limits.session_since) / 60 / limits.reminder_minutes);
  reminder = setInterval(() => {
    const minutes = Math.floor((Date.now() / 1000 - limits.session_since) / 60);
    if (Math.floor(minutes / limits.reminder_minutes) <= shown) return;
    shown = Math.floor(minutes / limits.reminder_minutes);
    $("reminder-text").textContent = `You have been playing for ${minutes} minutes.`;
    $("reminder-banner").hidden = false;
  }, 15_000);
}
$("reminder-ok").addEventListener("click", () => { $("reminder-banner").hidden = true; });
$("undo").addEventListener("click", KEYS.u);
$("clear").addEventListener("click", KEYS.c);
$("rebet").addEventListener("click", KEYS.r);
$("double").addEventListener("click", KEYS.d);
$("confirm").addEventListener("click", confirm);
$("ask-b").addEventListener("click", () => dispatch({ type: "ask", side: "banker" }));
$("ask-p").addEventListener("click", () => dispatch({ type: "ask", side: "player" }));
$("recall-prev").addEventListener("click", () => dispatch({ type: "recall_step", delta: -1 }));
$("recall-next").addEventListener("click", () => dispatch({ type: "recall_step", delta: 1 }));
$("recall-close").addEventListener("click", () => dispatch({ type: "recall_close" }));
// teaching mode is remembered by this browser
const TEACHING_KEY = "baccara.teaching";
$("teaching").addEventListener("change", (e) => {
  localStorage.setItem(TEACHING_KEY, e.target.checked ? "on" : "off");
  dispatch({ type: "teaching", on: e.target.checked });
});
const EDGES_KEY = "baccara.edges";
$("show-edges").addEventListener("change", (e) => {
  localStorage.setItem(EDGES_KEY, e.target.checked ? "on" : "off");
  dispatch({ type: "show_edges", on: e.target.checked });
});
if (localStorage.getItem(EDGES_KEY) === "on") {
  $("show-edges").checked = true;
  dispatch({ type: "show_edges", on: true });
}
if (localStorage.getItem(TEACHING_KEY) === "on") {
  $("teaching").checked = true;
  dispatch({ type: "teaching", on: true });
}
$("seed-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const seed = $("client-seed").value.trim();
  if (seed) connection?.send({ type: "seed", seed });
  $("client-seed").value = "";
});

view.render(null, state);
start();
