// @ts-check
/**
 * The last state of each table this browser holds a seat at, in localStorage, so
 * that the room page and "Your tables" can show it without a network (marked as
 * offline). What is kept is the seat's own state message as the server sent it,
 * with the events the page holds — and without its legal moves, since nothing can
 * be played offline. Never the token: that stays in tokens.js alone.
 */

/** @typedef {import("./messages.js").StateMessage} StateMessage */
/** @typedef {import("./messages.js").RoomEvent} RoomEvent */

const PREFIX = "spieltisch.last.";
/** the newest events kept with a state (the log a page shows offline) */
export const KEEP_EVENTS = 300;

/**
 * What is kept of a state message. Pure.
 * @param {StateMessage} msg
 * @param {RoomEvent[]} events  every event the page holds, oldest first
 * @returns {StateMessage}
 */
export function keptState(msg, events) {
  const { legal_compact: _compact, events_truncated: _truncated, events_from: _from, ...rest } = /** @type {StateMessage & {legal_compact?: unknown}} */ (msg);
  return { ...rest, legal_moves: [], events: events.slice(-KEEP_EVENTS) };
}

/** A small store over any Storage-like object (localStorage in the page, a Map in tests). */
export class LastStates {
  /** @param {Pick<Storage, "getItem"|"setItem"|"removeItem">|null} storage */
  constructor(storage) {
    this.storage = storage;
  }

  /** @param {string} room @param {StateMessage} msg @param {RoomEvent[]} events */
  save(room, msg, events) {
    if (msg.you == null) return; // only the tables this browser has a seat at
    try {
      this.storage?.setItem(PREFIX + room, JSON.stringify(keptState(msg, events)));
    } catch {
      // a full quota: this table opens online only
    }
  }

  /** @param {string} room @returns {StateMessage|null} */
  get(room) {
    try {
      const raw = this.storage?.getItem(PREFIX + room);
      const msg = raw ? JSON.parse(raw) : null;
      return msg && typeof msg === "object" && msg.type === "state" && msg.room && Array.isArray(msg.events) ? msg : null;
    } catch {
      return null;
    }
  }

  /** @param {string} room */
  remove(room) {
    try {
      this.storage?.removeItem(PREFIX + room);
    } catch {
      // nothing kept
    }
  }
}

/** The page's store (localStorage when the browser allows it). */
export function lastStates() {
  let storage = null;
  try {
    storage = globalThis.localStorage ?? null;
  } catch {
    storage = null;
  }
  return new LastStates(storage);
}
