// Reports: hold against theory (`/api/admin/reports/hold`, by table, game, bet kind,
// stake band, shoe or day, over a period, for one table or all), the plot of actual
// against theoretical over time (`.../hold/series`, drawn here as an inline SVG with a
// table of its figures beside it), the return to player at every stake
// (`/api/admin/reports/rtp`) and the rounds that did not settle as dealt
// (`/api/admin/reports/interrupted`); each with its CSV and JSON. Every figure is the
// server's: the page formats, it computes nothing but the plot's scale.
import { money } from "../money.js";
import { call, choice, day, el, errorLine, field, NO_ROUTE } from "./common.js";

const DAY = 86_400;
const Z_ALARM = 4;  // the operator's guide: a z past 4 either way is not luck
const GROUPS = [["table", "Table"], ["game", "Game"], ["kind", "Bet kind"], ["band", "Stake band"], ["shoe", "Shoe"], ["day", "Day"]];
const SVG = "http://www.w3.org/2000/svg";

let ask, holdBox, plotBox, rtpBox, gapBox;

/** An expectation in minor units (it has decimals) as money, to the cent. */
const cents = (value) => money(Math.round(value));
/** A share (0.0106) as a percentage ("1.06%"); "—" when there is none. */
const percent = (share, places = 2) => (share === null ? "—" : `${(share * 100).toFixed(places)}%`);

function query(extra = {}) {
  const params = new URLSearchParams();
  if (ask.from.value) params.set("from", ask.from.value);
  if (ask.to.value) params.set("to", ask.to.value);
  if (ask.table.value.trim()) params.set("table", ask.table.value.trim());
  for (const [key, value] of Object.entries(extra)) params.set(key, value);
  return params.toString();
}

/** A group's key as a person reads it: a stake band's floor as money, a shoe's number. */
function keyText(by, key) {
  if (by === "band" && /^\d+$/.test(key)) return `from ${money(Number(key))}`;
  if (by === "shoe" && key === "0") return "no shoe";
  return key;
}

/** The z-score, in words when it is past the alarm (not by colour alone). */
function zCell(z) {
  if (z === null) return el("td", { "data-label": "z", class: "num" }, "—");
  const far = Math.abs(z) >= Z_ALARM;
  return el("td", { "data-label": "z", class: far ? "num z-alarm" : "num" }, z.toFixed(2),
    far ? el("strong", {}, ` beyond ${Z_ALARM} SD: not luck, check the table and its pays`) : "");
}

function downloads(path, what, formats = ["csv", "json"]) {
  return el("p", { class: "downloads" }, ...formats.flatMap((format, i) => [i ? " · " : "",
    el("a", { href: `${path}?${query(format === "csv" ? { ...what, format } : what)}`, download: "", class: `dl-${format}` },
      `Download as ${format.toUpperCase()}`)]));
}

function holdTable(report) {
  const by = report.by, label = GROUPS.find(([value]) => value === by)?.[1] ?? by;
  const heads = [label, "Rounds", "Bets", "Handle", "House win", "Hold", "Theoretical win", "Theoretical hold", "SD", "z"];
  const line = (row, total) => el("tr", { "data-key": row.key, class: total ? "total-row" : null },
    el("th", { scope: "row", "data-label": label }, total ? "Total" : keyText(by, row.key)),
    el("td", { "data-label": "Rounds", class: "num" }, String(row.rounds)),
    el("td", { "data-label": "Bets", class: "num" }, String(row.bets)),
    el("td", { "data-label": "Handle", class: "num" }, money(row.handle)),
    el("td", { "data-label": "House win", class: "num" }, money(row.win)),
    el("td", { "data-label": "Hold", class: "num" }, percent(row.hold)),
    el("td", { "data-label": "Theoretical win", class: "num" }, cents(row.theo)),
    el("td", { "data-label": "Theoretical hold", class: "num" }, percent(row.theo_hold)),
    el("td", { "data-label": "SD", class: "num" }, cents(row.sd)),
    zCell(row.z));
  const where = report.table ? `table ${report.table}` : "every table";
  return [
    el("h3", {}, `By ${label.toLowerCase()}: ${where}, ${report.start} to ${report.end}`),
    report.rows.length
      ? el("table", { class: "grid hold", "data-by": by }, el("caption", { class: "sr" }, `Hold against theory by ${label.toLowerCase()}`),
        el("thead", {}, el("tr", {}, heads.map((h, i) => el("th", { scope: "col", class: i ? "num" : "" }, h)))),
        el("tbody", {}, report.rows.map((row) => line(row, false))),
        el("tfoot", {}, line(report.total, true)))
      : el("p", {}, "No settled bet in this period."),
    downloads("/api/admin/reports/hold", { by }),
  ];
}

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, String(value));
  node.append(...children);
  return node;
}

