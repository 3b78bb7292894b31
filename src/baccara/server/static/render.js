// The page from the state: `render(prev, next)` redraws what changed (the reducer never
// mutates, so a changed part is a new object). Every amount shown goes through money().
import { SUITS, coupText } from "./cards.js";
import { money } from "./money.js";
import { FACE_DOWN, seatNote } from "./players.js";
import { SIDES, bentOf, betKeys, betOf, chipStack, labelOf, myStakes, phaseLabel, squeezeTimeLeft, stagedStakes, betTimeLeft } from "./reducer.js";

const CHIP_COLOURS = 6;  // chip faces k0..k5 in table.css, by position in the table's chip set
const CHIP_EDGE = ["#9e9e9e", "#7f1717", "#1b4d1e", "#000", "#3f0f5c", "#8f5600"];

/** Whether any of `keys` differs between two states (all of them on the first draw). */
export const changed = (prev, next, ...keys) => !prev || keys.some((key) => prev[key] !== next[key]);


// Where a card's pips lie (x, y in % of the pip area): a pip below the middle is upside down.
const SIDE_PIPS = [[0, 0], [100, 0], [0, 100], [100, 100]];
const NINE_SIDES = [[0, 0], [100, 0], [0, 33.3], [100, 33.3], [0, 66.7], [100, 66.7], [0, 100], [100, 100]];
const PIPS = {
  A: [[50, 50]], 2: [[50, 0], [50, 100]], 3: [[50, 0], [50, 50], [50, 100]], 4: SIDE_PIPS,
  5: [...SIDE_PIPS, [50, 50]], 6: [...SIDE_PIPS, [0, 50], [100, 50]],
  7: [...SIDE_PIPS, [0, 50], [100, 50], [50, 25]], 8: [...SIDE_PIPS, [0, 50], [100, 50], [50, 25], [50, 75]],
  9: [...NINE_SIDES, [50, 50]], T: [...NINE_SIDES, [50, 16.7], [50, 83.3]],
};

/** A card's face drawn into `face` ("Td"): the index in two corners, the pips laid out as
 * on a real card (a court card's letter framed), so a squeeze shows them as it peels. */
export function drawFace(doc, face, text) {
  const node = (className, inner) => {
    const made = doc.createElement("span");
    made.className = className;
    made.textContent = inner;
    return made;
  };
  const rank = text[0] === "T" ? "10" : text[0], suit = SUITS[text[1]] ?? "";
  face.classList.toggle("red", text[1] === "h" || text[1] === "d");
  const pips = doc.createElement("div");
  pips.className = "pips" + (text[0] === "A" ? " ace" : "");
  if (PIPS[text[0]]) {
    for (const [x, y] of PIPS[text[0]]) {
      const pip = node(y > 50 ? "pip down" : "pip", suit);
      pip.style.left = x + "%"; pip.style.top = y + "%";
      pips.append(pip);
    }
  } else pips.append(node("court", rank + suit));
  face.replaceChildren(node("idx", rank + suit), pips, node("idx end", rank + suit));
}

/** A card face up ("Td"), turning over as it lands; `third` lies sideways, as at the table. */
export function cardElement(doc, text, third = false) {
  const card = doc.createElement("div");
  card.className = "pcard" + (third ? " third" : "");
  card.setAttribute("role", "img"); card.setAttribute("aria-label", text); card.dataset.card = text;
  const back = doc.createElement("div"), face = doc.createElement("div");
  back.className = "back"; face.className = "face";
  drawFace(doc, face, text);
  card.append(back, face);
  return card;
}

/** A card lying face down on the felt, its back up (a players' table's hidden card). */
export function faceDownElement(doc) {
  const card = doc.createElement("div");
  card.className = "pcard facedown";
  card.dataset.card = FACE_DOWN;
  const back = doc.createElement("div");
  back.className = "back";
  card.append(back);
  return card;
}

/** Lay `cards` (FACE_DOWN for a back) in `box`, changing only the places that change: the
 * cards on the felt stay put (and do not turn over again), a back turns into its card;
 * the third lies sideways. */
