// The console's shared helpers (node --test tests/js/): a refusal read as one line with
// its code, a route the server lacks told apart from a refusal, times in UTC.
import assert from "node:assert/strict";
import { test } from "node:test";

import { ApiError, call, day, errorLine, NO_ROUTE, when } from "../../src/baccara/server/static/admin/common.js";

function answering(status, body) {
  return async () => new Response(body === undefined ? "" : JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
}

test("a refusal is its message and code, in one line", async () => {
  globalThis.fetch = answering(409, { error: "table_exists", message: "table 'n1' exists (open)" });
  const error = await call("/api/admin/tables", { method: "POST", body: { id: "n1" } }).catch((e) => e);
  assert.ok(error instanceof ApiError);
  assert.equal(error.status, 409);
  assert.equal(errorLine(error), "table 'n1' exists (open) (table_exists)");
});

test("a wrong role is said as such", () => {
  assert.equal(errorLine(new ApiError(403, "wrong_role", "for the operator role only")),
    "Your role may not do this: for the operator role only (wrong_role)");
});

test("a plain 404 is a route this server lacks; a 404 with a code is a refusal", async () => {
  globalThis.fetch = answering(404, { detail: "Not Found" });
  assert.equal((await call("/api/admin/alerts").catch((e) => e)).code, NO_ROUTE);
  globalThis.fetch = answering(404, { error: "no_such_table", message: "no table 'x'" });
  assert.equal((await call("/api/admin/tables/x/pause").catch((e) => e)).code, "no_such_table");
});

test("no answer at all is said in words", async () => {
  globalThis.fetch = async () => { throw new TypeError("fetch failed"); };
  const error = await call("/api/admin/tables").catch((e) => e);
  assert.equal(error.code, "no_answer");
});

test("a body is sent as JSON, an answer read as JSON", async () => {
  let sent;
  globalThis.fetch = async (path, init) => { sent = init; return answering(200, { ok: true })(); };
  assert.deepEqual(await call("/api/admin/play/stop", { method: "POST", body: { game: "all" } }), { ok: true });
  assert.equal(sent.headers["Content-Type"], "application/json");
  assert.equal(sent.body, '{"game":"all"}');
});

test("times and days are in UTC", () => {
  assert.equal(when(1795866742.99), "2026-11-28 11:52:22 UTC");
  assert.equal(day(1795866742.99), "2026-11-28");
});
