// The players: a search by name (`/api/admin/players?q=`), a player's account (balance,
// status, limits and their history, the staff's notes, the statement's CSV), their last
// ten rounds replayed step by step as they were dealt (`.../rounds?last=10`: the cards
// with the table's own card faces, the croupier's words and rule at each step; at a
// players' table every decision in order); suspend and reinstate (confirmed) and notes,
// for a role the server lets; and a stop of a player's logins (lifted by compliance).
import { cardText, coupText } from "../cards.js";
import { money } from "../money.js";
import { cardElement } from "../render.js";
import { button, call, confirmed, el, errorLine, field, NO_ROUTE, newsLine, readOnly, when } from "./common.js";

const LOGINS = "/api/admin/players/{name}/logins";
const SUSPEND = "/api/admin/players/{name}/suspend";
const REINSTATE = "/api/admin/players/{name}/reinstate";
const NOTES = "/api/admin/players/{name}/notes";
const LAST = 10;
const PERIODS = [["day", "A day"], ["week", "A week"], ["month", "A month"]];

let ctx, news, found, detail;

const playerPath = (name, what = "") => `/api/admin/players/${encodeURIComponent(name)}${what}`;

/** What stops the player now, in words. */
function statusText(status) {
  const parts = [];
  if (status.logins_stopped) parts.push("Suspended until reinstated");
  else if (status.suspended_until !== null) parts.push(`Suspended until ${when(status.suspended_until)}`);
  if (status.excluded_until !== null) parts.push(`Excluded (their own choice) until ${when(status.excluded_until)}`);
  return parts.length ? parts.join("; ") : "May play";
}

const suspended = (status) => status.logins_stopped || status.suspended_until !== null;

function changeText(c) {
  const period = c.days ? ` over ${c.days} day${c.days === 1 ? "" : "s"}` : "";
  if (c.kind === "reminder") return c.amount === null ? "Session reminder removed" : `Session reminder every ${c.amount} minutes`;
  if (c.kind === "exclusion" || c.kind === "suspension") {
    const what = c.kind === "exclusion" ? "Exclusion" : "Suspension";
    return c.until === null ? `${what} lifted` : `${what} until ${when(c.until)}`;
  }
  const now = c.amount === null ? "none" : money(c.amount);
  const next = c.next_from !== null ? `; ${c.next_amount === null ? "removal" : money(c.next_amount)} from ${when(c.next_from)}` : "";
  return `${c.kind === "loss" ? "Loss" : c.kind === "deposit" ? "Deposit" : c.kind} limit${period}: ${now}${next}`;
}

function limitsTable(limits) {
  const kinds = Object.keys(limits);
  if (!kinds.length) return el("p", {}, "No loss or deposit limit set.");
  const cell = (limit) => {
    if (!limit) return "none";
    const now = limit.amount === null ? "none" : money(limit.amount);
    return limit.next_from === null ? now : `${now} (${limit.next_amount === null ? "removal" : money(limit.next_amount)} from ${when(limit.next_from)})`;
  };
  return el("table", { class: "grid limits" }, el("caption", { class: "sr" }, "Limits in force"),
    el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "Limit"), PERIODS.map(([, words]) => el("th", { scope: "col" }, words)))),
    el("tbody", {}, kinds.map((kind) => el("tr", {},
      el("th", { scope: "row", "data-label": "Limit" }, kind === "loss" ? "Loss" : kind === "deposit" ? "Deposit" : kind),
      PERIODS.map(([period, words]) => el("td", { "data-label": words }, cell(limits[kind][period])))))));
}

function historyTable(history) {
  if (!history.length) return el("p", {}, "No change in this period.");
  return el("table", { class: "grid history" }, el("caption", { class: "sr" }, "Changes to the limits, newest first"),
    el("thead", {}, el("tr", {}, ["When", "What", "A raise asked", "By"].map((h) => el("th", { scope: "col" }, h)))),
    el("tbody", {}, history.map((c) => el("tr", {},
      el("th", { scope: "row", "data-label": "When" }, when(c.at)),
      el("td", { "data-label": "What" }, changeText(c)),
      el("td", { "data-label": "A raise asked" }, c.raised ? "yes" : "no"),
      el("td", { "data-label": "By" }, c.actor)))));
}

