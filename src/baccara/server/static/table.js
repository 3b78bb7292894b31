// The web table: lobby, login, and one table over a WebSocket. No build step.
"use strict";

const $ = (id) => document.getElementById(id);
const CHIPS = [100, 500, 2500, 10000, 50000, 100000];
const CHIP_CLASS = ["c1", "c5", "c25", "c100", "c500", "c1000"];
const SUITS = { s: "♠", h: "♥", d: "♦", c: "♣" };
const LABELS = {
  player: "Player", banker: "Banker", tie: "Tie", player_pair: "Player Pair", banker_pair: "Banker Pair",
  either_pair: "Either Pair", perfect_pair: "Perfect Pair", dragon_bonus_player: "Dragon Bonus P",
  dragon_bonus_banker: "Dragon Bonus B", dragon_7: "Dragon 7", panda_8: "Panda 8", big: "Big", small: "Small",
  lucky_6: "Lucky 6", banker_natural_9: "Banker Natural 9", banker_natural_8: "Banker Natural 8",
};
const SHORT_PAYS = { dragon_bonus_player: "up to 30:1", dragon_bonus_banker: "up to 30:1", lucky_6: "12:1 or 20:1" };
const S = {
  me: null, balance: null, table: null, ws: null, seq: 0, offset: 0, phase: "", round: null, closesAt: 0,
  chip: 2, staged: [], confirmed: {}, lastBets: [], pending: new Map(), history: [], recall: null,
  snap: null, roads: null, wanted: false, seats: {}, tableBets: {}, squeeze: null, peelTimer: null,
};
const SIDES = ["player", "banker"];

