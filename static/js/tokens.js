// @ts-check
/**
 * Seat tokens this browser holds, one per room, in localStorage; and the
 * "resume on another device" link, which carries a token in the URL fragment
 * (never sent to the server, so never in a log).
 */

const KEY = "spieltisch.rooms";

/**
 * @typedef {object} SeatEntry
 * @property {string} token
 * @property {number} seat
 * @property {string} [name]
 * @property {string} [game]
 * @property {number} at  when this browser last used the room (ms since epoch)
 */

/**
 * The token in a fragment like `#token=abc` (other fragment parts are kept apart).
 * @param {string} hash  `location.hash`
 * @returns {string|null}
 */
export function tokenFromHash(hash) {
  const params = new URLSearchParams(hash.replace(/^#/, ""));
  const token = params.get("token");
  return token && token.trim() ? token.trim() : null;
}

/**
 * The fragment without its token part ("" when nothing else is left).
 * @param {string} hash
 * @returns {string}
 */
export function hashWithoutToken(hash) {
  const params = new URLSearchParams(hash.replace(/^#/, ""));
  params.delete("token");
  const rest = params.toString();
  return rest ? `#${rest}` : "";
}

/**
 * The personal link that resumes a seat on another device.
 * @param {string} origin  e.g. `location.origin`
 * @param {string} room
 * @param {string} token
 * @returns {string}
 */
export function resumeLink(origin, room, token) {
  return `${origin}/r/${encodeURIComponent(room)}#token=${encodeURIComponent(token)}`;
}

/**
 * The room's share link (watch or take a free seat).
 * @param {string} origin
 * @param {string} room
 */
export function shareLink(origin, room) {
  return `${origin}/r/${encodeURIComponent(room)}`;
}

/** A small store over any Storage-like object (localStorage in the page, a Map in tests). */
export class SeatStore {
  /** @param {Pick<Storage, "getItem"|"setItem">|null} storage */
  constructor(storage) {
    this.storage = storage;
  }

  /** @returns {Record<string, SeatEntry>} */
  all() {
    try {
      const raw = this.storage?.getItem(KEY);
      const data = raw ? JSON.parse(raw) : {};
      return data && typeof data === "object" && !Array.isArray(data) ? data : {};
    } catch {
      return {};
    }
  }

  /** @param {Record<string, SeatEntry>} data */
  save(data) {
    try {
      this.storage?.setItem(KEY, JSON.stringify(data));
    } catch {
      // private mode or a full quota: the page still works, it just forgets
    }
  }

  /** @param {string} room @returns {SeatEntry|null} */
  get(room) {
    const entry = this.all()[room];
    return entry && typeof entry.token === "string" ? entry : null;
  }

  /**
   * @param {string} room
   * @param {Partial<SeatEntry> & {token: string}} entry
   * @param {number} [now]
   */
  set(room, entry, now = Date.now()) {
    const data = this.all();
    data[room] = Object.assign({ seat: 0 }, data[room], entry, { at: now });
    this.save(data);
  }

  /** @param {string} room */
  remove(room) {
    const data = this.all();
    delete data[room];
    this.save(data);
  }

  /** Rooms, most recently used first. @returns {Array<SeatEntry & {room: string}>} */
  list() {
    return Object.entries(this.all())
      .filter(([, e]) => e && typeof e.token === "string")
      .map(([room, e]) => ({ ...e, room }))
      .sort((a, b) => (b.at || 0) - (a.at || 0));
  }
}

/** The page's store (localStorage when the browser allows it). */
export function seatStore() {
  let storage = null;
  try {
    storage = globalThis.localStorage ?? null;
  } catch {
    storage = null;
  }
  return new SeatStore(storage);
}

/**
 * A small preference in localStorage (language, display name, symbols on pieces).
 * @param {string} key
 * @param {string|null} [value]  set when given; removed when null
 * @returns {string|null}
 */
export function pref(key, value) {
  try {
    const storage = globalThis.localStorage;
    if (value === null) storage.removeItem(`spieltisch.${key}`);
    else if (value !== undefined) storage.setItem(`spieltisch.${key}`, value);
    return storage.getItem(`spieltisch.${key}`);
  } catch {
    return value ?? null;
  }
}