function notesList(notes) {
  if (!notes.length) return el("p", { class: "no-notes" }, "No note yet.");
  return el("ul", { class: "notes" }, notes.map((n) => el("li", { "data-note": n.id },
    el("p", { class: "note-text" }, n.text),
    el("p", { class: "hint" }, `${n.actor}${n.role ? ` (${n.role})` : ""}, ${when(n.at)}`))));
}

// -- the replay -------------------------------------------------------------------------

function hand(name, cards) {
  return el("div", { class: "replay-hand" }, el("h4", {}, name),
    el("div", { class: "cards", role: "list", "aria-label": `${name}'s cards` },
      cards.length ? cards.map((c, i) => { const node = cardElement(document, c, i === 2); node.setAttribute("role", "listitem"); node.setAttribute("aria-label", c); return node; })
        : el("span", { class: "hint" }, "no card yet")));
}

/** A house round: its bets, then its deal a step at a time (Previous, Next). */
function houseReplay(r) {
  const steps = r.steps ?? [];
  let at = 0;
  const stage = el("div", { class: "replay-stage", "aria-live": "polite" });
  const count = el("p", { class: "step-count" });
  const prev = el("button", { type: "button", class: "step-prev" }, "Previous step");
  const next = el("button", { type: "button", class: "step-next" }, "Next step");
  const draw = () => {
    const step = steps[at];
    count.textContent = `Step ${at + 1} of ${steps.length}`;
    stage.replaceChildren(
      el("div", { class: "replay-hands" }, hand("Player", step.player), hand("Banker", step.banker)),
      el("p", { class: "step-words" }, step.words), el("p", { class: "hint step-rule" }, step.reason));
    prev.disabled = at === 0;
    next.disabled = at === steps.length - 1;
  };
  prev.addEventListener("click", () => { at = Math.max(0, at - 1); draw(); });
  next.addEventListener("click", () => { at = Math.min(steps.length - 1, at + 1); draw(); });
  const bets = (r.bets ?? []).map((b) => el("li", {}, `${b.kind} ${money(b.amount)}: ${b.returned === null ? `not settled (${b.status})` : `paid back ${money(b.returned)}`}`));
  const body = [el("ul", { class: "replay-bets", "aria-label": "The player's bets" }, bets),
    el("p", { class: "hint" }, `Shoe ${r.shoe_id ?? "—"}, coup ${r.coup_index ?? "—"}; cards as dealt: ${(r.cards ?? []).map(cardText).join(" ") || "none"}`)];
  if (steps.length) {
    draw();
    body.push(el("div", { class: "row step-controls" }, prev, count, next), stage);
  } else body.push(el("p", {}, `Not dealt (${r.phase}).`));
  return body;
}

function playersReplay(r) {
  const rows = (r.decisions ?? []).map((d) => el("tr", {},
    el("td", { "data-label": "#" }, String(d.seq)),
    el("td", { "data-label": "Seat" }, d.seat < 0 ? "the house's rule" : `${d.seat}${d.player ? ` (${d.player})` : ""}`),
    el("td", { "data-label": "Did" }, `${d.action}${d.timed_out ? " (the clock took it)" : ""}`),
    el("td", { "data-label": "Amount", class: "num" }, d.amount === null ? "" : money(d.amount)),
    el("td", { "data-label": "Tableau" }, d.tableau ?? "")));
  return [el("p", {}, `Seats: ${(r.seats ?? []).join(", ") || "none"}`),
    rows.length ? el("table", { class: "grid decisions" }, el("caption", { class: "sr" }, "Every decision in order"),
      el("thead", {}, el("tr", {}, ["#", "Seat", "Did", "Amount", "Tableau"].map((h) => el("th", { scope: "col" }, h)))), el("tbody", {}, rows))
      : el("p", {}, "No decision.")];
}