export function layCards(doc, box, cards) {
  cards.forEach((card, i) => {
    const old = box.children[i];
    if (old?.dataset.card === card) return;
    const node = card === FACE_DOWN ? faceDownElement(doc) : cardElement(doc, card, i === 2);
    if (old) old.replaceWith(node); else box.append(node);
  });
  while (box.children.length > cards.length) box.lastElementChild.remove();
}

/** A shoe's commitment in the provably-fair box whose element ids start with `prefix`
 * (`seed-hash`, `rules-hash` where the box has one, `client-seeds`). */
export function renderFairBox(doc, prefix, fair, noSeeds) {
  const set = (id, text) => { const node = doc.getElementById(prefix + id); if (node) node.textContent = text; };
  set("seed-hash", fair?.server_seed_hash ?? "—");
  set("rules-hash", fair?.rules_hash ?? "—");
  set("client-seeds", !fair ? "—" : fair.client_seeds.length ? fair.client_seeds.join(", ") : noSeeds);
}

/** Download links for the finished shoes' records (newest first), in `box`. */
export function renderRecordLinks(doc, box, records) {
  for (const link of box.querySelectorAll("a")) URL.revokeObjectURL(link.href);
  box.replaceChildren(...records.map((record) => {
    const link = doc.createElement("a");
    const coups = record.coups?.length ?? 0;
    link.textContent = `Shoe ${record.server_seed_hash.slice(0, 12)}… revealed (${coups} coup${coups === 1 ? "" : "s"}): download`;
    link.href = URL.createObjectURL(new Blob([JSON.stringify(record, null, 1)], { type: "application/json" }));
    link.download = `shoe-${record.server_seed_hash.slice(0, 8)}.json`;
    return link;
  }).reverse());
}
const limits = (bet) => `${money(bet.min)}–${money(bet.max)}`;

/** A table's limits, bets with the same limits together: "Player, Banker 10.00–5,000.00 ·
 * Tie 1.00–500.00 · side bets 1.00–250.00" (the lobby said 1.00–5,000.00 for all three). */
export function limitsText(bets) {
  const byLimits = new Map(), sides = bets.filter((bet) => !bet.main);
  for (const bet of bets) byLimits.set(limits(bet), [...(byLimits.get(limits(bet)) ?? []), bet]);
  const named = (same) => sides.length > 2 && sides.every((bet) => same.includes(bet))
    ? [...same.filter((bet) => bet.main).map((bet) => bet.label), "side bets"] : same.map((bet) => bet.label);
  return [...byLimits].map(([range, same]) => `${named(same).join(", ")} ${range}`).join(" · ");
}

/**
 * The three helpers every renderer uses on ``doc``: an element by id, a new element
 * (with a class and a text), and a text set only when it changes.
 * @param {Document} doc
 */
export function domTools(doc) {
  const $ = (id) => doc.getElementById(id);
  const el = (tag, className, text) => {
    const node = doc.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  };
  const setText = (id, text) => { const node = $(id); if (node.textContent !== text) node.textContent = text; };
  return { $, el, setText };
}

/**
 * The head of a players' table (its title, phase, message, records and fair shoe), the
 * ids prefixed ``prefix``; whether the game's own state (``next[key]``) changed.
 */
export function renderPlayersHead(doc, prefix, prev, next, key, phaseText) {
  const { $, setText } = domTools(doc);
  if (!prev?.[key] || changed(prev, next, "title", "table")) setText(`${prefix}title`, `${next.title} · table ${next.table}`);
  setText(`${prefix}phase`, phaseText);
  setText(`${prefix}msg`, next.message);
  if (changed(prev, next, "records")) renderRecordLinks(doc, $(`${prefix}records`), next.records);
  if (changed(prev, next, "fair")) renderFairBox(doc, prefix, next.fair, "(taken at the shuffle)");
  return prev?.[key] !== next[key];
}

/**
 * A players' table's seat controls, the ids prefixed ``prefix``: sit down or add chips
 * (the same form), sit out or come back, leave (not twice while the coup settles).
 */
