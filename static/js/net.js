// @ts-check
/**
 * The room's live connection: hello with the seat token and the last seq seen,
 * then state messages. Drops and server restarts reconnect by themselves with
 * backoff and `since`, so the page catches up without a reload.
 */

import { request } from "./api.js";
import { backoffDelay } from "./backoff.js";
import { closePlan, parseServerMessage } from "./messages.js";

/** @typedef {import("./messages.js").StateMessage} StateMessage */
/** @typedef {import("./messages.js").PresenceMessage} PresenceMessage */
/** @typedef {import("./messages.js").ErrorMessage} ErrorMessage */
/** @typedef {import("./messages.js").RoomEvent} RoomEvent */
/** @typedef {"connecting"|"open"|"reconnecting"|"gone"} Status */

/**
 * @typedef {object} SocketHandlers
 * @property {(msg: StateMessage) => void} onState
 * @property {(msg: PresenceMessage) => void} [onPresence]
 * @property {(status: Status, reason?: string) => void} [onStatus]
 * @property {(msg: ErrorMessage) => void} [onError]   errors not tied to a pending request
 * @property {() => string|null|void} [onBadToken]     the server refused our token (4401);
 *                                                     returns the token to try next (none: watch)
 * @property {(events: RoomEvent[]) => void} [onEvents] events a state message left out, fetched
 */

const PING_EVERY = 20000;
const SILENCE_LIMIT = 45000;

/**
 * The events a state message left out: it says `events_truncated` when the client
 * was more than one message's worth of events behind. `null`: nothing to fetch.
 * @param {number|null} lastSeq  the last seq the client had seen before this message
 * @param {StateMessage} msg
 * @returns {{after: number, upTo: number}|null}
 */
export function missedEvents(lastSeq, msg) {
  if (!msg.events_truncated || typeof msg.events_from !== "number") return null;
  const after = lastSeq ?? 0;
  const upTo = msg.events_from - 1;
  return upTo > after ? { after, upTo } : null;
}

/**
 * Fetch the events after `gap.after` up to `gap.upTo`, page by page.
 * @param {{after: number, upTo: number}} gap
 * @param {(after: number, limit: number) => Promise<{events: RoomEvent[]}>} fetchPage  `GET /events`
 * @returns {Promise<RoomEvent[]>}
 */
export async function fetchMissed(gap, fetchPage) {
  /** @type {RoomEvent[]} */
  const found = [];
  let after = gap.after;
  while (after < gap.upTo) {
    const page = await fetchPage(after, Math.min(1000, gap.upTo - after));
    const fresh = page.events.filter((e) => e.seq > after && e.seq <= gap.upTo);
    if (!fresh.length) break;
    found.push(...fresh);
    after = fresh[fresh.length - 1].seq;
  }
  return found;
}

export class SocketRequestError extends Error {
  /** @param {string} code @param {string} message @param {Record<string, any>} [body] */
  constructor(code, message, body = {}) {
    super(message);
    this.code = code;
    this.body = body;
  }
}

export class RoomSocket {
  /**
   * @param {string} room
   * @param {string|null} token
   * @param {SocketHandlers} handlers
   */
  constructor(room, token, handlers) {
    this.room = room;
    this.token = token;
    this.handlers = handlers;
    /** @type {number|null} */
    this.lastSeq = null;
    /** @type {WebSocket|null} */
    this.ws = null;
    /** @type {Status} */
    this.status = "connecting";
    this.attempt = 0;
    this.nextId = 1;
    /** @type {Map<string, {resolve: (seq: number) => void, reject: (err: Error) => void}>} */
    this.pending = new Map();
    /** @type {ReturnType<typeof setTimeout>|undefined} */
    this.retryTimer = undefined;
    /** @type {ReturnType<typeof setInterval>|undefined} */
    this.pingTimer = undefined;
    this.lastHeard = Date.now();
    this.stopped = false;
    this.wake = () => {
      if (this.status === "reconnecting" && !this.stopped) this.connectNow();
    };
    globalThis.addEventListener?.("online", this.wake);
    globalThis.document?.addEventListener("visibilitychange", this.wake);
  }

