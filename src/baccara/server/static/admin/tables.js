// The tables: every table with its state, players, limits and timings
// (`/api/admin/tables`, and the lobby's `/api/tables` for who is there and the limits
// in force); open one with a game the server runs (`/api/admin/variants`), pause,
// resume, close (after a confirmation), change its limits and timings (PATCH), and stop
// or resume play everywhere or at one game. A role that may not change them sees the
// list and the stops only.
import { money } from "../money.js";
import { button, call, choice, confirmed, el, field, newsLine, readOnly, when } from "./common.js";

const TABLE = "/api/admin/tables/{table_id}";
const TIMINGS = [["bet_seconds", "Betting window (s)"], ["decision_seconds", "Decision clock (s)"], ["result_seconds", "Result pause (s)"]];
const LIMITS = [["minimum", "Minimum"], ["maximum", "Maximum"]];

let ctx, news, listBox, stopsBox, openBox;
let variants = [];
let scopeChosen = "all";  // the stops' scope, kept across a refresh

const path = (id, what = "") => `/api/admin/tables/${encodeURIComponent(id)}${what}`;

/** The table's state, or why the house holds it, in the players' words ("Paused by the house"). */
function stateText(table) {
  if (table.state === "closed" || !table.held) return table.state;
  return table.held.charAt(0).toUpperCase() + table.held.slice(1);
}

/** A game's title as the server names it ("EZ Baccarat"), else its name. */
const gameTitle = (name) => variants.find((v) => v.name === name)?.title ?? name;

/** The limits: the house's own for this table (from its next round), else those in
 * force (the lobby's: the main bets', or a players' table's least buy-in). */
function limitsText(table, lobby) {
  const own = table.minimum !== null || table.maximum !== null;
  const main = lobby?.bets?.find((b) => b.main);
  const low = table.minimum ?? main?.min ?? lobby?.minimum ?? null;
  const high = table.maximum ?? main?.max ?? null;
  if (low === null && high === null) return "server's";
  const shown = main || high !== null
    ? [low, high].map((c) => (c === null ? "—" : money(c))).join(" – ")
    : `buy-in from ${money(low)}`;
  return `${shown}${own ? " (set here)" : " (server's)"}`;
}

function timingsText(table) {
  const parts = TIMINGS.map(([key, words]) => (table[key] === null ? null : `${words.replace(" (s)", "")} ${table[key]} s`)).filter(Boolean);
  return parts.length ? parts.join(", ") : "server's";
}

function playersText(lobby) {
  if (!lobby) return "—";
  return `${lobby.players} watching, ${lobby.seated} of ${lobby.seats} seats`;
}

async function act(table, what, words) {
  if (what !== "resume" && !(await confirmed(`${words} table ${table.id}?`))) return;
  try {
    const after = await call(path(table.id, `/${what}`), { method: "POST", body: {} });
    news.ok(`Table ${after.id}: ${stateText(after)}.`);
  } catch (error) { news.fail(error); }
  await refresh();
}

/** The form that changes a table's limits and timings: only the fields changed are sent. */
function setupForm(table) {
  const inputs = {};
  const fields = [
    ...LIMITS.map(([key, words]) => {
      const made = field(words, { name: key, inputmode: "decimal", placeholder: "server's", value: table[key] === null ? "" : money(table[key]), size: 10 });
      inputs[key] = made.input;
      return made.label;
    }),
    ...TIMINGS.map(([key, words]) => {
      const made = field(words, { name: key, type: "number", min: "0.1", max: "3600", step: "0.1", placeholder: "server's", value: table[key] ?? "" });
      inputs[key] = made.input;
      return made.label;
    }),
  ];
  const form = el("form", { class: "setup", "aria-label": `Limits and timings of table ${table.id}` },
    el("p", { class: "hint" }, "Empty: the server's configuration. From the table's next round."),
    el("div", { class: "fields" }, fields),
    el("button", { type: "submit", class: "primary" }, "Save limits and timings"));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const body = {};
    for (const [key] of LIMITS) {
      const text = inputs[key].value.trim();
      const before = table[key] === null ? "" : money(table[key]);
      if (text !== before) body[key] = text === "" ? null : text;
    }
    for (const [key] of TIMINGS) {
      const text = inputs[key].value.trim();
      if (text !== String(table[key] ?? "")) body[key] = text === "" ? null : Number(text);
    }
    if (!Object.keys(body).length) { news.ok(`Table ${table.id}: nothing changed.`); return; }
    try {
      const after = await call(path(table.id), { method: "PATCH", body });
      news.ok(`Table ${after.id}: limits and timings saved.`);
      await refresh();
    } catch (error) { news.fail(error); }
  });
  return el("details", { class: "setup-box" }, el("summary", {}, "Change limits and timings"), form);
}

