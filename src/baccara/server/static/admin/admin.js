// The console's shell: who is signed in (`/api/admin/access`: the staff member, the role
// and the routes it may call), the sign-in form, the navigation between sections, and
// a clear refusal for a player or anyone the server turns away. Each section is its own
// module with `{id, title, mount(root, ctx), show()}`: a new one is one more import.
import { ApiError, call, el, errorLine } from "./common.js";
import alerts from "./alerts.js";
import audit from "./audit.js";
import cashier from "./cashier.js";
import players from "./players.js";
import reports from "./reports.js";
import tables from "./tables.js";

const SECTIONS = [tables, cashier, players, reports, alerts, audit];
const $ = (id) => document.getElementById(id);
let mounted = null;  // the sections' roots by id, once signed in

function show(only) {
  for (const id of ["signin", "refused"]) $(id).hidden = id !== only;
  $("sections").hidden = only !== "sections";
  $("console-nav").hidden = only !== "sections";
  $("who-box").hidden = only === "signin";
}

function notice(text) {
  $("notice").textContent = text;
  $("notice").hidden = !text;
}

/** The section the address names (#tables by default). */
function route() {
  if (!mounted) return;
  const wanted = location.hash.slice(1);
  const current = mounted.has(wanted) ? wanted : SECTIONS[0].id;
  for (const [id, root] of mounted) root.hidden = id !== current;
  for (const link of $("console-nav").querySelectorAll("a")) {
    if (link.dataset.section === current) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
  SECTIONS.find((s) => s.id === current).show();
}

function start(access) {
  const may = new Set(access.may);
  const ctx = {
    name: access.name,
    role: access.role,
    /** Whether this role may call the route ("POST", "/api/admin/tables/{table_id}/pause"). */
    may: (method, path) => may.has(`${method} ${path}`),
  };
  $("who").textContent = `${access.name} (${access.role})`;
  $("console-nav").replaceChildren(...SECTIONS.map((s) => el("a", { href: `#${s.id}`, "data-section": s.id }, s.title)));
  mounted = new Map();
  $("sections").replaceChildren(...SECTIONS.map((s) => {
    const root = el("section", { id: s.id, class: "console-part", "aria-labelledby": `${s.id}-title`, hidden: true },
      el("h1", { id: `${s.id}-title` }, s.title));
    s.mount(root, ctx);
    mounted.set(s.id, root);
    return root;
  }));
  show("sections");
  route();
}

/** A refusal of the console as a page that says why and what to do. */
function refused(error) {
  const text = error.code === "staff_only"
    ? "You are signed in with a player's account. The console is for the house's staff: log out, then sign in with a staff account."
    : errorLine(error);
  $("refused-text").textContent = text;
  $("who").textContent = "";
  show("refused");
}

async function begin() {
  notice("");
  try {
    start(await call("/api/admin/access"));
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) {
      show("signin");
      $("signin-name").focus();
    } else if (error instanceof ApiError && error.status === 403) {
      refused(error);
    } else {
      show("signin");
      notice(`The console could not start: ${errorLine(error)}`);
    }
  }
}

$("signin-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  $("signin-error").textContent = "";
  $("signin-go").disabled = true;
  try {
    await call("/api/login", { method: "POST", body: { name: $("signin-name").value, password: $("signin-password").value } });
    $("signin-password").value = "";
    await begin();
  } catch (error) {
    $("signin-error").textContent = errorLine(error);
  } finally {
    $("signin-go").disabled = false;
  }
});

async function logout() {
  try { await call("/api/logout", { method: "POST", body: {} }); } catch { /* signed out either way */ }
  mounted = null;
  $("sections").replaceChildren();
  show("signin");
  $("signin-name").focus();
}
$("logout").addEventListener("click", logout);
$("refused-logout").addEventListener("click", logout);
window.addEventListener("hashchange", route);
window.addEventListener("console:signed-out", () => {
  if (!mounted) return;
  mounted = null;
  $("sections").replaceChildren();
  show("signin");
  notice("Your session has ended: sign in again.");
  $("signin-name").focus();
});
begin();
