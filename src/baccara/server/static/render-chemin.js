// The Chemin de Fer table from the state: the rail (each player's chips, the banker, the
// stakes, whose turn), the hands, the result and the news, the controls the server's
// `choices` ask for on my turn only (my own, sent privately, when it sends them), sitting
// down, the seed and the clock. Every amount shown goes through money().
import {
  actionLabel, PASS, WITH_AMOUNT, cheminPhaseLabel, covered, decisionTimeLeft, isSeated, myChoices, prompt, turnChoices,
} from "./chemin.js";
import { money } from "./money.js";
import { mostFor } from "./players.js";
import { domTools, layCards, renderPlayersHead, renderPlayersRail, renderSeatControls } from "./render.js";

const AMOUNT_LABELS = { open_bank: "Bank", stake: "Stake" };

/**
 * @param {Document} doc
 * @param {object} on  callbacks: act(action, amountText), sit(buyInText), leave(), sitOut(), seed(text)
 */
export function createCheminRenderer(doc, on) {
  const { $, el, setText } = domTools(doc);
  let controlsKey = "";

  function renderRail(state) {
    const c = state.chemin;
    renderPlayersRail(doc, "cdf-", state, c, (name) => [
      name === c.banker && el("span", "mark bank", c.bank ? `Bank ${money(c.bank)}` : "Sets the bank"),
      c.stakes[name] && el("span", "mark stake", `Stake ${money(c.stakes[name])}`),
      name === c.punter && el("span", "mark punter", "Punter"),
    ].filter(Boolean));
  }

  function renderHands(state) {
    const hand = state.chemin.hand;
    $("cdf-hands").classList.toggle("over", Boolean(hand?.over));
    $("cdf-hands").hidden = !hand;
    for (const [side, cards, name, total] of [
      ["punter", hand?.punterCards ?? [], hand?.punter, hand?.punterTotal],
      ["banker", hand?.bankerCards ?? [], hand?.banker, hand?.bankerTotal],
    ]) {
      layCards(doc, $(`cdf-${side}-cards`), cards);
      setText(`cdf-${side}-name`, name ?? "");
      setText(`cdf-${side}-total`, total === null || total === undefined ? "" : String(total));
    }
    setText("cdf-hand-note", hand?.over ? "Last coup" : "");
  }

  function renderResult(state) {
    const result = state.chemin.result, box = $("cdf-result");
    box.hidden = !result;
    box.replaceChildren(el("h3", "", "What just happened"), ...(result?.lines ?? []).map((line) => el("p", "", line)));
  }

  function renderNews(state) {
    const c = state.chemin, fresh = c.news.length - c.fresh.length;
    $("cdf-news").replaceChildren(...c.news.map((line, i) => el("li", i >= fresh ? "fresh" : "", line)).reverse());
  }

  /** My decisions: the server's choices on my turn, rebuilt only when they change. */
  function renderControls(state) {
    const c = state.chemin, choices = turnChoices(state);
    const key = choices.length ? `${c.phase}|${c.toAct}|${c.banker}|${c.bank}|${choices.join()}` : "";
    setText("cdf-prompt", prompt(state));
    setText("cdf-advice", c.advice ?? "");
    const form = $("cdf-controls");
    form.hidden = !myChoices(state).length;  // hidden too while my decision is on its way
    if (key === controlsKey) return;  // the same question: what I typed stays
    controlsKey = key;
    form.textContent = "";
    const withAmount = choices.filter((action) => WITH_AMOUNT.has(action));
    let input = null;
    if (withAmount.length) {
      const label = el("label", "amount", AMOUNT_LABELS[withAmount[0]] + " ");
      input = el("input");
      Object.assign(input, { id: "cdf-amount", inputMode: "decimal", autocomplete: "off", size: 9 });
      const most = mostFor(c, withAmount[0]);
      input.placeholder = withAmount[0] === "open_bank" ? `at least ${money(c.minimum)}` : `up to ${money(most ?? 0)}`;
      label.append(input);
      form.append(label);
    }
    for (const action of choices) {
      const button = el("button", WITH_AMOUNT.has(action) || action === "banco" ? "primary" : "", actionLabel(c, action));
      button.type = WITH_AMOUNT.has(action) ? "submit" : "button";
      button.dataset.action = action;
      button.addEventListener("click", (e) => { e.preventDefault(); on.act(action, input?.value ?? ""); });
      form.append(button);
    }
    if (choices.includes("stake")) {  // a punter may always pass
      const pass = el("button", "", "Pass");
      Object.assign(pass, { type: "button" });
      pass.dataset.action = PASS;
      pass.addEventListener("click", (e) => { e.preventDefault(); on.act(PASS, ""); });
      form.append(pass);
    }
    form.onsubmit = (e) => { e.preventDefault(); if (withAmount.length) on.act(withAmount[0], input.value); };
    (input ?? form.querySelector("button"))?.focus({ preventScroll: true });
  }

  function renderSeat(state) {
    const seated = isSeated(state), c = state.chemin;
    renderSeatControls(doc, "cdf-", state, c);
    $("cdf-seed").hidden = !(seated && c.phase === "shuffle");
  }

  function render(prev, next) {
    const c = next.chemin;
    if (!c) return;
    if (!renderPlayersHead(doc, "cdf-", prev, next, "chemin", cheminPhaseLabel(next))) return;
    setText("cdf-bank", c.bank ? money(c.bank) : "—");
    setText("cdf-banker", c.banker ? ` · ${c.bank ? "held" : "to be set"} by ${c.banker === next.me ? "you" : c.banker}` : "");
    setText("cdf-covered", Object.keys(c.stakes).length ? ` · covered ${money(covered(c))}` : "");
    renderRail(next);
    renderHands(next);
    renderResult(next);
    renderNews(next);
    renderControls(next);
    renderSeat(next);
  }

  /** The decision's clock, shown to all, at client time `now` in seconds. */
  function renderTimer(state, now) {
    const c = state.chemin;
    let width = 0, text = c?.phase === "shuffle" ? "shuffling" : "";
    if (c?.deadline && c.toAct) {
      const left = decisionTimeLeft(state, now);
      width = 100 * left / (c.clockSeconds || 1);
      text = `${c.toAct === state.me ? "You" : c.toAct}: ${left.toFixed(1)} s`;
    }
    $("cdf-timer-bar").style.width = Math.min(100, width) + "%";
    setText("cdf-timer-text", text);
  }

  $("cdf-sit").addEventListener("submit", (e) => { e.preventDefault(); on.sit($("cdf-buy-in").value); $("cdf-buy-in").value = ""; });
  $("cdf-leave").addEventListener("click", () => on.leave());
  $("cdf-away").addEventListener("click", () => on.sitOut());
  $("cdf-seed").addEventListener("submit", (e) => {
    e.preventDefault();
    on.seed($("cdf-client-seed").value);
    $("cdf-client-seed").value = "";
  });

  return { render, renderTimer };
}