function actions(table) {
  const box = el("div", { class: "actions-cell" });
  const can = (method, what) => ctx.may(method, what);
  if (table.state === "closed") {
    if (can("POST", "/api/admin/tables")) {
      box.append(button("Open again", async () => {
        try {
          await call("/api/admin/tables", { method: "POST", body: { id: table.id, variant: table.variant, squeeze: table.squeeze } });
          news.ok(`Table ${table.id} is open again.`);
        } catch (error) { news.fail(error); }
        await refresh();
      }, { "aria-label": `Open again: table ${table.id}` }));
    }
    return box;
  }
  if (table.state === "open" && can("POST", `${TABLE}/pause`)) {
    box.append(button("Pause", () => act(table, "pause", "Pause"), { "aria-label": `Pause table ${table.id}` }));
  }
  if (table.state === "paused" && can("POST", `${TABLE}/resume`)) {
    box.append(button("Resume", () => act(table, "resume", "Resume"), { "aria-label": `Resume table ${table.id}` }));
  }
  if (can("POST", `${TABLE}/close`)) {
    box.append(button("Close", () => act(table, "close", "Close"), { class: "danger", "aria-label": `Close table ${table.id}` }));
  }
  if (can("PATCH", TABLE)) box.append(setupForm(table));
  return box;
}

function renderList(list, lobby) {
  // a redraw keeps the keyboard where it was: on the same control of the same table
  const focused = listBox.contains(document.activeElement) ? document.activeElement.getAttribute("aria-label") : null;
  const byId = new Map(lobby.map((t) => [t.id, t]));
  const head = el("tr", {}, ["Table", "Game", "State", "Players", "Limits (main bets)", "Timings", "Changed", ""].map((h, i) =>
    el("th", { scope: "col" }, i === 7 ? el("span", { class: "sr" }, "Actions") : h)));
  const rows = list.tables.map((t) => el("tr", { "data-table": t.id, "data-state": t.state, class: `state-${t.state}` },
    el("th", { scope: "row", "data-label": "Table" }, t.id),
    el("td", { "data-label": "Game" }, `${gameTitle(t.variant)}${t.squeeze ? " (squeeze)" : ""}`),
    el("td", { "data-label": "State", class: "state" }, stateText(t)),
    el("td", { "data-label": "Players" }, playersText(byId.get(t.id))),
    el("td", { "data-label": "Limits" }, limitsText(t, byId.get(t.id))),
    el("td", { "data-label": "Timings" }, timingsText(t)),
    el("td", { "data-label": "Changed" }, when(t.updated_at)),
    el("td", { "data-label": "Actions" }, actions(t))));
  listBox.replaceChildren(
    list.tables.length
      ? el("table", { class: "grid tables-grid" }, el("caption", { class: "sr" }, "The tables"), el("thead", {}, head), el("tbody", {}, rows))
      : el("p", {}, "No table yet."));
  if (focused) listBox.querySelector(`[aria-label="${CSS.escape(focused)}"]`)?.focus();
}

