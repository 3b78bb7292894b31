// The wire: message shapes, the API call, the reconnecting table socket (node --test tests/js/).
import assert from "node:assert/strict";
import { test } from "node:test";

import { api, endsSession, outgoing, socketUrl, TableConnection } from "../../src/baccara/server/static/protocol.js";

class FakeSocket {
  static made = [];
  constructor(url) { this.url = url; this.sent = []; this.readyState = 0; FakeSocket.made.push(this); }
  send(text) { this.sent.push(JSON.parse(text)); }
  close() { this.readyState = 3; this.onclose?.(); }
  // the server's side
  accept() { this.readyState = 1; this.onopen(); }
  deliver(message) { this.onmessage({ data: JSON.stringify(message) }); }
  drop() { this.readyState = 3; this.onclose(); }
}

test("outgoing messages have the server's shapes", () => {
  assert.deepEqual(outgoing.join("t1", 0), { type: "join", table: "t1" });
  assert.deepEqual(outgoing.join("t1", 41), { type: "join", table: "t1", since: 41 });
  assert.deepEqual(outgoing.bet("w1-tie", "tie", 2500, 88), { type: "bet", bet_id: "w1-tie", kind: "tie", amount: 2500, round: 88 });
  assert.deepEqual(outgoing.squeeze("player", 0.33333), { type: "squeeze", side: "player", peel: 0.33 });
  assert.equal(socketUrl({ protocol: "https:", host: "x.example" }), "wss://x.example/ws");
  assert.equal(socketUrl({ protocol: "http:", host: "127.0.0.1:8000" }), "ws://127.0.0.1:8000/ws");
});

test("the table socket joins, stamps messages, reconnects with since, and stops on close", () => {
  FakeSocket.made = [];
  const timers = [], got = [], status = [];
  let seen = 0;
  const link = new TableConnection({
    url: "ws://h/ws", table: "t1", since: () => seen, onMessage: (m) => got.push(m),
    onStatus: (open) => status.push(open), WebSocketImpl: FakeSocket,
    setTimer: (fn) => timers.push(fn), now: () => 5000, pingMs: 0,
  });
  assert.equal(link.send({ type: "ping" }), false);  // not open yet
  link.open();
  const first = FakeSocket.made[0];
  first.accept();
  assert.deepEqual(first.sent, [{ type: "join", table: "t1" }]);
  first.deliver({ type: "round_open", seq: 41 });
  assert.deepEqual(got, [{ type: "round_open", seq: 41, received_at: 5 }]);
  seen = 41;

  first.drop();
  assert.deepEqual(status, [true, false]);
  assert.equal(timers.length, 1);
  timers[0]();
  const second = FakeSocket.made[1];
  second.accept();
  assert.deepEqual(second.sent, [{ type: "join", table: "t1", since: 41 }]);
  assert.equal(link.send({ type: "ping" }), true);

  link.close();
  assert.equal(timers.length, 1);  // a wanted close does not reconnect
  assert.equal(FakeSocket.made.length, 2);
});

test("an open table socket pings now and then, and stops once closed", () => {
  FakeSocket.made = [];
  const timers = [];
  const link = new TableConnection({
    url: "ws://h/ws", table: "t1", since: () => 0, onMessage: () => {}, WebSocketImpl: FakeSocket,
    setTimer: (fn, ms) => timers.push([fn, ms]), pingMs: 60000,
  });
  link.open();
  const socket = FakeSocket.made[0];
  socket.accept();
  assert.deepEqual(timers.map(([, ms]) => ms), [60000]);
  timers[0][0]();
  timers[1][0]();
  assert.deepEqual(socket.sent.slice(1), [{ type: "ping" }, { type: "ping" }]);
  link.close();
  timers[2][0]();  // the timer left after the close sends nothing and stops
  assert.equal(socket.sent.length, 3);
  assert.equal(timers.length, 3);
});

test("api posts JSON and throws the server's message", async () => {
  const calls = [];
  const fetchImpl = async (path, init) => {
    calls.push([path, init]);
    return path === "/api/bad"
      ? { ok: false, statusText: "Bad Request", json: async () => ({ message: "name taken" }) }
      : { ok: true, json: async () => ({ name: "ann", balance: 100000 }) };
  };
  assert.deepEqual(await api("/api/login", { name: "ann" }, fetchImpl), { name: "ann", balance: 100000 });
  assert.equal(calls[0][1].method, "POST");
  assert.equal(calls[0][1].body, '{"name":"ann"}');
  await assert.rejects(api("/api/bad", undefined, fetchImpl), /name taken/);
  assert.equal(calls[1][1].method, undefined);
});

test("the errors that end a session take the page back to the login; others do not", () => {
  for (const code of ["session_ended", "self_excluded", "suspended"]) {
    assert.equal(endsSession({ type: "error", code, message: "..." }), true);
  }
  assert.equal(endsSession({ type: "error", code: "loss_limit", message: "..." }), false);
  assert.equal(endsSession({ type: "snapshot", code: "suspended" }), false);
});
