// The cashier: a deposit or a withdrawal for a player (the amount as money, "10.50",
// and the reference that books it once), and a player's statement for a period (every
// movement of the wallet, its net, a CSV to download). Only a role the server lets book
// sees the booking form; every role reads statements.
import { money } from "../money.js";
import { call, day, el, errorLine, field, newsLine, readOnly, when } from "./common.js";

const DEPOSIT = "/api/admin/cashier/deposit";
const WITHDRAWAL = "/api/admin/cashier/withdrawal";
const DAY = 86_400;

let ctx, news, statementBox, ask;

const movementsPath = (name) => `/api/admin/players/${encodeURIComponent(name)}/movements`;

function bookForm() {
  const player = field("Player", { name: "player", required: true, maxlength: 24, autocomplete: "off" });
  const amount = field("Amount", { name: "amount", required: true, maxlength: 30, inputmode: "decimal", placeholder: "10.50", autocomplete: "off" });
  const reference = field("Reference", { name: "reference", required: true, maxlength: 64, placeholder: "the slip's or the payment's", autocomplete: "off" });
  const kind = el("fieldset", { class: "kind" }, el("legend", {}, "Movement"),
    el("label", { class: "check" }, el("input", { type: "radio", name: "kind", value: "deposit", checked: true }), " Deposit"),
    el("label", { class: "check" }, el("input", { type: "radio", name: "kind", value: "withdrawal" }), " Withdrawal"));
  const form = el("form", { class: "book", "aria-label": "Book a deposit or a withdrawal" },
    el("div", { class: "fields" }, player.label, amount.label, reference.label), kind,
    el("button", { type: "submit", class: "primary" }, "Book it"));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const withdrawal = form.querySelector("input[name=kind]:checked").value === "withdrawal";
    try {
      const moved = await call(withdrawal ? WITHDRAWAL : DEPOSIT, {
        method: "POST", body: { player: player.input.value.trim(), amount: amount.input.value.trim(), reference: reference.input.value.trim() },
      });
      const again = moved.duplicate ? " (booked before under this reference: nothing more booked)" : "";
      news.ok(`${moved.kind === "deposit" ? "Deposit" : "Withdrawal"} of ${money(moved.amount)} for ${moved.player}, reference ${moved.reference}${again}. Wallet now ${money(moved.balance)}.`);
      amount.input.value = "";
      reference.input.value = "";
      ask.player.value = moved.player;
      await statement();
    } catch (error) { news.fail(error); }
  });
  return form;
}

function statementForm() {
  const now = Date.now() / 1000;
  const player = field("Player", { name: "statement-player", required: true, maxlength: 24, autocomplete: "off" });
  const from = field("From", { name: "from", type: "date", value: day(now - 30 * DAY) });
  const to = field("To (included)", { name: "to", type: "date", value: day(now) });
  ask = { player: player.input, from: from.input, to: to.input };
  const form = el("form", { class: "statement-form", role: "search", "aria-label": "A player's statement" },
    el("div", { class: "fields" }, player.label, from.label, to.label),
    el("button", { type: "submit" }, "Show the statement"));
  form.addEventListener("submit", (event) => { event.preventDefault(); statement(); });
  return form;
}

/** The query of the statement asked: the "to" day is included (the server's is excluded). */
function query(format) {
  const params = new URLSearchParams();
  if (ask.from.value) params.set("from", ask.from.value);
  if (ask.to.value) params.set("to", day(Date.parse(ask.to.value) / 1000 + DAY));
  if (format) params.set("format", format);
  return `${movementsPath(ask.player.value.trim())}?${params}`;
}

async function statement() {
  if (!ask.player.value.trim()) return;
  try {
    const found = await call(query());
    const rows = found.movements.map((m) => el("tr", {},
      el("td", { "data-label": "Time" }, when(m.time)),
      el("td", { "data-label": "What" }, m.what),
      el("td", { "data-label": "Memo" }, m.memo),
      el("td", { "data-label": "Table" }, m.table ?? ""),
      el("td", { "data-label": "Round" }, m.round ?? ""),
      el("td", { "data-label": "Amount", class: "num" }, money(m.amount))));
    const head = el("tr", {}, ["Time", "What", "Memo", "Table", "Round", "Amount"].map((h) => el("th", { scope: "col", class: h === "Amount" ? "num" : "" }, h)));
    statementBox.replaceChildren(
      el("h3", {}, `${found.player}: from ${when(found.start)} until ${when(found.end)}`),
      rows.length
        ? el("table", { class: "grid statement" }, el("caption", { class: "sr" }, `Movements of ${found.player}`), el("thead", {}, head), el("tbody", {}, rows))
        : el("p", {}, "No movement in this period."),
      el("p", { class: "net" }, `Net: ${money(found.net)}`, found.complete ? "" : " (more movements than listed: ask a shorter period)"),
      el("p", {}, el("a", { class: "csv", href: query("csv"), download: "" }, `Download ${found.player}'s statement as CSV`)));
  } catch (error) {
    statementBox.replaceChildren(el("p", { class: "news fail", role: "alert" }, `The statement: ${errorLine(error)}`));
  }
}

export default {
  id: "cashier",
  title: "Cashier",
  mount(root, given) {
    ctx = given;
    news = newsLine();
    statementBox = el("div", { class: "statement-box", "aria-live": "polite" });
    const books = ctx.may("POST", DEPOSIT) || ctx.may("POST", WITHDRAWAL);
    root.append(...[
      books ? el("p", { class: "lead" }, "Every deposit and withdrawal is booked in the ledger with its reference, once, and audited.") : readOnly(ctx, "statements"),
      news.node,
      books ? el("h2", {}, "Deposit or withdrawal") : null, books ? el("div", { class: "panel" }, bookForm()) : null,
      el("h2", {}, "A player's statement"), el("div", { class: "panel" }, statementForm()), statementBox].filter(Boolean));
  },
  show() {},
};