async function replays(name, box) {
  try {
    const answer = await call(playerPath(name, `/rounds?last=${LAST}`));
    if (!answer.rounds.length) { box.replaceChildren(el("p", {}, "No round played yet.")); return; }
    box.replaceChildren(el("ol", { class: "rounds" }, answer.rounds.map((r, i) => {
      const title = r.kind === "house" ? `Table ${r.table}, round ${r.round}: ${r.coup ? coupText(r.coup) : r.phase}` : `Table ${r.table}, shoe ${r.shoe_id}`;
      const opened = el("details", { class: "replay", "data-round": r.round ?? r.shoe_id, open: i === 0 },
        el("summary", {}, `${title} · ${when(r.at)}`), ...(r.kind === "house" ? houseReplay(r) : playersReplay(r)));
      return el("li", {}, opened);
    })));
  } catch (error) {
    box.replaceChildren(el("p", { class: "news fail", role: "alert" }, `The rounds: ${errorLine(error)}`));
  }
}

// -- a player's account -------------------------------------------------------------------

function actionsPanel(player) {
  const can = (route) => ctx.may("POST", route);
  const parts = [];
  if (can(SUSPEND) && !suspended(player.status)) {
    const days = field("Days (empty: until reinstated)", { name: "suspend-days", type: "number", min: "1", max: "36500", step: "1", autocomplete: "off" });
    parts.push(el("form", { class: "row suspend", "aria-label": `Suspend ${player.name}`, onsubmit: (e) => e.preventDefault() }, days.label,
      button(`Suspend ${player.name}`, async () => {
        const n = days.input.value.trim() === "" ? null : Number(days.input.value);
        const span = n === null ? "until reinstated" : `for ${n} day${n === 1 ? "" : "s"}`;
        if (!(await confirmed(`Suspend ${player.name} ${span}? Every session of theirs ends now.`))) return;
        try {
          const done = await call(playerPath(player.name, "/suspend"), { method: "POST", body: n === null ? {} : { days: n } });
          news.ok(n === null || done.suspended_until === null ? `${done.name} is suspended until reinstated.` : `${done.name} is suspended until ${when(done.suspended_until)}.`);
        } catch (error) { news.fail(error); }
        await open(player.name);
      }, { class: "danger" })));
  }
  if (can(REINSTATE) && suspended(player.status)) {
    parts.push(el("div", { class: "row" }, button(`Reinstate ${player.name}`, async () => {
      if (!(await confirmed(`Reinstate ${player.name}? They may log in and play again.`))) return;
      try {
        const done = await call(playerPath(player.name, "/reinstate"), { method: "POST", body: {} });
        news.ok(`${done.name} is reinstated.`);
      } catch (error) { news.fail(error); }
      await open(player.name);
    })));
  }
  if (can(NOTES)) {
    const text = el("textarea", { id: "note-text", name: "note", rows: 3, maxlength: 2000, required: true });
    const form = el("form", { class: "note-form", "aria-label": `A note on ${player.name}` },
      el("label", { class: "field", for: "note-text" }, el("span", {}, "A note (kept for good)")), text,
      el("div", { class: "row" }, el("button", { type: "submit" }, "Add the note")));
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      try {
        await call(playerPath(player.name, "/notes"), { method: "POST", body: { text: text.value } });
        news.ok(`Note added on ${player.name}.`);
        await open(player.name);
      } catch (error) { news.fail(error); }
    });
    parts.push(form);
  }
  return parts;
}

