// "My records": the player's own movements, last rounds step by step, this session's win
// or loss and their tables' shoe records (GET /api/me/records). Amounts come in minor
// units and are shown by the one money formatter.
import { api } from "./protocol.js";
import { coupText } from "./cards.js";
import { money } from "./money.js";

const $ = (id) => document.getElementById(id);

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

const when = (seconds) => new Date(seconds * 1000).toLocaleString();
const signed = (cents) => (cents > 0 ? "+" : cents < 0 ? "−" : "") + money(Math.abs(cents));

function roundItem(r) {
  const item = el("details", "my-round");
  const staked = r.bets.reduce((sum, b) => sum + b.amount, 0);
  const back = r.bets.reduce((sum, b) => sum + (b.returned ?? 0), 0);
  const settled = r.bets.every((b) => b.returned !== null);
  item.append(el("summary", "", `Table ${r.table}, round ${r.round}: ${r.coup ? coupText(r.coup) : "not dealt yet"} · staked ${money(staked)}`
    + (settled ? ` · back ${money(back)} (${signed(back - staked)})` : " · in play")));
  const bets = el("ul", "my-bets");
  for (const b of r.bets) {
    bets.append(el("li", "", `${b.label} ${money(b.amount)}: ` + (b.returned === null ? b.status : `${money(b.returned)} back`)));
  }
  const steps = el("ol", "my-steps");
  for (const s of r.steps) steps.append(el("li", "", s.words + (s.reason ? ` (${s.reason})` : "")));
  item.append(bets, steps);
  return item;
}

/** Load and draw the records; `before` pages the movements back. */
export async function showRecords(before = "") {
  const data = await api("/api/me/records" + (before ? `?before=${before}` : ""));
  const s = data.session;
  $("my-session").textContent = `This session (since ${when(s.since)}): ${s.bets} bet${s.bets === 1 ? "" : "s"}, `
    + `staked ${money(s.staked)}, back ${money(s.returned)}: `
    + (s.net === 0 ? "even." : `${s.net > 0 ? "won" : "lost"} ${money(Math.abs(s.net))}.`);
  $("my-rounds").replaceChildren(...(data.rounds.length ? data.rounds.map(roundItem) : [el("p", "hint", "No bets yet.")]));
  const rows = data.movements.map((m) => {
    const row = el("tr");
    row.append(el("td", "", when(m.time)), el("td", "", m.what), el("td", "", m.table ? `${m.table} #${m.round}` : "—"),
      el("td", "num", signed(m.amount)));
    return row;
  });
  if (before) $("my-moves").append(...rows); else $("my-moves").replaceChildren(...rows);
  const older = $("my-older");
  older.hidden = data.movements.length < 50;
  older.dataset.before = data.movements.at(-1)?.id ?? "";
  $("my-shoes").replaceChildren(...data.shoes.map((s) => {
    const link = el("a", "", `Table ${s.table}: its finished shoes (JSON, for baccara verify)`);
    link.href = s.url;
    link.download = `${s.table}-shoes.json`;
    const item = el("li");
    item.append(link);
    return item;
  }));
}

// -- responsible play -------------------------------------------------------------------------------
/** One limit over a period in words, and its raise or removal pending: "7-day loss limit
 * 300.00 (from 01/12/2026, 10:00:00: no limit)." Nothing when there is none. */
export function periodText(name, p, at = when) {
  if (p.amount === null && p.next_from === null) return "";
  const now = p.amount === null ? `No ${name} limit` : `${name[0].toUpperCase()}${name.slice(1)} limit ${money(p.amount)}`;
  if (p.next_from === null) return `${now}.`;
  return `${now} (from ${at(p.next_from)}: ${p.next_amount === null ? "no limit" : money(p.next_amount)}).`;
}

/** The limits in words (the loss limits, the deposit limits if given, the reminder). */
export function limitsText(l, deposits = null, at = when) {
  const parts = [l.loss_limit === null ? "No daily loss limit." : `Daily loss limit ${money(l.loss_limit)}.`];
  if (l.next_from) {
    const next = l.next_loss_limit === null ? "no limit" : money(l.next_loss_limit);
    parts.push(`From ${at(l.next_from)}: ${next}.`);
  }
  if (l.loss_week) parts.push(periodText("7-day loss", l.loss_week, at), periodText("30-day loss", l.loss_month, at));
  if (deposits) {
    for (const [key, name] of [["day", "24-hour deposit"], ["week", "7-day deposit"], ["month", "30-day deposit"]]) {
      parts.push(periodText(name, deposits[key], at));
    }
  }
  if (l.reminder_minutes) parts.push(`A reminder every ${l.reminder_minutes} minutes.`);
  return parts.filter(Boolean).join(" ");
}

/** The choices the server takes (`choices`), as the selects' options. */
function options(select, values, words, none) {
  const list = values.map((value) => {
    const option = el("option", "", words(value));
    option.value = String(value);
    return option;
  });
  if (none) { const option = el("option", "", none); option.value = ""; list.unshift(option); }
  select.replaceChildren(...list);
}

let deposits = null;  // the player's deposit limits, as last read

/** Where each limit of the "more limits" form is set: its address, method and field. */
export const PERIOD_LIMITS = {
  loss_week: ["/api/me/limits", "POST", "loss_limit_week"],
  loss_month: ["/api/me/limits", "POST", "loss_limit_month"],
  deposit_day: ["/api/me/deposit-limits", "PUT", "day"],
  deposit_week: ["/api/me/deposit-limits", "PUT", "week"],
  deposit_month: ["/api/me/deposit-limits", "PUT", "month"],
};

/** Set one limit over a period (`PERIOD_LIMITS`) to ``typed`` (null: none). */
export async function setPeriodLimit(which, typed) {
  const [path, method, field] = PERIOD_LIMITS[which];
  const answer = await api(path, { [field]: typed }, globalThis.fetch, method);
  if (method === "PUT") deposits = answer;
  const l = method === "PUT" ? await api("/api/me/limits") : answer;
  $("play-status").textContent = limitsText(l, deposits);
  return l;
}

export async function showLimits() {
  deposits = await api("/api/me/deposit-limits");
  const l = await api("/api/me/limits");
  options($("reminder"), l.choices.reminder_minutes, (m) => `${m} minutes`, "— never");
  options($("exclusion-days"), l.choices.exclusion_days, (d) => (d === 1 ? "1 day" : `${d} days`));
  $("loss-hint").textContent = `A lower limit applies at once; a higher one, or none, ${l.choices.raise_after_hours} hours after you ask.`;
  $("play-status").textContent = limitsText(l, deposits);
  $("reminder").value = l.reminder_minutes === null ? "" : String(l.reminder_minutes);
  return l;
}

export async function setLimits(body) {
  const l = await api("/api/me/limits", body);
  $("play-status").textContent = limitsText(l, deposits);
  return l;
}

