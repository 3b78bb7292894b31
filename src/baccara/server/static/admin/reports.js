// Reports: hold against theory (`/api/admin/reports/hold`), where the server has it. A
// server without the route says so; nothing is shown that the server did not answer.
import { call, el, errorLine, NO_ROUTE } from "./common.js";

let box;

export default {
  id: "reports",
  title: "Reports",
  mount(root) {
    box = el("div", { class: "panel", "aria-live": "polite" }, "Loading…");
    root.append(box);
  },
  async show() {
    try {
      await call("/api/admin/reports/hold");
      box.replaceChildren(el("p", {}, "The hold report is served at ", el("a", { href: "/api/admin/reports/hold" }, "/api/admin/reports/hold"), "."));
    } catch (error) {
      box.replaceChildren(el("p", { class: "unavailable" },
        error.code === NO_ROUTE ? "Hold reports are not available on this server." : errorLine(error)));
    }
  },
};
