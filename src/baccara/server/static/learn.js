// The Learn page: the server's book (`/api/learn`: lessons, the tableau in words, the
// dictionary, the FAQs, the tips and each game's pay table with its exact house edges),
// the tableau tried card by card (`/api/learn/tableau`), and terms looked up by name
// (`/api/learn/terms/{name}`). Nothing here knows a rule or a figure: they all come
// from the server's rulebook and engines.
import { coupText } from "./cards.js";
import { api } from "./protocol.js";

const $ = (id) => document.getElementById(id);
const PARTS = ["rules", "variants", "dictionary", "faq", "history", "tips", "drills"];
const SUIT_OF = { p1: "s", p2: "c", b1: "h", b2: "d", p3: "s" };  // suits do not count

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** Show the part the address names (#rules by default). */
function route() {
  const wanted = location.hash.slice(1);
  const part = PARTS.includes(wanted) ? wanted : "rules";
  for (const id of PARTS) $(id).hidden = id !== part;
  for (const link of document.querySelectorAll(".learn-nav a[href^='#']")) {
    link.setAttribute("aria-current", link.getAttribute("href") === "#" + part ? "page" : "false");
  }
}

function renderBook(book) {
  $("how").replaceChildren(...book.how_it_works.map((text) => el("p", "", text)));
  $("tableau-lines").replaceChildren(...book.tableau.map((text) => el("li", "", text)));
  $("variant-pages").replaceChildren(...book.variants.map(variantPage));
  $("terms").replaceChildren(...book.terms.flatMap((term) => {
    const name = el("dt", "", term.name);
    name.id = "term-" + term.name.replaceAll(" ", "-");
    const text = el("dd", "", term.text);
    if (term.also.length) text.append(el("span", "also", ` Also: ${term.also.join(", ")}.`));
    if (term.see.length) text.append(el("span", "also", ` See: ${term.see.join(", ")}.`));
    return [name, text];
  }));
  $("faqs").replaceChildren(...book.faqs.flatMap((f) => [el("dt", "", f.q), el("dd", "", f.a)]));
  $("history-text").replaceChildren(...book.history.map((text) => el("p", "", text)));
  $("tip-list").replaceChildren(...book.tips.map((text) => el("li", "", text)));
}

function variantPage(v) {
  const box = el("article", "variant");
  box.id = "variant-" + v.name;
  box.append(el("h2", "", v.title), el("p", "", `${v.description} ${v.decks} decks, ${v.seats} seats.`));
  if (v.bets) {
    const table = el("table", "pay-table");
    const head = el("tr");
    head.append(el("th", "", "Bet"), el("th", "", "Pays"), el("th", "num", "House edge"));
    table.append(head);
    for (const bet of v.bets) {
      const row = el("tr", bet.main ? "main-bet" : "side-bet");
      row.append(el("td", "", bet.label), el("td", "", bet.pays), el("td", "num", bet.edge));
      table.append(row);
    }
    box.append(table);
  }
  if (v.solver) box.append(el("p", "solver", v.solver));
  return box;
}

// -- the tableau, tried ---------------------------------------------------------------------------
/** The card pickers, from the server's card notation (`ranks`: A, 2, ..., T, J, Q, K). */
function fillSelects(ranks) {
  const start = { p1: "2", p2: "3", b1: "5", b2: "K", p3: "4" };
  for (const id of Object.keys(SUIT_OF)) {
    const choices = id === "p3" ? ["", ...ranks] : ranks;
    $(id).replaceChildren(...choices.map((rank) => {
      const option = el("option", "", rank === "" ? "—" : rank === "T" ? "10" : rank);
      option.value = rank === "" ? "" : rank + SUIT_OF[id];
      option.selected = rank === start[id];
      return option;
    }));
  }
}

async function tryTableau() {
  const params = new URLSearchParams({
    player: `${$("p1").value} ${$("p2").value}`, banker: `${$("b1").value} ${$("b2").value}`, third: $("p3").value,
  });
  const out = $("decision");
  try {
    const d = await api("/api/learn/tableau?" + params);
    const lines = [el("p", "totals", `Player ${d.player_total}, Banker ${d.banker_total}.`),
      el("p", d.player.draws ? "draws" : "stands", d.player.reason)];
    if (d.banker?.reason === d.player.reason) lines[1].className = "natural";  // one rule for both
    else if (d.banker) lines.push(el("p", d.banker.draws ? "draws" : "stands", d.banker.reason));
    else lines.push(el("p", "hint", "The Player draws: pick its third card to see the Banker's rule."));
    out.replaceChildren(...lines);
  } catch (error) {
    out.replaceChildren(el("p", "error", error.message));  // e.g. a third card after a natural
  }
}

// -- the dictionary -------------------------------------------------------------------------------
async function lookUp(name) {
  const answer = $("term-answer");
  answer.className = "term-answer";
  if (!name.trim()) { answer.textContent = ""; return; }
  try {
    const term = await api("/api/learn/terms/" + encodeURIComponent(name.trim()));
    answer.textContent = `${term.name}: ${term.text}`;
    document.getElementById("term-" + term.name.replaceAll(" ", "-"))?.scrollIntoView({ block: "center" });
  } catch (error) {
    answer.className = "term-answer error";
    answer.textContent = error.message;
  }
  history.replaceState(null, "", `?term=${encodeURIComponent(name.trim())}#dictionary`);
}

let drillsStarted = false;
function startDrills() {
  if (drillsStarted) return;
  drillsStarted = true;
  askTableau();
  askPayout();
}

// -- drills ---------------------------------------------------------------------------------------
const pct = (x) => `${(100 * x).toFixed(3)}%`;

function recordText(r) {
  const right = r.asked - r.missed;
  return `Your record: ${right} right of ${r.asked}` + (r.most_missed.length ? ` · most missed: ${r.most_missed.join(", ")}` : "");
}

async function askTableau() {
  $("t-out").textContent = "";
  try {
    const q = await api("/api/learn/drills/tableau");
    const third = q.third ? ` · Player's third card ${q.third}` : "";
    $("t-question").replaceChildren(el("p", "hands", `Player ${q.player.join(" ")} · Banker ${q.banker.join(" ")}${third}`),
      el("p", "prompt", q.prompt));
    $("drill-login").hidden = true;
  } catch (error) { drillError("t", error); }
}

async function answerTableau(answer) {
  try {
    const r = await api("/api/learn/drills/tableau", { answer });
    $("t-out").className = "verdict " + (r.correct ? "right" : "wrong");
    $("t-out").textContent = `${r.correct ? "Right" : "Not quite"}: ${r.expected}. ${r.why}`;
    $("t-record").textContent = recordText(r.record);
  } catch (error) { $("t-out").className = "verdict wrong"; $("t-out").textContent = error.message; }
}

async function askPayout() {
  $("p-out").textContent = ""; $("p-answer").value = "";
  try {
    const q = await api("/api/learn/drills/payout");
    $("p-question").replaceChildren(el("p", "hands", coupText(q.coup)), el("p", "prompt", q.prompt));
  } catch (error) { drillError("p", error); }
}

async function answerPayout() {
  try {
    const r = await api("/api/learn/drills/payout", { answer: $("p-answer").value });
    $("p-out").className = "verdict " + (r.correct ? "right" : "wrong");
    $("p-out").textContent = `${r.correct ? "Right" : "Not quite"}: ${r.expected}. ${r.why}`;
    $("p-record").textContent = recordText(r.record);
  } catch (error) { $("p-out").className = "verdict wrong"; $("p-out").textContent = error.message; }
}

function drillError(prefix, error) {
  if (/log in/.test(error.message)) $("drill-login").hidden = false;
  $(`${prefix}-question`).replaceChildren(el("p", "hint", error.message));
}

// the coup asked for counts at the click (quick clicks each move one coup on; the page
// shows the answer to the latest, whatever order the answers come back in)
let shoeSeed = null, shoeWanted = 0;
async function dealShoe(upto) {
  shoeWanted = upto;
  try {
    const s = await api(`/api/learn/drills/shoe?seed=${encodeURIComponent(shoeSeed)}&upto=${upto}`);
    if (upto !== shoeWanted) return;
    const rows = [el("tr")];
    rows[0].append(el("td", "", "0"), el("td", "", "full shoe"), el("td", "num", String(52 * s.decks)),
      el("td", "num", pct(s.start.banker)), el("td", "num", pct(s.start.player)), el("td", "num", pct(s.start.tie)));
    s.steps.forEach((step, i) => {
      const row = el("tr", "w-" + step.winner);
      row.append(el("td", "", String(i + 1)), el("td", "", coupText(step.coup)), el("td", "num", String(step.left)),
        el("td", "num", pct(step.edges.banker)), el("td", "num", pct(step.edges.player)), el("td", "num", pct(step.edges.tie)));
      rows.push(row);
    });
    $("s-rows").replaceChildren(...rows.reverse());  // the newest coup first
    $("s-out").textContent = `Shoe ${s.seed}: coup ${upto} of ${s.coups}.`;
    $("s-next").disabled = upto >= s.coups;
  } catch (error) { $("s-out").textContent = error.message; }
}

async function start() {
  window.addEventListener("hashchange", route);
  $("try").addEventListener("change", tryTableau);
  $("term-form").addEventListener("submit", (e) => { e.preventDefault(); lookUp($("term-input").value); });
  $("t-draw").addEventListener("click", () => answerTableau("draw"));
  $("t-stand").addEventListener("click", () => answerTableau("stand"));
  $("t-next").addEventListener("click", askTableau);
  $("p-form").addEventListener("submit", (e) => { e.preventDefault(); answerPayout(); });
  $("p-next").addEventListener("click", askPayout);
  $("s-form").addEventListener("submit", (e) => { e.preventDefault(); shoeSeed = $("s-seed").value.trim(); dealShoe(0); });
  $("s-next").addEventListener("click", () => { if (shoeSeed === null) { shoeSeed = $("s-seed").value.trim(); } dealShoe(shoeWanted + 1); });
  $("s-seed").value = String(Math.floor(Math.random() * 1e6));
  window.addEventListener("hashchange", () => { if (location.hash === "#drills") startDrills(); });
  route();
  try {
    const book = await api("/api/learn");
    fillSelects(book.ranks);
    renderBook(book);
    $("learn-status").hidden = true;
  } catch (error) {
    $("learn-status").textContent = `The lessons could not be loaded: ${error.message}`;
    return;
  }
  tryTableau();
  if (location.hash === "#drills") startDrills();
  const wanted = new URLSearchParams(location.search).get("term");
  if (wanted) { $("term-input").value = wanted; lookUp(wanted); }
}

start();