/** The plot: the cumulative win and its theory at the end of each day with settled bets,
 * from nothing at the period's start, with theory +- 2 SD as a band; time runs left to right. */
function plot(series) {
  const points = series.points;
  if (!points.length) return [el("p", {}, "No settled bet in this period: nothing to plot.")];
  const W = 640, H = 280, L = 70, R = 16, T = 14, B = 40;
  const first = Date.parse(series.start), span = (Date.parse(series.end) - first) / (DAY * 1000) + 1;
  const at = (p) => (Date.parse(p.day) - first) / (DAY * 1000) + 1;  // the day's end, in days from the start
  const start = { day: series.start, cumulative_win: 0, cumulative_theo: 0, cumulative_sd: 0 };
  const line = [start, ...points];
  const values = points.flatMap((p) => [p.cumulative_win, p.cumulative_theo + 2 * p.cumulative_sd, p.cumulative_theo - 2 * p.cumulative_sd]);
  let low = Math.min(0, ...values), high = Math.max(0, ...values);
  if (high === low) high = low + 100;
  const x = (p) => L + ((p === start ? 0 : at(p)) * (W - L - R)) / span;
  const y = (v) => T + ((high - v) * (H - T - B)) / (high - low);
  const xy = (p, v) => `${x(p).toFixed(1)},${y(v).toFixed(1)}`;
  const path = (key) => line.map((p) => xy(p, p[key])).join(" ");
  const band = [...line.map((p) => xy(p, p.cumulative_theo + 2 * p.cumulative_sd)),
    ...line.map((p) => xy(p, p.cumulative_theo - 2 * p.cumulative_sd)).reverse()].join(" ");
  const last = points.at(-1);
  const title = `House win against theory, ${series.start} to ${series.end}`;
  const desc = `${points.length} day${points.length === 1 ? "" : "s"} with settled bets. By the end of ${last.day} the house had won ${money(last.cumulative_win)} in all, `
    + `against a theoretical ${cents(last.cumulative_theo)} (standard deviation ${cents(last.cumulative_sd)}). The figures are in the table below.`;
  const ticks = [high, 0, low].filter((v, i, all) => all.indexOf(v) === i).map((v) => svg("g", { class: "tick" },
    svg("line", { x1: L - 4, x2: W - R, y1: y(v), y2: y(v) }),
    svg("text", { x: L - 6, y: y(v) + 4, "text-anchor": "end" }, cents(v))));
  const days = [svg("text", { x: L, y: H - B + 18, "text-anchor": "start" }, series.start),
    svg("text", { x: W - R, y: H - B + 18, "text-anchor": "end" }, series.end)];
  const chart = svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-labelledby": "plot-title plot-desc", class: "plot" },
    svg("title", { id: "plot-title" }, title), svg("desc", { id: "plot-desc" }, desc),
    ...ticks, svg("line", { class: "zero", x1: L, x2: W - R, y1: y(0), y2: y(0) }),
    svg("polygon", { class: "band", points: band }),
    svg("polyline", { class: "theory", points: path("cumulative_theo") }),
    svg("polyline", { class: "actual", points: path("cumulative_win") }),
    svg("g", { class: "actual-points" }, ...points.map((p) => svg("circle", { cx: x(p), cy: y(p.cumulative_win), r: 4 },
      svg("title", {}, `${p.day}: won ${money(p.cumulative_win)}, theory ${cents(p.cumulative_theo)}`)))),
    ...days);
  const key = el("p", { class: "plot-key" }, el("span", { class: "key-actual" }, "● solid line: the house's win"), " ",
    el("span", { class: "key-theory" }, "– – dashed: theory"), " ", el("span", { class: "key-band" }, "▮ shaded: theory ± 2 SD"));
  const rows = points.map((p) => el("tr", {},
    el("th", { scope: "row", "data-label": "Day" }, p.day),
    el("td", { "data-label": "Win that day", class: "num" }, money(p.win)),
    el("td", { "data-label": "Theory that day", class: "num" }, cents(p.theo)),
    el("td", { "data-label": "Win so far", class: "num" }, money(p.cumulative_win)),
    el("td", { "data-label": "Theory so far", class: "num" }, cents(p.cumulative_theo)),
    el("td", { "data-label": "SD so far", class: "num" }, cents(p.cumulative_sd))));
  return [el("figure", { class: "plot-box" }, chart, el("figcaption", {}, key)),
    el("details", { class: "plot-data" }, el("summary", {}, "The plot's figures as a table"),
      el("table", { class: "grid series" }, el("caption", { class: "sr" }, title),
        el("thead", {}, el("tr", {}, ["Day", "Win that day", "Theory that day", "Win so far", "Theory so far", "SD so far"].map((h, i) => el("th", { scope: "col", class: i ? "num" : "" }, h)))),
        el("tbody", {}, rows))),
    downloads("/api/admin/reports/hold/series", {}, ["json"])];
}

