// The Baccarat Banque table from the state: the bank and its banker, the auction (the best
// bid and its bidder, every bid, my bid prefilled with the least that beats the best), the
// three hands (backs for the cards face down, mine face up), each tableau's stakes and who
// plays it, the result, the rail (each player's chips and marks), my controls (the server's
// `choices` on my turn, my own where it sends them privately, retiring when it allows it), the news, this shoe's coups
// with their decisions, sitting down, the seed and the clock. Every amount goes through money().
import {
  HANDS, HAND_NAMES, OUTCOMES, TABLEAUX, actionLabel, banquePhaseLabel, bestBid, bidsInOrder, canBid, covered,
  decisionTimeLeft, isSeated, mayRetire, myChoices, open, prompt, stakesByName, turnChoices,
} from "./banque.js";
import { money, parseMoney } from "./money.js";
import { cardText } from "./cards.js";
import { domTools, layCards, renderPlayersHead, renderPlayersRail, renderSeatControls } from "./render.js";

const AMOUNT_ACTIONS = new Set(["stake"]);  // decisions typed with an amount (a bid has its own box)

/** A coup as the shoe's record holds it ("L:5s,Js R:Ah,Kh,Kc B:Ac,2c") as its three hands. */
export function handsOfNotation(notation) {
  const hands = { L: [], R: [], B: [] };
  for (const part of String(notation ?? "").split(" ")) {
    const [key, cards] = part.split(":");
    if (key in hands && cards) hands[key] = cards.split(",");
  }
  return hands;
}

/** A coup's decisions in words: "ann stands on 5 (left) · bob draws on 3 (bank)". */
export function decisionsText(coup, names) {
  return (coup.decisions ?? []).map((d) => {
    const who = names[d.seat] ?? `seat ${d.seat + 1}`;
    const hand = d.hand === "B" ? "bank" : HAND_NAMES[d.hand]?.toLowerCase() ?? d.hand;
    return `${who} ${d.draws ? "draws" : "stands"} on ${d.total} (${hand})`;
  }).join(" · ");
}

/**
 * @param {Document} doc
 * @param {object} on  callbacks: act(action, amountText, tableau), sit(buyInText), leave(), seed(text)
 */