function renderStops(stopped) {
  const said = stopped.length ? `Play is stopped: ${stopped.join(", ")}.` : "Play runs everywhere.";
  const children = [el("p", { id: "stops-now", class: stopped.length ? "held" : "" }, said)];
  if (ctx.may("POST", "/api/admin/play/stop")) {
    const games = [...new Set(variants.map((v) => v.game))];
    const scope = choice("Where", [["all", "Every table"], ...games.map((g) => [g, `Every ${g} table`])], { name: "scope" });
    scope.select.value = scopeChosen;
    scope.select.addEventListener("change", () => { scopeChosen = scope.select.value; });
    children.push(el("div", { class: "row" }, scope.label,
      button("Stop play", async () => {
        const where = scope.select.value;
        if (!(await confirmed(`Stop play at ${where === "all" ? "every table" : `every ${where} table`}? Each finishes its round in play, then holds.`))) return;
        try { await call("/api/admin/play/stop", { method: "POST", body: { game: where } }); news.ok(`Play stopped: ${where}.`); } catch (error) { news.fail(error); }
        await refresh();
      }, { class: "danger" }),
      button("Resume play", async () => {
        const where = scope.select.value;
        try { await call("/api/admin/play/resume", { method: "POST", body: { game: where } }); news.ok(`Play resumed: ${where}.`); } catch (error) { news.fail(error); }
        await refresh();
      })));
  }
  stopsBox.replaceChildren(...children);
}

function openForm() {
  const id = field("Table id", { name: "id", required: true, maxlength: 40, pattern: "[A-Za-z0-9][A-Za-z0-9_\\-]*", placeholder: "n1", autocomplete: "off" });
  const game = choice("Game", variants.map((v) => [v.name, `${v.title} (${v.name})`]), { name: "variant" });
  const squeeze = el("input", { type: "checkbox", id: "open-squeeze", name: "squeeze" });
  const squeezeLabel = el("label", { class: "check", for: "open-squeeze" }, squeeze, " Squeeze (a house-banked game)");
  const sync = () => {
    const chosen = variants.find((v) => v.name === game.select.value);
    squeeze.disabled = !chosen?.squeeze;
    if (squeeze.disabled) squeeze.checked = false;
  };
  game.select.addEventListener("change", sync);
  sync();
  const form = el("form", { class: "row open-form", "aria-label": "Open a table" }, id.label, game.label, squeezeLabel,
    el("button", { type: "submit", class: "primary" }, "Open the table"));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const made = await call("/api/admin/tables", { method: "POST", body: { id: id.input.value.trim(), variant: game.select.value, squeeze: squeeze.checked } });
      news.ok(`Table ${made.id} is open (${made.variant}).`);
      id.input.value = "";
    } catch (error) { news.fail(error); }
    await refresh();
  });
  return form;
}

async function refresh() {
  try {
    const [list, lobby] = await Promise.all([call("/api/admin/tables"), call("/api/tables").catch(() => [])]);
    renderList(list, lobby);
    renderStops(list.stopped);
  } catch (error) { news.fail(error); }
}

export default {
  id: "tables",
  title: "Tables",
  mount(root, given) {
    ctx = given;
    news = newsLine();
    listBox = el("div", { class: "scroll" });
    stopsBox = el("div", { class: "panel stops", "aria-label": "Stops of play" });
    openBox = el("div", { class: "panel" });
    const changes = ctx.may("POST", "/api/admin/tables");
    root.append(...[
      changes ? el("p", { class: "lead" }, "Changes reach every process within a second; a pause or a close lets the round in play finish.") : readOnly(ctx, "the tables"),
      news.node,
      el("h2", {}, "Play"), stopsBox,
      changes ? el("h2", {}, "Open a table") : null, changes ? openBox : null,
      el("div", { class: "row list-head" }, el("h2", {}, "Every table"), button("Refresh", refresh, { "aria-label": "Refresh the list of tables" })),
      listBox].filter(Boolean));
    call("/api/admin/variants").then((found) => {
      variants = found.variants;
      if (changes) openBox.replaceChildren(openForm());
      refresh();  // the stops' choice of games
    }, (error) => news.fail(error));
  },
  show() { refresh(); },
};