export function renderSeatControls(doc, prefix, state, table) {
  const { $, setText } = domTools(doc);
  const seated = table.players.includes(state.me);
  setText(`${prefix}sit-label`, seated ? "More chips " : "Buy-in ");
  setText(`${prefix}sit-go`, seated ? "Add chips" : "Sit down");
  $(`${prefix}buy-in`).placeholder = seated ? "between coups" : `at least ${money(table.minimum)}`;
  $(`${prefix}leave`).hidden = !seated;  // a leave asked during a coup: "Stay" cancels it
  setText(`${prefix}leave`, table.leaving.includes(state.me) ? "Stay" : "Leave the table");
  $(`${prefix}away`).hidden = !seated;
  setText(`${prefix}away`, table.away.includes(state.me) ? "I'm back" : "Sit out");
}

/**
 * A players' table's rail, its id prefixed ``prefix``: a seat a line, with its number, its
 * name, its chips (a seat that joins at the next shoe has none yet) and its marks: the
 * game's own (``gameMarks(name)``: the bank, bids, stakes), then whose turn it is and
 * whether the seat sits out or leaves.
 */
export function renderPlayersRail(doc, prefix, state, table, gameMarks) {
  const { $, el } = domTools(doc);
  $(`${prefix}rail`).replaceChildren(...table.players.map((name, i) => {
    const mine = name === state.me, playing = table.inShoe.includes(name);
    const li = el("li", "seat" + (mine ? " mine" : "") + (name === table.toAct ? " turn" : "") + (name === table.banker ? " banker" : ""));
    li.dataset.name = name;
    const chips = playing && table.chips[name] !== undefined ? money(table.chips[name]) : "next shoe";
    li.append(el("span", "num", String(i + 1)), el("span", "pname", mine ? `${name} (you)` : name), el("span", "pstake", chips));
    const marks = el("span", "marks");
    marks.append(...gameMarks(name));
    if (name === table.toAct) marks.append(el("span", "mark to-act", "to act"));
    if (seatNote(table, name)) marks.append(el("span", "mark away", seatNote(table, name)));
    li.append(marks);
    li.title = `${name}: chips ${chips}` + (name === table.banker ? `, holds the bank of ${money(table.bank)}` : "");
    return li;
  }));
}

/**
 * @param {Document} doc
 * @param {object} on  callbacks: stage(kind), pickChip(index), recall(index), sit(tableId),
 *   downCard(element, side) (makes a face-down card squeezable)
 */
