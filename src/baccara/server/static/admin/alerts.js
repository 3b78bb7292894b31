// Alerts: markers of harm and money moved (`/api/admin/alerts`), where the server has
// them. A server without the route says so; nothing is shown that it did not answer.
import { call, el, errorLine, NO_ROUTE } from "./common.js";

let box;

export default {
  id: "alerts",
  title: "Alerts",
  mount(root) {
    box = el("div", { class: "panel", "aria-live": "polite" }, "Loading…");
    root.append(box);
  },
  async show() {
    try {
      await call("/api/admin/alerts");
      box.replaceChildren(el("p", {}, "The alerts are served at ", el("a", { href: "/api/admin/alerts" }, "/api/admin/alerts"), "."));
    } catch (error) {
      box.replaceChildren(el("p", { class: "unavailable" },
        error.code === NO_ROUTE ? "Alerts are not available on this server." : errorLine(error)));
    }
  },
};
