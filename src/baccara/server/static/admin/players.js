// The players: stop a player's logins (the house's suspension) or let them log in
// again; and a search by name, where the server has it (`/api/admin/players?q=`): a
// server without it says so rather than showing anything made up.
import { button, call, confirmed, el, errorLine, field, NO_ROUTE, newsLine, readOnly } from "./common.js";

const LOGINS = "/api/admin/players/{name}/logins";

let ctx, news, found;

function loginsForm() {
  const player = field("Player", { name: "logins-player", required: true, maxlength: 24, autocomplete: "off" });
  const set = async (stopped) => {
    const name = player.input.value.trim();
    if (!name) { player.input.focus(); return; }
    if (stopped && !(await confirmed(`Stop ${name}'s logins? Every session of theirs ends now; the round they bet in is settled as usual.`))) return;
    try {
      const done = await call(`/api/admin/players/${encodeURIComponent(name)}/logins`, { method: "POST", body: { stopped } });
      news.ok(done.stopped ? `${done.name}'s logins are stopped.` : `${done.name} may log in again.`);
    } catch (error) { news.fail(error); }
  };
  return el("form", { class: "row", "aria-label": "A player's logins", onsubmit: (e) => e.preventDefault() }, player.label,
    button("Stop logins", () => set(true), { class: "danger" }), button("Let them log in", () => set(false)));
}

function searchForm() {
  const q = field("Name", { name: "q", type: "search", maxlength: 24, autocomplete: "off" });
  const form = el("form", { class: "row", role: "search", "aria-label": "Find a player" }, q.label, el("button", { type: "submit" }, "Search"));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const answer = await call(`/api/admin/players?q=${encodeURIComponent(q.input.value.trim())}`);
      const names = (answer.players ?? []).map((p) => p.name);
      found.replaceChildren(names.length ? el("ul", {}, names.map((n) => el("li", {}, n))) : el("p", {}, "Nobody by that name."));
    } catch (error) {
      found.replaceChildren(error.code === NO_ROUTE
        ? el("p", { class: "unavailable" }, "Player search is not available on this server.")
        : el("p", { class: "news fail", role: "alert" }, errorLine(error)));
    }
  });
  return form;
}

export default {
  id: "players",
  title: "Players",
  mount(root, given) {
    ctx = given;
    news = newsLine();
    found = el("div", { class: "found", "aria-live": "polite" });
    const changes = ctx.may("POST", LOGINS);
    root.append(news.node,
      el("h2", {}, "Find a player"), el("div", { class: "panel" }, searchForm(), found),
      el("h2", {}, "Logins"),
      changes ? el("div", { class: "panel" }, loginsForm()) : readOnly(ctx, "players"));
  },
  show() {},
};