export function createRenderer(doc, on) {
  const { $, el, setText } = domTools(doc);

  function show(view) {
    for (const id of ["login", "lobby", "mine", "table", "chemin", "banque"]) $(id).hidden = id !== view;
    $("nav").hidden = view === "login";
  }

  /** The lobby: each table with what fits its game; `on.sit(id, summary)` opens one. */
  function renderLobby(tables) {
    const box = $("tables");
    box.textContent = "";
    for (const t of tables) {
      const card = el("article", "table-card");
      card.dataset.game = t.game;
      const title = el("h2", "", `${t.title} (${t.id})`);
      if (t.squeeze) title.append(" ", el("span", "tag", "Squeeze"));
      const sit = el("button", "primary", "Sit down");
      sit.addEventListener("click", () => on.sit(t.id, t));
      card.append(title, ...(t.roads ? houseTableLines(t) : playersTableLines(t)), sit);
      box.append(card);
    }
    box.querySelector("button")?.focus();
  }

  function houseTableLines(t) {
    const st = t.roads.statistics;
    const range = t.bets?.length ? ` Limits: ${limitsText(t.bets)}.` : "";
    const label = (kind, fallback) => t.bets?.find((b) => b.kind === kind)?.label[0] ?? fallback;
    const roads = el("div", "mini-roads");
    roads.innerHTML = t.roads.svg;  // the server's SVG
    return [el("p", "desc", t.description + range),
      el("p", "", `${t.seated}/${t.seats} seated · ${t.phase} · ${label("banker", "B")} ${st.banker} ${label("player", "P")} ${st.player} ${label("tie", "T")} ${st.tie}`),
      roads];
  }

  function playersTableLines(t) {
    const minimum = t.minimum === null || t.minimum === undefined ? "" : ` · bank and buy-in from ${money(t.minimum)}`;
    return [el("p", "desc", t.description),
      el("p", "game-line", `A game between players · ${t.seated}/${t.seats} seats taken${minimum} · ${t.phase}`)];
  }

  // -- spots, chips and everybody's stakes ------------------------------------------------
  function buildSpots(state) {
    const main = $("main-spots"), side = $("side-spots");
    main.textContent = ""; side.textContent = "";
    for (const bet of state.bets) {
      const spot = el("button", "spot " + bet.kind);
      spot.type = "button"; spot.dataset.kind = bet.kind;
      spot.append(el("span", "name", bet.label), el("span", "pays", bet.short_pays), el("span", "outcome"),
        el("span", "stake"), el("span", "pending"), el("span", "edge"), el("span", "stacks"));
      spot.querySelector(".stacks").setAttribute("aria-hidden", "true");
      spot.addEventListener("click", () => on.stage(bet.kind));
      (bet.main ? main : side).append(spot);
    }
    setText("limits", "Limits: " + limitsText(state.bets));
    const pays = $("pays");
    pays.textContent = "";
    for (const bet of state.bets) pays.append(el("dt", "", bet.label), el("dd", "", `${bet.pays} (limits ${limits(bet)})`));
    const keys = Object.keys(betKeys(state)).map((k) => k.toUpperCase()).join("/");
    setText("keys", `Keys: 1–${state.chips.length} chip · ${keys} bet · U undo · C clear · R rebet · D double · Enter confirm · S squeeze`);
  }

  function stackEl(state, name, cents) {
    // One player's stake on a spot: a stack of chips seen from above (the top chip the
    // biggest), the amount on it, and the seat (or "You") beside it.
    const mine = name === state.me;
    const discs = chipStack(cents, state.chips);
    const stack = el("span", `stack k${(discs[0] ?? 0) % CHIP_COLOURS}` + (mine ? " mine" : ""), money(cents, { compact: true }));
    const seat = state.seats[name];
    stack.title = `${mine ? "You" : name}${seat ? ` (seat ${seat})` : ""}: ${money(cents)}`;
    stack.style.boxShadow = discs.slice(1).map((i, k) => `0 ${3 * (k + 1)}px 0 -1px ${CHIP_EDGE[i % CHIP_COLOURS]}`)
      .concat([`0 ${3 * discs.length + 1}px 4px rgba(0,0,0,.6)`]).join(", ");
    stack.style.marginBottom = 3 * Math.max(0, discs.length - 1) + "px";
    stack.append(el("b", "", mine ? "You" : String(seat ?? name.slice(0, 2))));
    return stack;
  }

  function renderSpots(state) {
    const stakes = myStakes(state), staged = stagedStakes(state);
    const byKind = {};
    for (const [name, bets] of Object.entries(state.tableBets)) {
      for (const [kind, amount] of Object.entries(bets)) (byKind[kind] ??= []).push([name, amount]);
    }
    for (const spot of doc.querySelectorAll(".spot")) {
      const kind = spot.dataset.kind, bet = betOf(state, kind), total = state.tableTotals[kind];
      spot.querySelector(".pending").textContent = staged[kind] ? "+" + money(staged[kind]) : "";
      const edge = state.showEdges ? state.edges?.edges?.[kind] : undefined;
      spot.querySelector(".edge").textContent = edge === undefined ? "" : `edge ${(100 * edge).toFixed(2)}%`;
      spot.dataset.table = total ? money(total) : "";
      spot.title = `Limits ${limits(bet)}` + (total ? ` · table total ${money(total)}` : "");
      const said = settledSpot(state, spot, kind, stakes[kind]);
      const closed = state.behind && !bet.main;  // behind the seats: the main bets only
      spot.classList.toggle("closed", closed);
      spot.setAttribute("aria-disabled", String(closed));
      const list = (byKind[kind] ?? []).sort((a, b) => (state.seats[a[0]] ?? 99) - (state.seats[b[0]] ?? 99));
      spot.querySelector(".stacks").replaceChildren(...list.map(([name, amount]) => stackEl(state, name, amount)));
      const others = list.filter(([name]) => name !== state.me).map(([name, amount]) => `${name} ${money(amount)}`);
      spot.setAttribute("aria-label", `Bet on ${bet.label}, pays ${bet.pays}` + (others.length ? `; other players: ${others.join(", ")}` : "") + said);
    }
  }

  // the round's result on a spot: won and what it paid, lost and swept, or pushed and
  // returned, for the table and for my stake; what it said, for a screen reader
  function settledSpot(state, spot, kind, stake) {
    const settled = state.result?.spots?.[kind];
    const won = settled ? settled.outcome === "win" : state.result?.winner === kind;
    const staked = settled?.staked ?? 0, outcome = settled?.outcome;
    spot.classList.toggle("won", won);
    spot.classList.toggle("lost", outcome === "lose" && staked > 0);
    spot.classList.toggle("pushed", outcome === "push" && staked > 0);
    const said = won ? `Wins ${settled?.paid ?? ""}`.trim() : outcome === "push" && staked ? "Push" : "";
    spot.querySelector(".outcome").textContent = said;
    // the table's chips on it: what the house paid a win, swept, or gave back on a push
    const told = { win: ["paid", settled?.returned - staked], lose: ["swept", staked], push: ["returned", staked] }[outcome];
    spot.dataset.settled = staked ? `${told[0]} ${money(told[1])}` : "";
    const mine = state.payout?.round === state.result?.round ? state.payout?.bets?.[kind] : undefined;
    const line = spot.querySelector(".stake");
    line.classList.toggle("up", !!mine && mine.returned > mine.staked);
    line.classList.toggle("down", !!mine && mine.returned < mine.staked);
    if (mine) {
      const net = mine.returned - mine.staked;
      line.textContent = net > 0 ? `+${money(net)}` : net < 0 ? `−${money(-net)}` : `${money(mine.returned)} back`;
    } else line.textContent = stake ? money(stake) : "";
    return (said ? `; ${said}` : "") + (spot.dataset.settled ? `, table ${spot.dataset.settled}` : "") + (mine ? `; you: ${line.textContent}` : "");
  }

  function renderRail(state) {
    const seated = Object.entries(state.seats).sort((a, b) => a[1] - b[1]);
    $("rail").replaceChildren(...seated.map(([name, seat]) => {
      const stakes = state.tableBets[name] ?? {};
      const total = Object.values(stakes).reduce((sum, amount) => sum + amount, 0);
      const li = el("li", "seat" + (name === state.me ? " mine" : "") + (total ? " in" : ""));
      li.append(el("span", "num", String(seat)), el("span", "pname", name === state.me ? `${name} (you)` : name),
        el("span", "pstake", total ? money(total) : "—"));
      li.title = Object.entries(stakes).map(([kind, amount]) => `${labelOf(state, kind)} ${money(amount)}`).join(", ") || "no bet this round";
      return li;
    }), ...(state.bettorsBehind ? [el("li", "seat behind", `+${state.bettorsBehind} betting behind`)] : []));
  }

  function buildChips(state) {
    $("chips").replaceChildren(...state.chips.map((value, i) => {
      const chip = el("button", `chip k${i % CHIP_COLOURS}`, money(value, { compact: true }));
      chip.type = "button";
      chip.setAttribute("role", "radio");
      chip.setAttribute("aria-label", `Chip ${money(value)}`);
      chip.addEventListener("click", () => on.pickChip(i));
      return chip;
    }));
  }

  // -- cards and the squeeze ------------------------------------------------------------------
  const cardEl = (text, third) => cardElement(doc, text, third);

  function downCardEl(side, i) {
    const card = el("div", "pcard down" + (i === 2 ? " third" : ""));
    card.dataset.side = side; card.tabIndex = 0;
    card.setAttribute("role", "button");
    card.setAttribute("aria-label", `${side} card ${i + 1}, face down`);
    card.append(el("div", "sq-face"), el("div", "sq-back"), el("div", "sq-flap"));
    on.downCard(card, side);
    return card;
  }

  function renderHands(state) {
    for (const side of SIDES) {
      const box = $(side + "-cards"), cards = state.hands[side];
      const slots = Math.max(cards.length, state.hands.down[side]);
      for (let i = 0; i < slots; i++) {
        const old = box.children[i];
        if (i < cards.length) {  // a squeezed card lying face down is turned in place
          if (old?.dataset.card !== cards[i]) {
            const card = cardEl(cards[i], i === 2);
            if (old) old.replaceWith(card); else box.append(card);
          }
        } else if (!old?.classList.contains("down")) {
          const card = downCardEl(side, i);
          if (old) old.replaceWith(card); else box.append(card);
        }
      }
      while (box.children.length > slots) box.lastElementChild.remove();
      const total = state.hands[side + "_total"];
      setText(side + "-total", total === null ? "" : String(total));
    }
  }

  // the squeezed cards: bent from the corner (their faces drawn once the values come)
  function renderPeel(state) {
    const sq = state.squeeze;
    if (!sq) return;
    const bent = bentOf(sq), mine = sq.squeezer === state.me, box = $(sq.side + "-cards");
    for (let i = 0; i < sq.count; i++) {
      const card = box.children[sq.first + i], value = sq.cards?.[i];
      if (!card?.classList.contains("down")) continue;
      card.style.setProperty("--p", (bent * 130).toFixed(1) + "%");
      card.classList.toggle("turned", bent >= 1);
      card.classList.toggle("mine", mine);
      card.setAttribute("aria-label", `${sq.side} card ${sq.first + i + 1}, face down: ${
        mine ? "squeeze it (Space, or S)" : `squeezed by ${sq.squeezer}`}${value && bent >= 1 ? `: ${value}` : ""}`);
      if (value && card.dataset.value !== value) {
        card.dataset.value = value;
        drawFace(doc, card.querySelector(".sq-face"), value);
      }
    }
  }

  // -- roads, history, recall, provably fair ------------------------------------------------------
  function renderRoads(state) {
    const roads = state.roads;
    if (!roads) return;
    $("roads").innerHTML = roads.svg;  // the server's SVG
    const st = roads.statistics;
    const items = [[labelOf(state, "banker"), st.banker], [labelOf(state, "player"), st.player], [labelOf(state, "tie"), st.tie],
      ["B pairs", st.banker_pairs], ["P pairs", st.player_pairs], ["Naturals", st.naturals], ["Coups", st.coups],
      ["Best B run", st.longest_streak.banker], ["Best P run", st.longest_streak.player]];
    $("stats").replaceChildren(...items.map(([name, value]) => {
      const row = el("div", "", name + " ");
      row.append(el("b", "", String(value)));
      return row;
    }));
  }

  function renderAsk(state) {
    const p = state.ask && state.roads?.predictions?.[state.ask];
    const txt = (v) => v ?? "—";
    setText("ask-out", p ? `If ${labelOf(state, state.ask)}: Big Eye Boy ${txt(p.big_eye_boy)}, Small Road ${txt(p.small_road)}, Cockroach Pig ${txt(p.cockroach_pig)}` : "");
  }

  function renderHistory(state) {
    $("history").replaceChildren(...state.history.map((h, i) => {
      const li = el("li");
      const recall = el("button", "", "Recall");
      recall.type = "button";
      recall.addEventListener("click", () => on.recall(i));
      li.append(el("span", `w-${h.winner}`, `#${h.number} ${labelOf(state, h.winner).toUpperCase()} ${h.player_total}–${h.banker_total} · ${coupText(h.coup, { P: labelOf(state, "player"), B: labelOf(state, "banker") })}`), " ", recall);
      return li;
    }));
  }

  function renderRecall(state) {
    $("recall").hidden = !state.recall;
    if (!state.recall) return;
    const { round, step } = state.recall, s = round.steps[step];
    if (!s) return;
    setText("recall-p", `${labelOf(state, "player")} ${s.player.join(" ")}`);
    setText("recall-b", `${labelOf(state, "banker")} ${s.banker.join(" ")}`);
    setText("recall-words", `Round ${round.number}, step ${step + 1}/${round.steps.length}: ${s.words}` + (state.teaching && s.reason ? ` (${s.reason})` : ""));
  }

  const renderFair = (state) => renderFairBox(doc, "", state.fair, "(none yet)");

  const renderRecords = (state) => renderRecordLinks(doc, $("records"), state.records);

  // -- the whole table -----------------------------------------------------------------------------
  function render(prev, next) {
    if (changed(prev, next, "balance")) setText("balance", next.balance === null ? "—" : money(next.balance));
    if (changed(prev, next, "me")) setText("who", next.me ?? "");
    if (changed(prev, next, "title", "table", "seat", "behind")) {
      const where = next.seat ? ` · seat ${next.seat}` : next.behind ? " · betting behind the seats (Player, Banker, Tie)" : "";
      setText("table-title", `${next.title} · table ${next.table}` + where);
    }
    $("squeeze-tag").hidden = !next.squeezeTable;
    setText("phase", phaseLabel(next));
    if (changed(prev, next, "bets", "chips")) { buildSpots(next); buildChips(next); }
    if (changed(prev, next, "bets", "chips", "mine", "staged", "tableBets", "tableTotals", "seats", "me", "result", "payout", "behind", "edges", "showEdges")) renderSpots(next);
    if (changed(prev, next, "edges", "showEdges")) {
      const e = next.edges;
      setText("edges-note", next.showEdges && e ? `After ${e.coups} coup${e.coups === 1 ? "" : "s"} of this shoe, ${e.left} cards not yet seen: each spot shows its bet's exact house edge for them.` : "");
    }
    if (changed(prev, next, "seats", "tableBets", "me", "bets", "bettorsBehind")) renderRail(next);
    if (changed(prev, next, "chips", "chip")) {
      doc.querySelectorAll(".chip").forEach((chip, i) => chip.setAttribute("aria-checked", String(i === next.chip)));
    }
    if (changed(prev, next, "hands", "squeeze")) { renderHands(next); renderPeel(next); }
    setText("croupier", next.croupier);
    // teaching: each rule as it is applied, and once the coup is settled all of them
    setText("reason", next.result ? next.reasons.join("\n") : next.reason);
    setText("bet-msg", next.message);
    if (changed(prev, next, "result")) {
      const banner = $("result-banner");
      banner.hidden = !next.result;
      if (next.result) { banner.className = "result-banner w-" + next.result.winner; banner.textContent = next.result.announcement; }
    }
    if (changed(prev, next, "roads", "bets")) renderRoads(next);
    if (changed(prev, next, "roads", "ask")) renderAsk(next);
    if (changed(prev, next, "history", "bets")) renderHistory(next);
    if (changed(prev, next, "recall", "teaching")) renderRecall(next);
    if (changed(prev, next, "teaching")) doc.body.classList.toggle("teaching", next.teaching);
    if (changed(prev, next, "fair")) renderFair(next);
    if (changed(prev, next, "records")) renderRecords(next);
  }

  /** The bet timer (or the squeeze's), at client time `now` in seconds. */
  function renderTimer(state, now) {
    let width = 0, text = "";
    if (state.squeeze) {
      const left = squeezeTimeLeft(state, now);
      width = 100 * left / (state.squeeze.seconds || 1);
      text = `squeeze ${left.toFixed(1)} s`;
    } else if (state.phase === "betting") {
      const left = betTimeLeft(state, now);
      width = left > 0 ? 100 * left / (state.betSeconds || 1) : 0;
      text = left > 0 ? `${left.toFixed(1)} s` : "closing";
    }
    $("timer-bar").style.width = width + "%";
    setText("timer-text", text);
  }

  return { show, render, renderLobby, renderTimer };
}