async function open(name) {
  try {
    const p = await call(playerPath(name));
    const rounds = el("div", { class: "replays", "aria-live": "polite" }, "Loading…");
    const facts = [["Balance", money(p.balance)], ["Status", statusText(p.status)], ["Account made", when(p.created_at)],
      ["Last login", p.last_login_at === null ? "never" : when(p.last_login_at)],
      ["Session reminder", p.reminder_minutes === null ? "none" : `every ${p.reminder_minutes} minutes`]];
    detail.replaceChildren(
      el("h2", { id: "player-title", tabindex: "-1" }, p.name),
      el("dl", { class: "facts" }, facts.flatMap(([k, v]) => [el("dt", {}, k), el("dd", { "data-fact": k }, v)])),
      el("p", {}, el("a", { class: "statement-csv", href: `${playerPath(p.name, "/movements")}?format=csv`, download: "" }, `Download ${p.name}'s statement as CSV`),
        " (the last 30 days; the Cashier shows any period)"),
      ...actionsPanel(p),
      el("h3", {}, "Limits in force"), limitsTable(p.limits),
      el("h3", {}, `Changes from ${when(p.start)} to ${when(p.end)}`), historyTable(p.history),
      el("h3", {}, "Notes"), notesList(p.notes),
      el("h3", {}, `The last ${LAST} rounds, replayed`), rounds);
    detail.hidden = false;
    await replays(p.name, rounds);
  } catch (error) {
    detail.hidden = false;
    detail.replaceChildren(el("p", { class: "news fail", role: "alert" }, errorLine(error)));
  }
}

function searchForm() {
  const q = field("Name", { name: "q", type: "search", maxlength: 24, autocomplete: "off" });
  const form = el("form", { class: "row", role: "search", "aria-label": "Find a player" }, q.label, el("button", { type: "submit" }, "Search"));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const answer = await call(`/api/admin/players?q=${encodeURIComponent(q.input.value.trim())}`);
      const players = answer.players ?? [];
      found.replaceChildren(players.length
        ? el("ul", { class: "found-list" }, players.map((p) => el("li", {},
          button(p.name, async () => { await open(p.name); document.getElementById("player-title")?.focus(); }, { class: "link", "data-player": p.name }),
          ` ${statusText(p.status)}; last login ${p.last_login_at === null ? "never" : when(p.last_login_at)}`)))
        : el("p", {}, "Nobody by that name."));
    } catch (error) {
      found.replaceChildren(error.code === NO_ROUTE
        ? el("p", { class: "unavailable" }, "Player search is not available on this server.")
        : el("p", { class: "news fail", role: "alert" }, errorLine(error)));
    }
  });
  return form;
}

/** Stop a player's logins (the operator or compliance); letting them in again lifts any
 * suspension in force, so it is compliance's alone (the server refuses the others). */
function loginsForm(ctx) {
  const player = field("Player", { name: "logins-player", required: true, maxlength: 24, autocomplete: "off" });
  const set = async (stopped) => {
    const name = player.input.value.trim();
    if (!name) { player.input.focus(); return; }
    if (stopped && !(await confirmed(`Stop ${name}'s logins? Every session of theirs ends now; the round they bet in is settled as usual.`))) return;
    try {
      const done = await call(`/api/admin/players/${encodeURIComponent(name)}/logins`, { method: "POST", body: { stopped } });
      news.ok(done.stopped ? `${done.name}'s logins are stopped.` : `${done.name} may log in again.`);
    } catch (error) { news.fail(error); }
  };
  return el("form", { class: "row", "aria-label": "A player's logins", onsubmit: (e) => e.preventDefault() }, player.label,
    button("Stop logins", () => set(true), { class: "danger" }),
    ctx.role === "compliance" ? button("Let them log in", () => set(false)) : null);
}

export default {
  id: "players",
  title: "Players",
  mount(root, given) {
    ctx = given;
    news = newsLine();
    found = el("div", { class: "found", "aria-live": "polite" });
    detail = el("div", { class: "player-detail panel", hidden: true });
    const acts = [SUSPEND, REINSTATE, NOTES].some((route) => ctx.may("POST", route));
    const logins = ctx.may("POST", LOGINS);
    root.append(...[acts || logins ? null : readOnly(ctx, "players"), news.node,
      el("h2", {}, "Find a player"), el("div", { class: "panel" }, searchForm(), found), detail,
      logins ? el("h2", {}, "Logins") : null, logins ? el("div", { class: "panel" }, loginsForm(ctx)) : null].filter(Boolean));
  },
  show() {},
};
