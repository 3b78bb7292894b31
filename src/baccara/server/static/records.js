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
/** The limits in words. */
export function limitsText(l) {
  const parts = [l.loss_limit === null ? "No daily loss limit." : `Daily loss limit ${money(l.loss_limit)}.`];
  if (l.next_from) {
    const next = l.next_loss_limit === null ? "no limit" : money(l.next_loss_limit);
    parts.push(`From ${new Date(l.next_from * 1000).toLocaleString()}: ${next}.`);
  }
  if (l.reminder_minutes) parts.push(`A reminder every ${l.reminder_minutes} minutes.`);
  return parts.join(" ");
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

export async function showLimits() {
  const l = await api("/api/me/limits");
  options($("reminder"), l.choices.reminder_minutes, (m) => `${m} minutes`, "— never");
  options($("exclusion-days"), l.choices.exclusion_days, (d) => (d === 1 ? "1 day" : `${d} days`));
  $("loss-hint").textContent = `A lower limit applies at once; a higher one, or none, ${l.choices.raise_after_hours} hours after you ask.`;
  $("play-status").textContent = limitsText(l);
  $("reminder").value = l.reminder_minutes === null ? "" : String(l.reminder_minutes);
  return l;
}

export async function setLimits(body) {
  const l = await api("/api/me/limits", body);
  $("play-status").textContent = limitsText(l);
  return l;
}

