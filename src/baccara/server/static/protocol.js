// The wire: HTTP calls, the shapes of the messages the client sends, and one table's
// WebSocket that reconnects by itself and asks for the events it missed (`since`).
// No DOM: fetch, WebSocket and the timer are injectable so node can test this module.

/** The messages a client sends (see server/realtime/sockets.py); amounts are integer cents. */
export const outgoing = {
  join: (table, since) => (since ? { type: "join", table, since } : { type: "join", table }),
  bet: (betId, kind, amount, round) => ({ type: "bet", bet_id: betId, kind, amount, round }),
  squeeze: (side, peel) => ({ type: "squeeze", side, peel: Math.round(peel * 100) / 100 }),
  seed: (seed) => ({ type: "seed", seed }),
  // a players' table (Chemin de Fer, Baccarat Banque: a stake on a `tableau`, L or R)
  sit: (buyIn) => ({ type: "sit", buy_in: buyIn }),
  // a decision names the one it answers, as the table's state shows it: `due` is its
  // {shoe, coup, decision} (a late, repeated or stale one is refused: server/tables/turns.py)
  act: (due, action, amount, tableau) => ({
    type: "act", action, ...(amount === undefined ? {} : { amount }), ...(tableau === undefined ? {} : { tableau }),
    shoe: due?.shoe ?? 0, coup: due?.coup ?? 0, decision: due?.decision ?? 0,
  }),
  leave: () => ({ type: "leave" }),
  ping: () => ({ type: "ping" }),
};

/** The errors with which the server closes a socket whose session has ended (a logout
 * elsewhere, a password change, a self-exclusion, the house's suspension). */
const SESSION_ENDED = new Set(["session_ended", "self_excluded", "suspended"]);

/** Whether a message says the player's session has ended: the page goes back to the login. */
export const endsSession = (m) => m.type === "error" && SESSION_ENDED.has(m.code);

/** GET (no body) or POST JSON to the server's API; throws the server's message on failure. */
export async function api(path, body, fetchImpl = globalThis.fetch) {
  const init = body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
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
 * the connection opening and closing. After a drop it reconnects every `retryMs` and
 * joins with `since` (the last event seq the caller has seen), until `close()`. While
 * open it sends a `ping` every `pingMs` (0: never), so that the server, which closes a
 * silent socket, keeps a page that only watches.
 */
export class TableConnection {
  constructor({ url, table, since, onMessage, onStatus = () => {},
    WebSocketImpl = globalThis.WebSocket, retryMs = 1000, pingMs = 60000, setTimer = setTimeout, now = Date.now }) {
    Object.assign(this, { url, table, since, onMessage, onStatus, WebSocketImpl, retryMs, pingMs, setTimer, now });
    this.socket = null;
    this.wanted = false;
  }

  open() {
    this.wanted = true;
    const socket = new this.WebSocketImpl(this.url);
    this.socket = socket;
    socket.onopen = () => {
      socket.send(JSON.stringify(outgoing.join(this.table, this.since())));
      this.onStatus(true);
      this.keepAlive(socket);
    };
    socket.onmessage = (event) => {
      this.onMessage({ ...JSON.parse(event.data), received_at: this.now() / 1000 });
    };
    socket.onclose = () => {
      if (this.socket !== socket || !this.wanted) return;
      this.onStatus(false);
      this.setTimer(() => { if (this.wanted && this.socket === socket) this.open(); }, this.retryMs);
    };
  }

  /** Ping every `pingMs` while `socket` is the one open. */
  keepAlive(socket) {
    if (!this.pingMs) return;
    this.setTimer(() => {
      if (this.socket !== socket || !this.wanted) return;
      if (this.send(outgoing.ping())) this.keepAlive(socket);
    }, this.pingMs);
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
