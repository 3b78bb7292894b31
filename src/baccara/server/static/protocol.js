// The wire: HTTP calls, the shapes of the messages the client sends, and one table's
// WebSocket that reconnects by itself and asks for the events it missed (`since`).
// No DOM: fetch, WebSocket and the timer are injectable so node can test this module.

/** The messages a client sends (see server/realtime/sockets.py); amounts are integer cents. */
export const outgoing = {
  join: (table, since) => (since ? { type: "join", table, since } : { type: "join", table }),
  bet: (betId, kind, amount, round) => ({ type: "bet", bet_id: betId, kind, amount, round }),
  squeeze: (side, peel, first) => ({ type: "squeeze", side, peel: Math.round(peel * 100) / 100, ...(first === undefined ? {} : { first }) }),
  seed: (seed) => ({ type: "seed", seed }),
  // a players' table (Chemin de Fer, Baccarat Banque: a stake on a `tableau`, L or R)
  sit: (buyIn) => ({ type: "sit", buy_in: buyIn }),
  // a decision names the one it answers, as the table's state shows it: `due` is its
  // {shoe, coup, decision} (a late, repeated or stale one is refused: server/tables/turns.py)
  act: (due, action, amount, tableau) => ({
    type: "act", action, ...(amount === undefined ? {} : { amount }), ...(tableau === undefined ? {} : { tableau }),
    shoe: due?.shoe ?? 0, coup: due?.coup ?? 0, decision: due?.decision ?? 0,
  }),
  leave: (stay = false) => (stay ? { type: "leave", stay } : { type: "leave" }),
  sitOut: (out) => ({ type: "sit_out", out }),
  ping: () => ({ type: "ping" }),
};

/** The errors with which the server closes a socket whose session has ended (a logout
 * elsewhere, a password change, a self-exclusion, the house's suspension). */
const SESSION_ENDED = new Set(["session_ended", "self_excluded", "suspended"]);

/** Why the house holds a table (a `house_pause` event's `reason`, a state's
 * `house_paused`) as the table's phase line says it: "Paused by the house". */
export const heldLabel = (reason) => reason.charAt(0).toUpperCase() + reason.slice(1);

/** Whether a message says the player's session has ended: the page goes back to the login. */
export const endsSession = (m) => m.type === "error" && SESSION_ENDED.has(m.code);

/** GET (no body) or POST JSON to the server's API; throws the server's message on failure. */
export async function api(path, body, fetchImpl = globalThis.fetch, method = "POST") {
  const init = body === undefined ? {} : {
    method, headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  };
  const reply = await fetchImpl(path, { credentials: "same-origin", ...init });
  const data = await reply.json().catch(() => ({}));
  if (!reply.ok) throw new Error(data.message || reply.statusText);
  return data;
}

/** The WebSocket address on the page's own host. */
export function socketUrl({ protocol, host }) {
  return (protocol === "https:" ? "wss://" : "ws://") + host + "/ws";
}

/**
 * One table's connection. Every message received goes to `onMessage` with
 * `received_at` (the client's clock, in seconds) added; `onStatus(true|false)` reports
 * the connection opening and closing. After a drop it reconnects, sooner first
 * (`retryMs`, doubled at each failure up to `maxRetryMs`, a little jitter so that a
 * restarted server is not called by every page at once), and joins with `since` (the
 * last event seq the caller has seen), until `close()`. While open it pings every
 * `pingMs` (0: never), so that the server, which closes a silent socket, keeps a page
 * that only watches; a socket that answers nothing for `deadMs` after a ping (a network
 * that went away without closing it) is given up and replaced. `check()` pings at once
 * (the browser says it is online again, the tab is shown again).
 */
export class TableConnection {
  constructor({ url, table, since, onMessage, onStatus = () => {},
    WebSocketImpl = globalThis.WebSocket, retryMs = 250, maxRetryMs = 2000, pingMs = 20000, deadMs = 4000,
    setTimer = (fn, ms) => setTimeout(fn, ms), now = Date.now, random = Math.random }) {
    // kept as plain functions, never called as methods: a browser's `setTimeout` called
    // with another `this` throws "Illegal invocation"
    this.timer = (fn, ms) => setTimer(fn, ms);
    this.clock = () => now();
    this.jitter = () => random();
    Object.assign(this, { url, table, since, onMessage, onStatus, WebSocketImpl, retryMs, maxRetryMs, pingMs, deadMs });
    this.socket = null;
    this.wanted = false;
    this.failures = 0;
    this.heard = 0;  // when the socket in use last received anything
  }

  open() {
    this.wanted = true;
    const socket = new this.WebSocketImpl(this.url);
    this.socket = socket;
    socket.onopen = () => {
      this.failures = 0;
      this.heard = this.clock();
      socket.send(JSON.stringify(outgoing.join(this.table, this.since())));
      this.onStatus(true);
      this.keepAlive(socket);
    };
    socket.onmessage = (event) => {
      this.heard = this.clock();
      this.onMessage({ ...JSON.parse(event.data), received_at: this.heard / 1000 });
    };
    socket.onclose = () => this.lost(socket);
  }

  /** `socket` is gone: say so once, and call again after the backoff. */
  lost(socket) {
    if (this.socket !== socket || !this.wanted) return;
    this.socket = null;
    this.onStatus(false);
    const wait = Math.min(this.maxRetryMs, this.retryMs * 2 ** this.failures) * (0.8 + 0.4 * this.jitter());
    this.failures += 1;
    this.timer(() => { if (this.wanted && this.socket === null) this.open(); }, Math.round(wait));
  }

  /** Ping every `pingMs` while `socket` is the one open. */
  keepAlive(socket) {
    if (!this.pingMs) return;
    this.timer(() => {
      if (this.socket !== socket || !this.wanted) return;
      if (this.ping(socket)) this.keepAlive(socket);
    }, this.pingMs);
  }

  /** Ping now; a socket that answers nothing within `deadMs` is replaced. */
  check() {
    if (this.socket) this.ping(this.socket);
  }

  ping(socket) {
    if (!this.send(outgoing.ping())) return false;
    const asked = this.clock();
    this.timer(() => {
      if (this.socket === socket && this.heard < asked) {
        socket.onclose = null;
        try { socket.close(); } catch { /* already closed */ }
        this.lost(socket);
      }
    }, this.deadMs);
    return true;
  }

  /** Send one message; false when the socket is not open (the caller keeps what matters). */
  send(message) {
    if (!this.socket || this.socket.readyState !== 1) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }

  close() {
    this.wanted = false;
    this.socket?.close();
    this.socket = null;
  }
}
