// Alerts: the markers of harm a scan raised (`/api/admin/alerts`), each with its marker,
// its player or table, its day, the server's summary, its evidence (the rows that
// raised it, shown on demand) and whether it was acknowledged, by whom and when;
// acknowledge one (confirmed) and scan a period, for a role the server lets. A role the
// server does not let read them is told so.
import { money } from "../money.js";
import { button, call, confirmed, el, field, newsLine, when, day } from "./common.js";

const LIST = "/api/admin/alerts";
const ACK = "/api/admin/alerts/{alert_id}/acknowledge";
const SCAN = "/api/admin/alerts/scan";
const DAY = 86_400;
// the evidence's amounts (minor units) shown as money; the other fields as the server wrote them
const MONEY_KEYS = new Set(["amount", "returned", "lost", "staked", "staked_before", "next_amount", "lost_before", "loss_limit", "handle", "win", "theo", "sd", "house_win", "theoretical_win"]);

let ctx, news, listBox, ask;

const cell = (key, value) => {
  if (value === null || value === undefined) return "—";
  if (MONEY_KEYS.has(key) && Number.isInteger(value)) return money(value);
  if (MONEY_KEYS.has(key) && typeof value === "number") return money(Math.round(value));
  return typeof value === "object" ? JSON.stringify(value) : String(value);
};

function evidence(alert) {
  const rows = alert.evidence;
  const keys = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  return el("details", { class: "evidence" }, el("summary", { "aria-label": `Evidence of alert ${alert.id}: ${rows.length} row${rows.length === 1 ? "" : "s"}` },
    `Evidence (${rows.length} row${rows.length === 1 ? "" : "s"})`),
  el("table", { class: "grid evidence-rows" }, el("caption", { class: "sr" }, `The rows that raised alert ${alert.id}`),
    el("thead", {}, el("tr", {}, keys.map((k) => el("th", { scope: "col" }, k)))),
    el("tbody", {}, rows.map((row) => el("tr", {}, keys.map((k) => el("td", { "data-label": k }, cell(k, row[k]))))))));
}

function state(alert) {
  return alert.acknowledged_at === null
    ? el("span", { class: "open-alert" }, "Open: not acknowledged")
    : el("span", { class: "acknowledged" }, `Acknowledged by ${alert.acknowledged_by} at ${when(alert.acknowledged_at)}`);
}

async function acknowledge(alert) {
  if (!(await confirmed(`Acknowledge alert ${alert.id} (${alert.marker}, ${alert.subject}, ${alert.day})?`))) return;
  try {
    const done = await call(`/api/admin/alerts/${alert.id}/acknowledge`, { method: "POST", body: {} });
    news.ok(`Alert ${done.id} acknowledged by ${done.acknowledged_by}.`);
  } catch (error) { news.fail(error); }
  await load();
}

function render(answer) {
  const acks = ctx.may("POST", ACK);
  const rows = answer.alerts.map((a) => el("tr", { "data-alert": a.id, "data-marker": a.marker, "data-subject": a.subject },
    el("th", { scope: "row", "data-label": "Marker" }, a.marker.replaceAll("_", " ")),
    el("td", { "data-label": "Player or table" }, a.subject),
    el("td", { "data-label": "Day" }, a.day),
    el("td", { "data-label": "What" }, a.summary, evidence(a)),
    el("td", { "data-label": "State", class: "state" }, state(a)),
    acks ? el("td", { "data-label": "Actions" }, a.acknowledged_at === null
      ? button("Acknowledge", () => acknowledge(a), { "aria-label": `Acknowledge alert ${a.id}: ${a.marker}, ${a.subject}` }) : "") : null));
  const heads = ["Marker", "Player or table", "Day", "What", "State", ...(acks ? ["Actions"] : [])];
  listBox.replaceChildren(
    el("p", { class: "page-line" }, `${answer.alerts.length} alert${answer.alerts.length === 1 ? "" : "s"}, ${answer.first_day} to ${answer.last_day}, newest day first.`),
    rows.length
      ? el("table", { class: "grid alerts" }, el("caption", { class: "sr" }, "Alerts"),
        el("thead", {}, el("tr", {}, heads.map((h) => el("th", { scope: "col" }, h)))), el("tbody", {}, rows))
      : el("p", {}, "No alert in this period."));
}

function query() {
  const params = new URLSearchParams();
  if (ask.from.value) params.set("from", ask.from.value);
  if (ask.to.value) params.set("to", ask.to.value);
  if (ask.open.checked) params.set("open", "true");
  return params.toString();
}

async function load() {
  try { render(await call(`${LIST}?${query()}`)); } catch (error) { news.fail(error); }
}

async function scan() {
  if (!ask.from.value || !ask.to.value) { news.ok("Give the first and last days to scan."); return; }
  try {
    // the scan's end is excluded: the day after the last one asked
    const end = day(Date.parse(ask.to.value) / 1000 + DAY);
    const done = await call(SCAN, { method: "POST", body: { start: ask.from.value, end } });
    news.ok(`Scanned ${done.days} day${done.days === 1 ? "" : "s"}: ${done.raised.length} new alert${done.raised.length === 1 ? "" : "s"}.`);
  } catch (error) { news.fail(error); }
  await load();
}

function form() {
  const now = Date.now() / 1000;
  const from = field("From", { name: "alerts-from", type: "date", value: day(now - 29 * DAY) });
  const to = field("To (included)", { name: "alerts-to", type: "date", value: day(now) });
  const open = el("input", { type: "checkbox", name: "alerts-open", id: "alerts-open" });
  ask = { from: from.input, to: to.input, open };
  const made = el("form", { class: "alerts-form", role: "search", "aria-label": "The alerts' period" },
    el("div", { class: "fields" }, from.label, to.label, el("label", { class: "check", for: "alerts-open" }, open, " Open ones only")),
    el("div", { class: "row" }, el("button", { type: "submit" }, "Show the alerts"),
      ctx.may("POST", SCAN) ? button("Scan these days", scan) : null));
  made.addEventListener("submit", (event) => { event.preventDefault(); load(); });
  return made;
}

export default {
  id: "alerts",
  title: "Alerts",
  mount(root, given) {
    ctx = given;
    news = newsLine();
    listBox = el("div", { class: "alerts-box", "aria-live": "polite" });
    if (!ctx.may("GET", LIST)) {
      root.append(el("p", { class: "read-only" }, `Your role (${ctx.role}) may not read the alerts.`));
      return;
    }
    root.append(el("p", { class: "lead" }, "Markers of harm a scan raised from what the database holds, one per marker, player or table, and day."),
      news.node, el("div", { class: "panel" }, form()), listBox);
  },
  show() { return listBox.isConnected && ask ? load() : undefined; },
};
