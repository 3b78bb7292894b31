// The audit log (`/api/admin/audit`): a page of entries at a time, the newest page first
// and each page newest first (the server pages from the oldest, past an entry's id: the
// page finds the last id and reads the page before it), each entry with who, in which
// role, what to what, when, and the value before and after; filters narrow the page shown.
import { call, el, field, newsLine, when } from "./common.js";

const PAGE = 50;
const WALK = 500;  // the server's largest page, to find the last entry

let news, listBox, filters, pageLine, pager, verdictLine;
let after = 0;  // the page shown: the entries past this id
let lastKnown = 0;  // the last entry's id, as last read
let page = { entries: [], next_after: null };

const json = (value) => (value === null || value === undefined ? "—" : JSON.stringify(value, null, 1));

function matches(entry) {
  const has = (text, wanted) => !wanted || String(text ?? "").toLowerCase().includes(wanted.toLowerCase());
  return has(entry.actor, filters.actor.value.trim()) && has(entry.action, filters.action.value.trim())
    && has(entry.target, filters.target.value.trim());
}

function render() {
  const shown = page.entries.filter(matches).reverse();
  const head = el("tr", {}, ["#", "When", "Who", "Did", "To", "Before → after"].map((h) => el("th", { scope: "col" }, h)));
  const rows = shown.map((e) => el("tr", { "data-action": e.action },
    el("td", { "data-label": "#" }, String(e.id)),
    el("td", { "data-label": "When" }, when(e.at)),
    el("td", { "data-label": "Who" }, `${e.actor}${e.role ? ` (${e.role})` : " (command line)"}`),
    el("td", { "data-label": "Did", class: "action" }, e.action),
    el("td", { "data-label": "To" }, e.target),
    el("td", { "data-label": "Change" }, el("details", {}, el("summary", {}, "before → after"),
      el("div", { class: "change" }, el("pre", { "aria-label": "before" }, json(e.before)), el("pre", { "aria-label": "after" }, json(e.after))),
      el("p", { class: "hash" }, `hash ${e.hash.slice(0, 16)}…, after ${e.prev_hash.slice(0, 16)}…`)))));
  listBox.replaceChildren(shown.length
    ? el("table", { class: "grid audit" }, el("caption", { class: "sr" }, "Audit log entries"), el("thead", {}, head), el("tbody", {}, rows))
    : el("p", {}, page.entries.length ? "No entry on this page matches the filters." : "No entry."));
  const first = page.entries[0]?.id, last = page.entries.at(-1)?.id;
  pageLine.textContent = page.entries.length ? `Entries ${last} to ${first}, newest first${shown.length < page.entries.length ? ` (${shown.length} match)` : ""}.` : "";
  pager.oldest.disabled = pager.older.disabled = after === 0;
  pager.newer.disabled = page.next_after === null && (page.entries.at(-1)?.id ?? 0) >= lastKnown;
}

async function load(from, limit = PAGE) {
  try {
    page = await call(`/api/admin/audit?after=${from}&limit=${limit}`);
    after = from;
    lastKnown = Math.max(lastKnown, page.entries.at(-1)?.id ?? 0);
    render();
  } catch (error) { news.fail(error); }
}

/** The last entry's id: read on from the last one known, the server's largest pages. */
async function lastId() {
  for (;;) {
    const found = await call(`/api/admin/audit?after=${lastKnown}&limit=${WALK}`);
    lastKnown = found.entries.at(-1)?.id ?? lastKnown;
    if (found.next_after === null) return lastKnown;
  }
}

async function go(where) {
  try {
    // The entries are numbered in order: a page is the entries past an id. The newest
    // is the PAGE before the last; an older one the PAGE numbers before the one shown
    // (a number a failed write skipped only makes a page shorter).
    if (where === "newest") await load(Math.max(0, (await lastId()) - PAGE));
    else if (where === "older") {
      const from = Math.max(0, after - PAGE);
      await load(from, Math.max(1, after - from));
    } else if (where === "newer") await load(page.entries.at(-1)?.id ?? after);
    else await load(0);
  } catch (error) { news.fail(error); }
}

/** Walk the chain on the server (`/api/admin/audit/verify`) and say what it found. */
async function check() {
  verdictLine.textContent = "Checking the chain…";
  try {
    const found = await call("/api/admin/audit/verify");
    verdictLine.dataset.whole = String(found.whole);
    verdictLine.textContent = found.whole
      ? `The chain holds: ${found.count} entries, each following the one before it.`
      : `The chain is broken at entry ${found.broken}: ${found.reason} (${found.count} entries read).`;
  } catch (error) { verdictLine.textContent = ""; news.fail(error); }
}

export default {
  id: "audit",
  title: "Audit log",
  mount(root) {
    news = newsLine();
    listBox = el("div", { class: "scroll" });
    pageLine = el("p", { class: "page-line", "aria-live": "polite" });
    const made = {
      actor: field("Who", { name: "actor", type: "search", autocomplete: "off" }),
      action: field("Action", { name: "action", type: "search", autocomplete: "off", placeholder: "table.pause" }),
      target: field("To", { name: "target", type: "search", autocomplete: "off" }),
    };
    filters = Object.fromEntries(Object.entries(made).map(([k, v]) => [k, v.input]));
    for (const input of Object.values(filters)) input.addEventListener("input", render);
    const nav = (text, where) => el("button", { type: "button", onclick: () => go(where) }, text);
    pager = { newest: nav("Newest", "newest"), newer: nav("Newer", "newer"), older: nav("Older", "older"), oldest: nav("Oldest", "oldest") };
    verdictLine = el("p", { class: "verdict", role: "status" });
    root.append(
      el("p", { class: "lead" }, "Every staff action, chained by hashes; the database refuses to change it."),
      news.node,
      el("div", { class: "row" }, el("button", { type: "button", onclick: check }, "Check the chain"), verdictLine),
      el("form", { class: "fields filters", role: "search", "aria-label": "Filter the entries", onsubmit: (e) => e.preventDefault() },
        made.actor.label, made.action.label, made.target.label),
      el("nav", { class: "row pager", "aria-label": "Audit log pages" }, pager.newest, pager.newer, pager.older, pager.oldest),
      pageLine, listBox);
  },
  show() { go("newest"); },
};