function rtpTables(report) {
  const rows = report.rows.map((r) => el("tr", {},
    el("th", { scope: "row", "data-label": "Game and bet" }, `${r.game}: ${r.kind}`),
    el("td", { "data-label": "Stakes", class: "num" }, `from ${money(r.band)}`),
    el("td", { "data-label": "Bets", class: "num" }, String(r.bets)),
    el("td", { "data-label": "Handle", class: "num" }, money(r.handle)),
    el("td", { "data-label": "Paid back", class: "num" }, money(r.returned)),
    el("td", { "data-label": "RTP", class: "num" }, percent(r.rtp)),
    el("td", { "data-label": "In theory", class: "num" }, percent(r.theo_rtp))));
  const bets = [...new Set(report.stakes.map((s) => `${s.game}: ${s.kind}`))];
  const levels = [...new Set(report.stakes.map((s) => s.stake))].sort((a, b) => a - b);
  const stakes = levels.map((stake) => el("tr", {},
    el("th", { scope: "row", "data-label": "Stake" }, money(stake)),
    bets.map((bet) => {
      const found = report.stakes.find((s) => s.stake === stake && `${s.game}: ${s.kind}` === bet);
      return el("td", { "data-label": bet, class: "num" }, found ? percent(found.rtp, 3) : "—");
    })));
  const head = (names) => el("thead", {}, el("tr", {}, names.map((h, i) => el("th", { scope: "col", class: i ? "num" : "" }, h))));
  return [
    rows.length
      ? el("table", { class: "grid rtp" }, el("caption", { class: "sr" }, "Return to player by stake band"),
        head(["Game and bet", "Stakes", "Bets", "Handle", "Paid back", "RTP", "In theory"]), el("tbody", {}, rows))
      : el("p", {}, "No settled bet in this period."),
    stakes.length ? el("h3", {}, "In theory from a full shoe, at each stake (the commission rounds down to the cent)") : "",
    stakes.length ? el("table", { class: "grid stakes" }, el("caption", { class: "sr" }, "Return to player at each stake, from a full shoe"),
      head(["Stake", ...bets]), el("tbody", {}, stakes)) : "",
    downloads("/api/admin/reports/rtp", {}),
  ];
}