function money(cents) {
  const sign = cents < 0 ? "-" : "";
  const v = Math.abs(cents);
  return sign + Math.floor(v / 100).toLocaleString("en-US") + "." + String(v % 100).padStart(2, "0");
}
function chipText(cents) { return cents >= 100000 ? (cents / 100000) + "K" : String(cents / 100); }
function newId() {
  const a = new Uint8Array(8);
  crypto.getRandomValues(a);
  return "w" + Array.from(a, (b) => b.toString(16).padStart(2, "0")).join("");
}
async function api(path, body) {
  const init = body === undefined ? {} : { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
  const reply = await fetch(path, { credentials: "same-origin", ...init });
  const data = await reply.json().catch(() => ({}));
  if (!reply.ok) throw new Error(data.message || reply.statusText);
  return data;
}
function show(which) {
  for (const id of ["login", "lobby", "table"]) $(id).hidden = id !== which;
  $("nav").hidden = which === "login";
}
function setBalance(b) { if (b !== null && b !== undefined) { S.balance = b; $("balance").textContent = money(b); } }
function say(text) { $("bet-msg").textContent = text; }

// -- login and lobby -----------------------------------------------------------------
async function start() {
  try {
    const me = await api("/api/me");
    loggedIn(me);
  } catch { show("login"); $("name").focus(); }
}
function loggedIn(me) {
  S.me = me.name; $("who").textContent = me.name; setBalance(me.balance);
  const wanted = new URLSearchParams(location.search).get("table");
  if (wanted) openTable(wanted); else lobby();
}
async function auth(register) {
  $("login-error").textContent = "";
  const body = { name: $("name").value.trim(), password: $("password").value };
  try { loggedIn(await api(register ? "/api/register" : "/api/login", body)); }
  catch (e) { $("login-error").textContent = e.message; }
}
async function lobby() {
  S.wanted = false; if (S.ws) S.ws.close(); S.table = null;
  history.replaceState(null, "", "/");
  show("lobby");
  const tables = await api("/api/tables");
  const box = $("tables"); box.textContent = "";
  for (const t of tables) {
    const card = document.createElement("article"); card.className = "table-card";
    const st = t.roads.statistics;
    card.innerHTML = `<h2></h2><p class="desc"></p><p>${t.seated}/${t.seats} seated · ${t.phase} · B ${st.banker} P ${st.player} T ${st.tie}</p><div class="mini-roads"></div>`;
    card.querySelector("h2").textContent = `${t.title} (${t.id})`;
    if (t.squeeze) { const tag = document.createElement("span"); tag.className = "tag"; tag.textContent = "Squeeze"; card.querySelector("h2").append(" ", tag); }
    card.querySelector(".desc").textContent = t.description + ` Limits ${money(t.limits.banker.min)}–${money(t.limits.banker.max)}.`;
    card.querySelector(".mini-roads").innerHTML = t.roads.svg;
    const go = document.createElement("button"); go.className = "primary"; go.textContent = "Sit down";
    go.addEventListener("click", () => openTable(t.id));
    card.appendChild(go); box.appendChild(card);
  }
  box.querySelector("button")?.focus();
}

// -- the table -------------------------------------------------------------------------
function openTable(id) {
  S.table = id; S.seq = 0; S.wanted = true; S.staged = []; S.confirmed = {};
  history.replaceState(null, "", "/?table=" + encodeURIComponent(id));
  show("table"); connect();
}
function connect() {
  if (!S.wanted) return;
  const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws");
  S.ws = ws;
  ws.onopen = () => {
    const join = { type: "join", table: S.table };
    if (S.seq) join.since = S.seq;
    ws.send(JSON.stringify(join));
  };
  ws.onmessage = (ev) => handle(JSON.parse(ev.data));
  ws.onclose = () => { if (S.ws === ws && S.wanted) { say("Connection lost: reconnecting…"); setTimeout(connect, 1000); } };
}
function send(msg) { if (S.ws && S.ws.readyState === 1) { S.ws.send(JSON.stringify(msg)); return true; } return false; }

function handle(m) {
  if (m.seq) S.seq = Math.max(S.seq, m.seq);
  switch (m.type) {
    case "snapshot": return onSnapshot(m);
    case "round_open": return onRoundOpen(m);
    case "no_more_bets": S.phase = "dealing"; $("phase").textContent = "No more bets"; S.staged = []; renderSpots(); return;
    case "squeeze": return onSqueeze(m);
    case "peel": return onPeel(m);
    case "seat": S.seats[m.player] = m.seat; return renderChips();
    case "card": endSqueeze(); return onCard(m);
    case "result": return onResult(m);
    case "payout": setBalance(m.balance); return say(m.returned > m.staked ? `You win ${money(m.returned - m.staked)}!` : m.returned === m.staked ? "Your bets push." : `You lose ${money(m.staked - m.returned)}.`);
    case "bet_ack": return onAck(m);
    case "error": return onError(m);
    case "bets": S.tableBets = m.players; onTableBet(m); return renderChips();
    case "shoe": return renderFair(m);
    case "shoe_end": return addRecord(m.record);
    case "seed_ack": return say("Client seed added to the next shuffle.");
    case "notice": return say(m.text);
    default: return undefined;
  }
}
function onSnapshot(m) {
  S.snap = m; S.offset = m.server_time - Date.now() / 1000;
  $("table-title").textContent = `${m.title} · table ${m.table}` + (m.seat ? ` · seat ${m.seat}` : "");
  setBalance(m.balance);
  S.phase = m.phase; S.round = m.round; S.closesAt = m.closes_at;
  $("phase").textContent = m.phase === "betting" ? "Place your bets" : m.phase;
  S.confirmed = {};
  for (const b of m.my_bets) S.confirmed[b.kind] = (S.confirmed[b.kind] || 0) + b.amount;
  S.seats = { ...m.seats }; S.tableBets = m.table_bets || {};
  $("squeeze-tag").hidden = !m.squeeze;
  buildSpots(m); clearCards(); S.squeeze = null;
  for (const step of m.revealed) onCard(step, true);
  if (m.squeezing && !m.revealed.length) { S.phase = "squeeze"; onSqueeze(m.squeezing); }
  S.history = m.history; renderHistory(); renderRoads(m.roads);
  if (m.fair) renderFair(m.fair);
  $("records").textContent = ""; for (const r of m.records) addRecord(r);
  const pays = $("pays"); pays.textContent = "";
  for (const [k, v] of Object.entries(m.pays)) { const dt = document.createElement("dt"); dt.textContent = LABELS[k] || k; const dd = document.createElement("dd"); dd.textContent = v; pays.append(dt, dd); }
  for (const [id, bet] of S.pending) send({ type: "bet", bet_id: id, kind: bet.kind, amount: bet.amount });
}
function onRoundOpen(m) {
  if (Object.keys(S.confirmed).length) S.lastBets = Object.entries(S.confirmed).map(([kind, amount]) => ({ kind, amount }));
  S.phase = "betting"; S.round = m.round; S.closesAt = m.closes_at; S.confirmed = {}; S.staged = [];
  $("phase").textContent = "Place your bets"; $("result-banner").hidden = true;
  S.tableBets = {}; endSqueeze();
  clearCards(); renderSpots(); renderChips();
  document.querySelectorAll(".spot.won").forEach((e) => e.classList.remove("won"));
}
function buildSpots(m) {
  const main = $("main-spots"), side = $("side-spots");
  main.textContent = ""; side.textContent = "";
  for (const kind of Object.keys(m.limits)) {
    const b = document.createElement("button");
    b.type = "button"; b.className = "spot " + kind; b.dataset.kind = kind;
    b.innerHTML = `<span class="name"></span><span class="pays"></span><span class="stake"></span><span class="pending"></span><span class="stacks" aria-hidden="true"></span>`;
    b.querySelector(".name").textContent = LABELS[kind] || kind;
    b.querySelector(".pays").textContent = SHORT_PAYS[kind] || (m.pays[kind] || "").split(" when ")[0];
    b.setAttribute("aria-label", `Bet on ${LABELS[kind] || kind}, pays ${m.pays[kind]}`);
    b.addEventListener("click", () => stage(kind));
    (["player", "banker", "tie"].includes(kind) ? main : side).appendChild(b);
  }
  renderSpots(); renderChips();
}
function renderSpots() {
  const pending = {};
  for (const s of S.staged) pending[s.kind] = (pending[s.kind] || 0) + s.amount;
  document.querySelectorAll(".spot").forEach((el) => {
    const k = el.dataset.kind;
    el.querySelector(".stake").textContent = S.confirmed[k] ? money(S.confirmed[k]) : "";
    el.querySelector(".pending").textContent = pending[k] ? "+" + money(pending[k]) : "";
  });
}
function stage(kind) {
  if (S.phase !== "betting") return say("Wait for the next round to bet.");
  S.staged.push({ kind, amount: CHIPS[S.chip] });
  renderSpots(); say(`${LABELS[kind]} +${money(CHIPS[S.chip])} — Confirm (Enter) to send.`);
}
function confirmBets() {
  if (!S.staged.length) return;
  const totals = {};
  for (const s of S.staged) totals[s.kind] = (totals[s.kind] || 0) + s.amount;
  S.staged = [];
  for (const [kind, amount] of Object.entries(totals)) {
    const id = newId();
    S.pending.set(id, { kind, amount });
    send({ type: "bet", bet_id: id, kind, amount, round: S.round });
  }
  renderSpots();
}
function onAck(m) {
  S.pending.delete(m.bet_id);
  if (!m.duplicate || m.status === "placed") {
    if (m.round === S.round && !m.duplicate) S.confirmed[m.kind] = (S.confirmed[m.kind] || 0) + m.amount;
  }
  setBalance(m.balance); renderSpots();
  say(`Bet accepted: ${LABELS[m.kind]} ${money(m.amount)}.`);
}
function onError(m) {
  if (m.bet_id) S.pending.delete(m.bet_id);
  say(m.message);
}
function onTableBet(m) {
  // The whole table's stakes on each spot (everybody's chips), under your own.
  document.querySelectorAll(".spot").forEach((el) => {
    const t = m.totals[el.dataset.kind];
    el.title = t ? `Table total ${money(t)}` : "";
    el.dataset.table = t ? money(t) : "";
  });
}

// -- cards -------------------------------------------------------------------------------
function clearCards() {
  for (const id of ["player-cards", "banker-cards"]) $(id).textContent = "";
  $("player-total").textContent = ""; $("banker-total").textContent = "";
  $("croupier").textContent = ""; $("reason").textContent = "";
}
function cardEl(text, third) {
  const rank = text[0] === "T" ? "10" : text[0], suit = SUITS[text[1]];
  const red = text[1] === "h" || text[1] === "d";
  const el = document.createElement("div"); el.className = "pcard" + (third ? " third" : "");
  el.setAttribute("role", "img"); el.setAttribute("aria-label", text);
  el.innerHTML = `<div class="back"></div><div class="face${red ? " red" : ""}"><span>${rank}${suit}</span><span class="pip">${suit}</span><span style="align-self:flex-end;transform:rotate(180deg)">${rank}${suit}</span></div>`;
  return el;
}
function points(cards) { return cards.reduce((t, c) => t + ({ A: 1, T: 0, J: 0, Q: 0, K: 0 }[c[0]] ?? Number(c[0])), 0) % 10; }
function drawHands(player, banker) {
  for (const [side, cards] of [["player", player], ["banker", banker]]) {
    const box = $(side + "-cards");
    cards.forEach((card, i) => {  // a squeezed card lying face down is turned in place
      const old = box.children[i];
      if (old && old.classList.contains("down")) old.replaceWith(cardEl(card, false));
    });
    while (box.children.length < cards.length) box.appendChild(cardEl(cards[box.children.length], box.children.length === 2));
    $(side + "-total").textContent = cards.length ? points(cards) : "";
  }
}
function onCard(m) {
  drawHands(m.player, m.banker);
  $("croupier").textContent = m.words;
  $("reason").textContent = m.reason || "";
}
function onResult(m) {
  const banner = $("result-banner");
  banner.hidden = false; banner.className = "result-banner w-" + m.winner;
  banner.textContent = m.announcement;
  document.querySelector(`.spot.${m.winner}`)?.classList.add("won");
  S.history.unshift(m); S.history = S.history.slice(0, 10);
  renderHistory(); renderRoads(m.roads);
  S.phase = "settled"; $("phase").textContent = "Result";
}

// -- everybody's chips: the seat rail and a stack per player on each spot ----------------------
function chipStack(cents) {
  const discs = [];
  let left = cents;
  for (let i = CHIPS.length - 1; i >= 0 && discs.length < 7; i--) {
    while (left >= CHIPS[i] && discs.length < 7) { discs.push(i); left -= CHIPS[i]; }
  }
  return discs;
}
const CHIP_EDGE = ["#9e9e9e", "#7f1717", "#1b4d1e", "#000", "#3f0f5c", "#8f5600"];
function shortMoney(cents) {
  const v = cents / 100;
  if (v >= 1000) return (Math.round(v / 100) / 10) + "K";
  return Number.isInteger(v) ? String(v) : v.toFixed(2);
}
function stackEl(name, cents, mine) {
  // One player's stake on a spot: a stack of chips seen from above (the top chip is the
  // biggest denomination), the amount on it, and the seat (or "You") beside it.
  const discs = chipStack(cents);
  const el = document.createElement("span");
  el.className = "stack " + CHIP_CLASS[discs[0] ?? 0] + (mine ? " mine" : "");
  el.title = `${mine ? "You" : name}${S.seats[name] ? " (seat " + S.seats[name] + ")" : ""}: ${money(cents)}`;
  el.style.boxShadow = discs.slice(1).map((i, k) => `0 ${3 * (k + 1)}px 0 -1px ${CHIP_EDGE[i]}`).concat(["0 " + (3 * discs.length + 1) + "px 4px rgba(0,0,0,.6)"]).join(", ");
  el.style.marginBottom = 3 * Math.max(0, discs.length - 1) + "px";
  el.textContent = shortMoney(cents);
  const who = document.createElement("b"); who.textContent = mine ? "You" : (S.seats[name] || name.slice(0, 2));
  el.appendChild(who);
  return el;
}
function renderChips() {
  const byKind = {};
  for (const [name, stakes] of Object.entries(S.tableBets)) {
    for (const [kind, amount] of Object.entries(stakes)) (byKind[kind] ||= []).push([name, amount]);
  }
  document.querySelectorAll(".spot").forEach((el) => {
    const box = el.querySelector(".stacks"), kind = el.dataset.kind, list = byKind[kind] || [];
    box.textContent = "";
    list.sort((a, b) => (S.seats[a[0]] || 99) - (S.seats[b[0]] || 99));
    for (const [name, amount] of list) box.appendChild(stackEl(name, amount, name === S.me));
    const others = list.filter(([n]) => n !== S.me).map(([n, a]) => `${n} ${money(a)}`);
    el.setAttribute("aria-label", `Bet on ${LABELS[kind] || kind}, pays ${S.snap?.pays?.[kind] || ""}` + (others.length ? `; other players: ${others.join(", ")}` : ""));
  });
  const rail = $("rail"); rail.textContent = "";
  const seated = Object.entries(S.seats).sort((a, b) => a[1] - b[1]);
  for (const [name, seat] of seated) {
    const stakes = S.tableBets[name] || {};
    const total = Object.values(stakes).reduce((t, a) => t + a, 0);
    const li = document.createElement("li"); li.className = "seat" + (name === S.me ? " mine" : "") + (total ? " in" : "");
    li.innerHTML = `<span class="num"></span><span class="pname"></span><span class="pstake"></span>`;
    li.querySelector(".num").textContent = seat;
    li.querySelector(".pname").textContent = name === S.me ? `${name} (you)` : name;
    li.querySelector(".pstake").textContent = total ? money(total) : "—";
    li.title = Object.entries(stakes).map(([k, a]) => `${LABELS[k] || k} ${money(a)}`).join(", ") || "no bet this round";
    rail.appendChild(li);
  }
}

// -- the squeeze: the first cards face down, peeled by the biggest stake on each hand -------------
function onSqueeze(m) {
  S.phase = "squeeze"; $("phase").textContent = "Squeeze";
  S.squeeze = { round: m.round, squeezers: m.squeezers, endsAt: m.ends_at, seconds: m.seconds,
    peel: { player: 0, banker: 0 }, remote: { ...(m.peel || { player: 0, banker: 0 }) } };
  for (const side of SIDES) {
    const box = $(side + "-cards"); box.textContent = "";
    for (let i = 0; i < m.cards[side]; i++) box.appendChild(downCard(side, i));
    drawPeel(side);
  }
  const mine = SIDES.filter((s) => m.squeezers[s] === S.me);
  const who = SIDES.map((s) => `${s === "player" ? "Player" : "Banker"}: ${m.squeezers[s] === S.me ? "you" : m.squeezers[s] || "the croupier"}`).join(" · ");
  $("croupier").textContent = `Squeeze! ${who}.`;
  say(mine.length ? `You squeeze the ${mine.join(" and ")} cards: drag them, click, or press S.` : "Peel the cards to watch the squeeze (drag, click or S).");
}
function downCard(side, i) {
  const el = document.createElement("div");
  el.className = "pcard down" + (S.squeeze.squeezers[side] === S.me ? " mine" : "");
  el.dataset.side = side; el.tabIndex = 0; el.setAttribute("role", "button");
  el.setAttribute("aria-label", `${side} card ${i + 1}, face down: squeeze it (Space, or S)`);
  el.innerHTML = `<div class="sq-face">?</div><div class="sq-back"></div><div class="sq-flap"></div>`;
  let start = null, moved = false;
  el.addEventListener("pointerdown", (e) => { start = { x: e.clientX, y: e.clientY, p: S.squeeze?.peel[side] || 0 }; moved = false; el.setPointerCapture(e.pointerId); });
  el.addEventListener("pointermove", (e) => {
    if (!start) return;
    const d = (start.x - e.clientX + start.y - e.clientY) / (el.offsetHeight * 1.4);
    if (Math.abs(d) > 0.03) moved = true;
    if (moved) peel(side, start.p + d);
  });
  el.addEventListener("pointerup", () => { if (start && !moved) peel(side, (S.squeeze?.peel[side] || 0) + 0.25); start = null; });
  el.addEventListener("keydown", (e) => { if (e.key === " " || e.key === "Enter") { e.preventDefault(); e.stopPropagation(); peel(side, (S.squeeze?.peel[side] || 0) + 0.25); } });
  return el;
}
function peel(side, value) {
  const sq = S.squeeze;
  if (!sq) return;
  const mine = sq.squeezers[side] === S.me;
  // Only a hand's squeezer turns it over (the server reveals it); anyone may bend a corner.
  sq.peel[side] = Math.max(0, Math.min(mine ? 1 : 0.8, value));
  drawPeel(side);
  if (mine) {
    sq.dirty = true;
    if (!S.peelTimer) S.peelTimer = setTimeout(sendPeels, 120);
  }
}
function sendPeels() {
  S.peelTimer = null;
  const sq = S.squeeze;
  if (!sq || !sq.dirty) return;
  sq.dirty = false;
  for (const side of SIDES) {
    if (sq.squeezers[side] === S.me && sq.peel[side] > (sq.sent?.[side] || 0)) {
      (sq.sent ||= {})[side] = sq.peel[side];
      send({ type: "squeeze", side, peel: Math.round(sq.peel[side] * 100) / 100 });
    }
  }
}
function onPeel(m) {
  if (!S.squeeze) return;
  S.squeeze.remote[m.side] = m.peel; drawPeel(m.side);
}
function drawPeel(side) {
  const sq = S.squeeze;
  if (!sq) return;
  const p = Math.max(sq.peel[side], sq.remote[side] || 0);
  document.querySelectorAll(`#${side}-cards .pcard.down`).forEach((el) => {
    el.style.setProperty("--p", (p * 85).toFixed(1) + "%");
    el.classList.toggle("turned", p >= 1);
  });
}
function endSqueeze() {
  if (S.peelTimer) { clearTimeout(S.peelTimer); S.peelTimer = null; }
  if (S.squeeze) { S.squeeze = null; if (S.phase === "squeeze") { S.phase = "dealing"; $("phase").textContent = "Dealing"; } }
}
function squeezeKey() {
  const sq = S.squeeze;
  if (!sq) return false;
  const sides = SIDES.filter((s) => sq.squeezers[s] === S.me);
  for (const side of sides.length ? sides : SIDES) peel(side, sq.peel[side] + 0.25);
  return true;
}

// -- roads, statistics, history and recall -------------------------------------------------
function renderRoads(roads) {
  S.roads = roads; $("roads").innerHTML = roads.svg;
  const st = roads.statistics, box = $("stats");
  box.innerHTML = "";
  const items = [["Banker", st.banker], ["Player", st.player], ["Tie", st.tie], ["B pairs", st.banker_pairs], ["P pairs", st.player_pairs], ["Naturals", st.naturals], ["Coups", st.coups], ["Best B run", st.longest_streak.banker], ["Best P run", st.longest_streak.player]];
  for (const [k, v] of items) { const d = document.createElement("div"); d.innerHTML = `${k} <b></b>`; d.querySelector("b").textContent = v; box.appendChild(d); }
}
function ask(side) {
  const p = S.roads?.predictions?.[side];
  if (!p) return;
  const txt = (v) => v ?? "—";
  $("ask-out").textContent = `If ${side}: Big Eye Boy ${txt(p.big_eye_boy)}, Small Road ${txt(p.small_road)}, Cockroach Pig ${txt(p.cockroach_pig)}`;
}
function renderHistory() {
  const list = $("history"); list.textContent = "";
  S.history.forEach((h, i) => {
    const li = document.createElement("li");
    li.innerHTML = `<span class="w-${h.winner}"></span> <button type="button">Recall</button>`;
    li.querySelector("span").textContent = `#${h.number} ${h.winner.toUpperCase()} ${h.player_total}–${h.banker_total} · ${h.coup}`;
    li.querySelector("button").addEventListener("click", () => recall(i));
    list.appendChild(li);
  });
}
function recall(i) { S.recall = { round: S.history[i], step: 0 }; $("recall").hidden = false; recallShow(); }
function recallShow() {
  const { round, step } = S.recall, s = round.steps[step];
  if (!s) return;
  $("recall-p").textContent = "Player " + s.player.join(" ");
  $("recall-b").textContent = "Banker " + s.banker.join(" ");
  $("recall-words").textContent = `Round ${round.number}, step ${step + 1}/${round.steps.length}: ${s.words}` + (document.body.classList.contains("teaching") && s.reason ? ` (${s.reason})` : "");
}
function recallMove(d) { if (!S.recall) return; S.recall.step = Math.max(0, Math.min(S.recall.round.steps.length - 1, S.recall.step + d)); recallShow(); }

// -- provably fair ----------------------------------------------------------------------------
function renderFair(f) {
  $("seed-hash").textContent = f.server_seed_hash; $("rules-hash").textContent = f.rules_hash;
  $("client-seeds").textContent = f.client_seeds.length ? f.client_seeds.join(", ") : "(none yet)";
}
function addRecord(record) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([JSON.stringify(record, null, 1)], { type: "application/json" }));
  a.download = `shoe-${record.server_seed_hash.slice(0, 8)}.json`;
  a.textContent = `Shoe ${record.server_seed_hash.slice(0, 12)}… revealed (${record.coups.length} coups): download`;
  $("records").prepend(a);
}

