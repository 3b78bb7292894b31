// What every section of the console shares: calls to the server's API (its refusals as
// one line: the message and the code), small DOM builders, times, a confirmation and
// the line where a section says what happened. No rule lives here: what a role may do
// comes from the server (`/api/admin/access`), amounts from money.js.

/** A refusal from the server: its status, its code and its message. */
export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/** A route this server does not have (a plain 404 from the router, no refusal code). */
export const NO_ROUTE = "no_route";

/**
 * Ask the API: GET, or a method with a JSON body. Resolves to the answer's JSON;
 * rejects with an `ApiError` (code `no_route` when the server has no such route).
 * @param {string} path
 * @param {{method?: string, body?: unknown}} [options]
 */
export async function call(path, { method = "GET", body } = {}) {
  const init = { method, credentials: "same-origin", headers: { Accept: "application/json" } };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let reply;
  try {
    reply = await fetch(path, init);
  } catch {
    throw new ApiError(0, "no_answer", "the server did not answer: check the connection and try again");
  }
  const data = await reply.json().catch(() => null);
  if (reply.ok) return data;
  if (reply.status === 401 && path.startsWith("/api/admin/")) {
    // the session ended (logged out elsewhere, expired): the shell asks to sign in again
    globalThis.dispatchEvent?.(new CustomEvent("console:signed-out", { detail: data?.message }));
  }
  if (data && typeof data.error === "string") throw new ApiError(reply.status, data.error, data.message ?? reply.statusText);
  if (reply.status === 404) throw new ApiError(404, NO_ROUTE, "not available on this server");
  throw new ApiError(reply.status, `http_${reply.status}`, reply.statusText || "refused");
}

/** An error as the one line a person reads: the server's message and its code. */
export function errorLine(error) {
  if (error instanceof ApiError) {
    if (error.status === 403 && error.code === "wrong_role") return `Your role may not do this: ${error.message} (${error.code})`;
    return `${error.message} (${error.code})`;
  }
  return String(error?.message ?? error);
}

/**
 * An element: `el("button", {type: "button", class: "x"}, "Text", child...)`. Attributes
 * that are false or null are left out; `on*` functions become listeners.
 */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs ?? {})) {
    if (value === false || value === null || value === undefined) continue;
    if (name.startsWith("on") && typeof value === "function") node.addEventListener(name.slice(2), value);
    else if (name === "class") node.className = value;
    else node.setAttribute(name, value === true ? "" : String(value));
  }
  node.append(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
  return node;
}

let fieldCount = 0;
/** A labelled input: `<label>Text <input ...></label>`, the input also returned. */
export function field(text, attrs = {}) {
  const input = el("input", { id: attrs.id ?? `f${++fieldCount}`, ...attrs });
  return { label: el("label", { class: "field" }, el("span", {}, text), input), input };
}

/** A labelled select of `[value, text]` choices. */
export function choice(text, choices, attrs = {}) {
  const select = el("select", { id: attrs.id ?? `f${++fieldCount}`, ...attrs },
    choices.map(([value, words]) => el("option", { value }, words)));
  return { label: el("label", { class: "field" }, el("span", {}, text), select), select };
}

/** Epoch seconds as a time in UTC a person reads: "2026-11-28 14:05:09 UTC". */
export function when(seconds) {
  return new Date(seconds * 1000).toISOString().slice(0, 19).replace("T", " ") + " UTC";
}

/** A date input's value ("2026-11-28") for epoch seconds, in UTC. */
export function day(seconds) {
  return new Date(seconds * 1000).toISOString().slice(0, 10);
}

/** Ask "are you sure?" in the page's dialog; resolves true on Yes. */
export function confirmed(text) {
  const dialog = document.getElementById("confirm");
  document.getElementById("confirm-text").textContent = text;
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => resolve(dialog.returnValue === "yes"), { once: true });
    dialog.returnValue = "";
    dialog.showModal();
  });
}

/** A section's one line of news: `ok(text)`, `fail(error)`, `clear()`. */
export function newsLine() {
  const node = el("p", { class: "news", role: "status", "aria-live": "polite" });
  return {
    node,
    ok(text) { node.className = "news ok"; node.textContent = text; },
    fail(error) { node.className = "news fail"; node.textContent = errorLine(error); },
    clear() { node.className = "news"; node.textContent = ""; },
  };
}

/** Why a role sees no changes here: one sentence under the section's title. */
export function readOnly(ctx, what) {
  return el("p", { class: "read-only" }, `Your role (${ctx.role}) reads ${what} only: changes are made by a role the server allows.`);
}

/** A button that runs `act` once at a time (disabled while it runs). */
export function button(text, act, attrs = {}) {
  const node = el("button", { type: "button", ...attrs }, text);
  node.addEventListener("click", async () => {
    node.disabled = true;
    try { await act(); } finally { node.disabled = false; }
  });
  return node;
}