const RESOLVED = { voided: "voided (no bet on it)", refunded: "voided, every bet refunded", settled_after_restart: "dealt and settled after the restart" };

function interruptedTable(report) {
  const rows = report.rounds.map((r) => el("tr", {},
    el("th", { scope: "row", "data-label": "Round" }, `${r.table} #${r.number}`),
    el("td", { "data-label": "Day" }, r.day ?? "—"),
    el("td", { "data-label": "How it ended" }, RESOLVED[r.resolution] ?? r.resolution),
    el("td", { "data-label": "Why" }, r.reason),
    el("td", { "data-label": "Bets", class: "num" }, String(r.bets)),
    el("td", { "data-label": "Handle", class: "num" }, money(r.handle))));
  return [
    rows.length
      ? el("table", { class: "grid interrupted" }, el("caption", { class: "sr" }, "Voided and interrupted rounds"),
        el("thead", {}, el("tr", {}, ["Round", "Day", "How it ended", "Why", "Bets", "Handle"].map((h) => el("th", { scope: "col", class: ["Bets", "Handle"].includes(h) ? "num" : "" }, h)))),
        el("tbody", {}, rows))
      : el("p", {}, "No round was voided or interrupted in this period."),
    downloads("/api/admin/reports/interrupted", {}),
  ];
}

async function fill(box, path, draw) {
  try {
    box.replaceChildren(...draw(await call(`${path}?${query(path.endsWith("/hold") ? { by: ask.by.value } : {})}`)));
  } catch (error) {
    box.replaceChildren(el("p", { class: error.code === NO_ROUTE ? "unavailable" : "news fail", role: error.code === NO_ROUTE ? null : "alert" },
      error.code === NO_ROUTE ? "Hold reports are not available on this server." : errorLine(error)));
  }
}

async function load() {
  await Promise.all([
    fill(holdBox, "/api/admin/reports/hold", holdTable),
    fill(plotBox, "/api/admin/reports/hold/series", plot),
    fill(rtpBox, "/api/admin/reports/rtp", rtpTables),
    fill(gapBox, "/api/admin/reports/interrupted", interruptedTable),
  ]);
}

function form() {
  const now = Date.now() / 1000;
  const by = choice("Group by", GROUPS, { name: "by" });
  const from = field("From", { name: "report-from", type: "date", value: day(now - 29 * DAY) });
  const to = field("To (included)", { name: "report-to", type: "date", value: day(now) });
  const table = field("Table", { name: "report-table", maxlength: 64, placeholder: "every table", autocomplete: "off", size: 12 });
  ask = { by: by.select, from: from.input, to: to.input, table: table.input };
  by.select.addEventListener("change", () => fill(holdBox, "/api/admin/reports/hold", holdTable));
  const made = el("form", { class: "report-form", role: "search", "aria-label": "The reports' period and table" },
    el("div", { class: "fields" }, by.label, from.label, to.label, table.label), el("button", { type: "submit" }, "Show the reports"));
  made.addEventListener("submit", (event) => { event.preventDefault(); load(); });
  return made;
}

export default {
  id: "reports",
  title: "Reports",
  mount(root) {
    const box = () => el("div", { class: "report-box", "aria-live": "polite" }, "Loading…");
    holdBox = box(); plotBox = box(); rtpBox = box(); gapBox = box();
    root.append(
      el("p", { class: "lead" }, "The house's win against the exact theory of every bet, priced from the cards left in its shoe; UTC days."),
      el("div", { class: "panel" }, form()),
      el("h2", {}, "Hold against theory"), holdBox,
      el("h2", {}, "Actual against theoretical, over time"), plotBox,
      el("h2", {}, "Return to player at every stake"), rtpBox,
      el("h2", {}, "Voided and interrupted rounds"), gapBox);
  },
  show() { return load(); },
};