// -- timer and controls --------------------------------------------------------------------------
function tick() {
  if (!S.table) return;
  const left = Math.max(0, S.closesAt - (Date.now() / 1000 + S.offset));
  const total = S.snap?.bet_seconds || 15;
  const open = S.phase === "betting" && left > 0;
  if (S.squeeze) {
    const sqLeft = Math.max(0, S.squeeze.endsAt - (Date.now() / 1000 + S.offset));
    $("timer-bar").style.width = (100 * sqLeft / (S.squeeze.seconds || 1)) + "%";
    $("timer-text").textContent = "squeeze " + sqLeft.toFixed(1) + " s";
    return;
  }
  $("timer-bar").style.width = open ? (100 * left / total) + "%" : "0";
  $("timer-text").textContent = open ? left.toFixed(1) + " s" : S.phase === "betting" ? "closing" : "";
  if (open && left < 1.2 && S.staged.length) confirmBets();
}
function chips() {
  const box = $("chips");
  CHIPS.forEach((v, i) => {
    const b = document.createElement("button");
    b.type = "button"; b.className = "chip " + CHIP_CLASS[i]; b.textContent = chipText(v);
    b.setAttribute("role", "radio"); b.setAttribute("aria-label", `Chip ${money(v)}`);
    b.addEventListener("click", () => pickChip(i));
    box.appendChild(b);
  });
  pickChip(S.chip);
}
function pickChip(i) { S.chip = i; document.querySelectorAll(".chip").forEach((c, j) => c.setAttribute("aria-checked", String(i === j))); }
function undo() { S.staged.pop(); renderSpots(); }
function clearStaged() { S.staged = []; renderSpots(); }
function rebet() { if (S.phase !== "betting") return; S.staged.push(...S.lastBets.map((b) => ({ ...b }))); renderSpots(); }
function double() {
  if (S.phase !== "betting") return;
  const base = S.staged.length ? S.staged : Object.entries(S.confirmed).map(([kind, amount]) => ({ kind, amount }));
  S.staged.push(...base.map((b) => ({ ...b }))); renderSpots();
}