  get url() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    return `${proto}//${location.host}/api/rooms/${encodeURIComponent(this.room)}/ws`;
  }

  /** @param {Status} status @param {string} [reason] */
  setStatus(status, reason) {
    this.status = status;
    this.handlers.onStatus?.(status, reason);
  }

  connect() {
    this.stopped = false;
    this.connectNow();
  }

  connectNow() {
    clearTimeout(this.retryTimer);
    if (this.ws) {
      const old = this.ws;
      this.ws = null;
      old.onclose = old.onmessage = old.onerror = old.onopen = null;
      old.close();
    }
    const ws = new WebSocket(this.url);
    this.ws = ws;
    ws.onopen = () => {
      this.lastHeard = Date.now();
      // the compact legal moves: a sixth of the bytes for an early Blokus turn
      ws.send(JSON.stringify({ type: "hello", token: this.token, since: this.lastSeq, legal_form: "compact" }));
    };
    ws.onmessage = (event) => this.receive(String(event.data));
    ws.onclose = (event) => this.closed(event.code);
    ws.onerror = () => {
      // onclose follows and decides what to do
    };
    clearInterval(this.pingTimer);
    this.pingTimer = setInterval(() => this.heartbeat(), PING_EVERY);
  }

  heartbeat() {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return;
    if (Date.now() - this.lastHeard > SILENCE_LIMIT) {
      // a half-open connection: nothing heard for too long
      this.ws.close();
      return;
    }
    this.ws.send(JSON.stringify({ type: "ping", id: `p${this.nextId++}` }));
  }

  /** @param {string} text */
  receive(text) {
    this.lastHeard = Date.now();
    const msg = parseServerMessage(text);
    if (!msg) return;
    switch (msg.type) {
      case "state":
        if (this.status !== "open") {
          this.attempt = 0;
          this.setStatus("open");
        }
        {
          const gap = missedEvents(this.lastSeq, msg);
          this.lastSeq = msg.seq;
          this.handlers.onState(msg);
          if (gap) this.catchUp(gap, 0);
        }
        break;
      case "presence":
        this.handlers.onPresence?.(msg);
        break;
      case "ack": {
        const key = String(msg.id);
        this.pending.get(key)?.resolve(msg.seq);
        this.pending.delete(key);
        break;
      }
      case "error": {
        const key = msg.id == null ? null : String(msg.id);
        const waiting = key === null ? undefined : this.pending.get(key);
        if (waiting && key !== null) {
          this.pending.delete(key);
          waiting.reject(new SocketRequestError(msg.code, msg.message, msg));
        } else if (msg.code === "bad_token" && this.status !== "open") {
          // the answer to our hello: the 4401 close that follows says what happens next
        } else {
          this.handlers.onError?.(msg);
        }
        break;
      }
      default:
        break;
    }
  }

  /**
   * Fetch what a state message left out, retrying with backoff until it arrives.
   * @param {{after: number, upTo: number}} gap @param {number} attempt
   */
  async catchUp(gap, attempt) {
    const path = `/api/rooms/${encodeURIComponent(this.room)}/events`;
    try {
      const missed = await fetchMissed(gap, (after, limit) => request("GET", `${path}?after=${after}&limit=${limit}`));
      if (!this.stopped) this.handlers.onEvents?.(missed);
    } catch {
      if (!this.stopped) setTimeout(() => this.catchUp(gap, attempt + 1), backoffDelay(attempt));
    }
  }

  /** @param {number} code */
  closed(code) {
    this.ws = null;
    clearInterval(this.pingTimer);
    for (const { reject } of this.pending.values()) reject(new SocketRequestError("network", "disconnected"));
    this.pending.clear();
    if (this.stopped) return;
    const plan = closePlan(code);
    if (plan.action === "give_up") {
      this.setStatus("gone", plan.reason);
      return;
    }
    if (plan.action === "drop_token") {
      this.token = this.handlers.onBadToken?.() ?? null;
    }
    const delay = Math.max(plan.minDelay, this.attempt === 0 ? 0 : backoffDelay(this.attempt - 1));
    this.attempt += 1;
    this.setStatus("reconnecting", plan.reason);
    this.retryTimer = setTimeout(() => this.connectNow(), delay);
  }

  /** Use another token (after sitting down): says hello again. @param {string|null} token */
  setToken(token) {
    this.token = token;
    if (!this.stopped) this.connectNow();
  }

  get open() {
    return !!this.ws && this.ws.readyState === WebSocket.OPEN && this.status === "open";
  }

  /**
   * Send a message that the server acknowledges; resolves with the new seq.
   * @param {Record<string, unknown>} message
   * @returns {Promise<number>}
   */
  request(message) {
    if (!this.open || !this.ws) return Promise.reject(new SocketRequestError("network", "not connected"));
    const id = `c${this.nextId++}`;
    const ws = this.ws;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      ws.send(JSON.stringify({ ...message, id }));
    });
  }

  /** @param {number} seq @param {unknown} move */
  move(seq, move) {
    return this.request({ type: "move", seq, move });
  }

  /** @param {string} text */
  chat(text) {
    return this.request({ type: "chat", text });
  }

  close() {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    clearInterval(this.pingTimer);
    globalThis.removeEventListener?.("online", this.wake);
    globalThis.document?.removeEventListener("visibilitychange", this.wake);
    this.ws?.close();
    this.ws = null;
  }
}