export function createBanqueRenderer(doc, on) {
  const { $, el, setText } = domTools(doc);
  const who = (state, name) => (name === state.me ? "you" : name);
  let controlsKey = "", prefilled = null, tableau = "L";

  function renderBankLine(state) {
    const b = state.banque;
    $("bq-bank-line").hidden = !b.banker;  // at the auction, its box says where the bank goes
    setText("bq-bank", b.bank ? money(b.bank) : "—");
    setText("bq-banker", b.banker ? ` · held by ${who(state, b.banker)}` : "");
    setText("bq-covered", covered(b) ? ` · covered ${money(covered(b))}, open ${money(open(b))}` : "");
  }

  function renderAuction(state) {
    const b = state.banque, auction = b.phase === "auction";
    $("bq-auction").hidden = !auction;
    if (!auction) { prefilled = null; return; }
    const best = bestBid(b);
    setText("bq-best", best
      ? `Best bid ${money(best.amount)} by ${who(state, best.name)}`
      : `No bid yet: the least is ${money(b.nextBid ?? b.minimum)}`);
    $("bq-bids").replaceChildren(...bidsInOrder(b).map(({ name, amount }, i) => {
      const li = el("li", (i === 0 ? "best" : "") + (name === state.me ? " mine" : ""));
      li.dataset.name = name;
      li.append(el("span", "pname", name === state.me ? `${name} (you)` : name), " ", el("span", "amount", money(amount)));
      return li;
    }));
    $("bq-bid-form").hidden = !canBid(state);
    setText("bq-bid-button", actionLabel(b, "bid"));
    const input = $("bq-bid");
    if (b.nextBid !== null && b.nextBid !== prefilled) {  // the least that beats the best, unless I typed more
      const typed = parseMoney(input.value);
      if (doc.activeElement !== input || typed === null || typed < b.nextBid) input.value = money(b.nextBid);
      prefilled = b.nextBid;
    }
  }

  /** The three hands: the coup in play, or the one just settled (dimmed), with each
   * tableau's stakes, who plays it, and its result. */
  function renderHands(state) {
    const b = state.banque, felt = b.felt;
    const showing = Boolean(felt) || ["stakes", "punter", "banker"].includes(b.phase);
    $("bq-hands").hidden = !showing;
    $("bq-hands").classList.toggle("over", !b.dealt);
    $("bq-hands").classList.toggle("empty", !felt);  // spots waiting for the stakes
    const settled = !b.dealt && b.last;
    for (const k of HANDS) {
      const hand = felt?.[k];
      layCards(doc, $(`bq-${k}-cards`), hand?.cards ?? []);
      setText(`bq-${k}-total`, hand?.total === null || hand?.total === undefined ? "" : String(hand.total));
      const box = doc.querySelector(`.bq-hand[data-hand=${k}]`);
      box.classList.toggle("live", b.live === k);
      if (k === "B") {
        const banker = settled ? b.last.banker : b.banker;
        setText("bq-B-name", banker ? who(state, banker) : "");
        continue;
      }
      const player = b.dealt ? b.playing[k] : settled ? b.last.players[k] : null;
      setText(`bq-${k}-name`, player ? who(state, player) : "");
      const stakes = Object.entries(b.stakes[k]);
      setText(`bq-${k}-stakes`, stakes.length
        ? stakes.map(([name, amount]) => `${who(state, name)} ${money(amount)}`).join(" · ")
        : b.phase === "stakes" ? "no stake yet" : "");
      const outcome = settled ? b.last.result[k] : null;
      const tag = $(`bq-${k}-outcome`);
      tag.className = "outcome" + (outcome ? ` w-${outcome}` : "");
      setText(`bq-${k}-outcome`, outcome ? OUTCOMES[outcome] ?? outcome : "");
    }
    setText("bq-hand-note", settled ? (b.phase === "stakes" ? "Last coup · stakes for the next" : "Last coup") : "");
  }

  function renderResult(state) {
    const b = state.banque, last = !b.dealt ? b.last : null, box = $("bq-result");
    box.hidden = !last;
    box.classList.toggle("fresh", Boolean(b.justSettled));
    if (!last) { box.textContent = ""; return; }
    const lines = TABLEAUX.map((k) => {
      const player = last.players[k] ? who(state, last.players[k]) : "no stake";
      const line = el("p", `w-${last.result[k]}`);
      line.dataset.tableau = k;
      line.textContent = `${HAND_NAMES[k]} (${player}): ${last.totals[k]} to ${last.totals.B}, ${(OUTCOMES[last.result[k]] ?? last.result[k]).toLowerCase()}`;
      return line;
    });
    box.replaceChildren(el("h3", "", `Last coup · ${who(state, last.banker)} held the bank`), ...lines);
  }

  function renderRail(state) {
    const b = state.banque, staked = stakesByName(b);
    renderPlayersRail(doc, "bq-", state, b, (name) => [
      name === b.banker && el("span", "mark bank", `Bank ${money(b.bank)}`),
      b.bids[name] !== undefined && el("span", "mark bid", `Bid ${money(b.bids[name])}`),
      staked[name] && el("span", "mark stake", `${HAND_NAMES[staked[name].tableau]} ${money(staked[name].amount)}`),
    ].filter(Boolean));
  }

  function button(label, action, primary) {
    const node = el("button", primary ? "primary" : "", label);
    node.type = "button";
    node.dataset.action = action;
    return node;
  }

  /** The stake's controls: an amount, the tableau (left or right) and the stake; or sit out. */
  function stakeControls(state, form) {
    const b = state.banque;
    const label = el("label", "amount", "Stake ");
    const input = el("input");
    Object.assign(input, { id: "bq-amount", inputMode: "decimal", autocomplete: "off", size: 9 });
    const most = Math.min(open(b), b.chips[state.me] ?? 0);
    input.placeholder = `up to ${money(most)}`;
    label.append(input);
    const choice = el("fieldset", "tableau-choice");
    choice.append(el("legend", "sr", "Tableau"));
    for (const k of TABLEAUX) {
      const radio = el("input");
      Object.assign(radio, { type: "radio", name: "bq-tableau", id: `bq-tableau-${k}`, value: k, checked: k === tableau });
      radio.addEventListener("change", () => pick(k));
      const text = el("label", "", HAND_NAMES[k]);
      text.htmlFor = radio.id;
      choice.append(radio, text);
    }
    const stake = button(actionLabel(b, "stake"), "stake", true);
    stake.type = "submit";
    const out = button("Sit out", "sit_out", false);
    out.addEventListener("click", () => on.act("stake", "0"));
    form.append(label, choice, stake, out);
    pick(tableau);
    form.onsubmit = (e) => { e.preventDefault(); on.act("stake", input.value, tableau); };
    return input;
  }

  /** The tableau my stake goes on: the radio's, or the one clicked on the felt. */
  function pick(k) {
    tableau = k;
    const radio = $(`bq-tableau-${k}`);
    if (radio) radio.checked = true;
    for (const t of TABLEAUX) doc.querySelector(`.bq-hand[data-hand=${t}]`).classList.toggle("picked", Boolean(radio) && t === k);
  }

  /** My decisions: the server's choices on my turn, rebuilt only when they change. */
  function renderControls(state) {
    const b = state.banque, choices = turnChoices(state);
    const key = choices.length ? `${b.phase}|${b.toAct}|${b.banker}|${b.bank}|${covered(b)}|${choices.join()}` : "";
    setText("bq-prompt", prompt(state));
    setText("bq-advice", b.advice ?? "");
    const form = $("bq-controls");
    form.hidden = !myChoices(state).length;  // hidden too while my decision is on its way
    $("bq-hands").classList.toggle("pickable", myChoices(state).includes("stake"));  // a click picks the tableau
    if (key === controlsKey) return;  // the same question: what I typed stays
    controlsKey = key;
    form.textContent = "";
    form.onsubmit = (e) => e.preventDefault();
    let focus = null;
    for (const action of choices) {
      if (AMOUNT_ACTIONS.has(action)) { focus = stakeControls(state, form); continue; }
      const node = button(actionLabel(b, action), action, false);
      node.addEventListener("click", () => on.act(action));
      form.append(node);
    }
    (focus ?? form.querySelector("button"))?.focus({ preventScroll: true });
  }

  function renderSeat(state) {
    const seated = isSeated(state), b = state.banque;
    renderSeatControls(doc, "bq-", state, b);
    $("bq-seed").hidden = !(seated && b.phase === "shuffle");
    $("bq-retire-box").hidden = !mayRetire(state);
    setText("bq-retire", actionLabel(b, "retire"));
  }

  function renderNews(state) {
    const b = state.banque, fresh = b.news.length - b.fresh.length;
    $("bq-news").replaceChildren(...b.news.map((line, i) => el("li", i >= fresh ? "fresh" : "", line)).reverse());
  }

  /** This shoe's coups (newest first): the bank, each hand, the stakes, the results, the decisions. */
  function renderHistory(state) {
    const b = state.banque, names = b.inShoe, count = b.history.length;
    $("bq-history").replaceChildren(...b.history.map((coup, i) => {
      const hands = handsOfNotation(coup.cards), li = el("li", "coup");
      li.value = count - i;
      li.append(el("div", "coup-head", `Bank ${money(coup.bank)} · ${names[coup.banker] ?? "?"}`));
      for (const k of HANDS) {
        const row = el("div", "coup-hand");
        row.append(el("b", "", HAND_NAMES[k]), " ", hands[k].map(cardText).join(" "));
        if (k !== "B") {
          const stakes = (coup.stakes?.[k] ?? []).map(([seat, amount]) => `${names[seat] ?? "?"} ${money(amount)}`);
          row.append(` · ${stakes.join(", ") || "no stake"} · `, el("span", `w-${coup.result?.[k]}`, OUTCOMES[coup.result?.[k]] ?? ""));
        }
        li.append(row);
      }
      const decisions = decisionsText(coup, names);
      if (decisions) li.append(el("div", "decisions", decisions));
      return li;
    }));
  }

  function render(prev, next) {
    const b = next.banque;
    if (!b) return;
    if (!renderPlayersHead(doc, "bq-", prev, next, "banque", banquePhaseLabel(next))) return;
    renderBankLine(next);
    renderAuction(next);
    renderHands(next);
    renderResult(next);
    renderRail(next);
    renderControls(next);
    renderSeat(next);
    renderNews(next);
    if (!prev?.banque || prev.banque.history !== b.history) renderHistory(next);
  }

  /** The clock, shown to all, at client time `now` in seconds: the auction's, or the turn's. */
  function renderTimer(state, now) {
    const b = state.banque;
    let width = 0, text = b?.phase === "shuffle" ? "shuffling" : "";
    if (b?.deadline && (b.toAct || b.phase === "auction")) {
      const left = decisionTimeLeft(state, now);
      width = 100 * left / (b.clockSeconds || 1);
      text = `${b.toAct ? (b.toAct === state.me ? "You" : b.toAct) : "Auction"}: ${left.toFixed(1)} s`;
    }
    $("bq-timer-bar").style.width = Math.min(100, width) + "%";
    setText("bq-timer-text", text);
  }

  for (const t of TABLEAUX) {  // a click on a tableau chooses it for my stake
    doc.querySelector(`.bq-hand[data-hand=${t}]`).addEventListener("click", () => { if ($(`bq-tableau-${t}`)) pick(t); });
  }
  $("bq-sit").addEventListener("submit", (e) => { e.preventDefault(); on.sit($("bq-buy-in").value); $("bq-buy-in").value = ""; });
  $("bq-leave").addEventListener("click", () => on.leave());
  $("bq-away").addEventListener("click", () => on.sitOut());
  $("bq-retire").addEventListener("click", () => on.act("retire"));
  $("bq-bid-form").addEventListener("submit", (e) => { e.preventDefault(); on.act("bid", $("bq-bid").value); });
  $("bq-seed").addEventListener("submit", (e) => {
    e.preventDefault();
    on.seed($("bq-client-seed").value);
    $("bq-client-seed").value = "";
  });

  return { render, renderTimer };
}