document.addEventListener("keydown", (e) => {
  if (!S.table || $("table").hidden || e.target.tagName === "INPUT") return;
  const k = e.key.toLowerCase();
  if (k >= "1" && k <= "6") pickChip(Number(k) - 1);
  else if (k === "p") stage("player"); else if (k === "b") stage("banker"); else if (k === "t") stage("tie");
  else if (k === "s" && squeezeKey()) { /* peeled */ }
  else if (k === "u") undo(); else if (k === "c") clearStaged(); else if (k === "r") rebet(); else if (k === "d") double();
  else if (k === "enter" && !(e.target instanceof HTMLButtonElement)) confirmBets();
  else return;
  e.preventDefault();
});
$("login-form").addEventListener("submit", (e) => { e.preventDefault(); auth(false); });
$("do-register").addEventListener("click", () => auth(true));
$("logout").addEventListener("click", async () => { S.wanted = false; S.ws?.close(); await api("/api/logout", {}); show("login"); });
$("to-lobby").addEventListener("click", lobby);
$("undo").addEventListener("click", undo); $("clear").addEventListener("click", clearStaged);
$("rebet").addEventListener("click", rebet); $("double").addEventListener("click", double);
$("confirm").addEventListener("click", confirmBets);
$("ask-b").addEventListener("click", () => ask("banker")); $("ask-p").addEventListener("click", () => ask("player"));
$("recall-prev").addEventListener("click", () => recallMove(-1)); $("recall-next").addEventListener("click", () => recallMove(1));
$("recall-close").addEventListener("click", () => { $("recall").hidden = true; S.recall = null; });
$("teaching").addEventListener("change", (e) => document.body.classList.toggle("teaching", e.target.checked));
$("seed-form").addEventListener("submit", (e) => { e.preventDefault(); const v = $("client-seed").value.trim(); if (v) send({ type: "seed", seed: v }); $("client-seed").value = ""; });
chips();
setInterval(tick, 100);
start();
