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
  let clock = 0;
  const link = new TableConnection({
    url: "ws://h/ws", table: "t1", since: () => 0, onMessage: () => {}, WebSocketImpl: FakeSocket,
    setTimer: (fn, ms) => timers.push([fn, ms]), pingMs: 60000, deadMs: 4000, now: () => clock,
  });
  link.open();
  const socket = FakeSocket.made[0];
  socket.accept();
  assert.deepEqual(timers.map(([, ms]) => ms), [60000]);
  clock = 60000;
  timers[0][0]();  // a ping, the next ping's timer, and the ping's answer's deadline
  assert.deepEqual(timers.map(([, ms]) => ms), [60000, 4000, 60000]);
  socket.deliver({ type: "pong", server_time: 1 });
  clock = 64000;
  timers[2][0]();  // answered: the socket stays
  assert.equal(link.socket, socket);
  timers[1][0]();
  assert.deepEqual(socket.sent.slice(1), [{ type: "ping" }, { type: "ping" }]);
  link.close();
  timers.at(-1)[0]();  // the timers left after the close send nothing and stop
  assert.equal(socket.sent.length, 3);
  assert.equal(FakeSocket.made.length, 1);
});

test("the timer is called as a plain function, as a browser's setTimeout must be", () => {
  FakeSocket.made = [];
  const timers = [];
  function strictTimer(fn, ms) {  // a browser's setTimeout called as a method: TypeError
    if (this !== undefined) throw new TypeError("Illegal invocation");
    timers.push([fn, ms]);
  }
  const link = new TableConnection({
    url: "ws://h/ws", table: "t1", since: () => 0, onMessage: () => {}, WebSocketImpl: FakeSocket,
    setTimer: strictTimer, pingMs: 1000,
  });
  link.open();
  FakeSocket.made[0].accept();
  timers[0][0]();
  assert.deepEqual(FakeSocket.made[0].sent.at(-1), { type: "ping" });
  FakeSocket.made[0].drop();
  timers.at(-1)[0]();
  assert.equal(FakeSocket.made.length, 2);  // it called again
});

test("a socket that answers no ping is replaced, and calls again back off up to a cap", () => {
  FakeSocket.made = [];
  const timers = [], status = [];
  let clock = 0;
  const link = new TableConnection({
    url: "ws://h/ws", table: "t1", since: () => 7, onMessage: () => {}, onStatus: (open) => status.push(open),
    WebSocketImpl: FakeSocket, setTimer: (fn, ms) => timers.push([fn, ms]), now: () => clock,
    pingMs: 0, deadMs: 3000, retryMs: 250, maxRetryMs: 2000, random: () => 0.5,
  });
  link.open();
  const first = FakeSocket.made[0];
  first.accept();
  clock = 10;
  link.check();  // the browser is online again: is this socket still alive?
  assert.deepEqual(first.sent.at(-1), { type: "ping" });
  clock = 3010;
  timers.shift()[0]();  // no answer: given up, and called again
  assert.equal(first.readyState, 3);
  assert.deepEqual(status, [true, false]);
  const waits = [];
  for (let i = 0; i < 6; i += 1) {
    const [again, ms] = timers.shift();
    waits.push(ms);
    again();
    FakeSocket.made.at(-1).drop();  // the server is still down
  }
  assert.deepEqual(waits, [250, 500, 1000, 2000, 2000, 2000]);
  const [again, ms] = timers.shift();
  again();
  FakeSocket.made.at(-1).accept();  // back: it joins where it was
  assert.deepEqual(FakeSocket.made.at(-1).sent, [{ type: "join", table: "t1", since: 7 }]);
  assert.equal(ms, 2000);
  assert.equal(status.at(-1), true);
  link.close();
  assert.equal(timers.length, 0);
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
