// @ts-check
/**
 * "Notify me" once for all my tables: the alert set-up this browser keeps per channel
 * (this device's push subscription, an e-mail address), which tables were switched off
 * on their own page, and which seats already got the set-up. `follow` hands the kept
 * set-up to every seat this browser holds that has not got it yet (a table created,
 * claimed, imported or carried over from another device later) with one request,
 * POST /api/alerts: the tokens go in its body. Everything is in localStorage, on this
 * device only.
 */

import { request } from "./api.js";
import { pref } from "./tokens.js";

const KEY = "spieltisch.alerts.all";

/**
 * @typedef {object} PushSetUp
 * @property {{endpoint: string, keys: {p256dh: string, auth: string}}} subscription
 * @property {Record<string, boolean>} [kinds]
 *
 * @typedef {object} EmailSetUp
 * @property {string} address
 * @property {boolean} [each_turn]
 * @property {Record<string, boolean>} [kinds]
 *
 * @typedef {object} Kept
 * @property {PushSetUp} [push]     set up for all my tables on this device
 * @property {EmailSetUp} [email]
 * @property {string} [lang]
 * @property {string[]} off         rooms whose own page switched their alerts off
 * @property {Record<string, Record<string, string>>} applied  channel -> room -> token given the set-up
 *
 * @typedef {{room: string, token: string}} HeldSeat
 */

export const CHANNELS = /** @type {const} */ (["push", "email"]);

/** The kept set-up over any Storage-like object (localStorage in the page, a Map in tests). */
export class KeptAlerts {
  /** @param {Pick<Storage, "getItem"|"setItem">|null} storage */
  constructor(storage) {
    this.storage = storage;
  }

  /** @returns {Kept} */
  read() {
    /** @type {Kept} */
    const empty = { off: [], applied: {} };
    try {
      const raw = this.storage?.getItem(KEY);
      const data = raw ? JSON.parse(raw) : null;
      if (!data || typeof data !== "object" || Array.isArray(data)) return empty;
      return { ...data, off: Array.isArray(data.off) ? data.off : [], applied: data.applied && typeof data.applied === "object" ? data.applied : {} };
    } catch {
      return empty;
    }
  }

  /** @param {Kept} data */
  write(data) {
    try {
      this.storage?.setItem(KEY, JSON.stringify(data));
    } catch {
      // private mode or a full quota: the set-up stays on the tables that have it
    }
  }

  /** @param {(kept: Kept) => void} change */
  update(change) {
    const data = this.read();
    change(data);
    this.write(data);
  }

  /** Whether this table's own page switched its alerts off. @param {string} room */
  isOff(room) {
    return this.read().off.includes(room);
  }

  /** @param {string} room @param {boolean} off */
  setOff(room, off) {
    this.update((k) => {
      k.off = k.off.filter((r) => r !== room);
      if (off) k.off.push(room);
      for (const channel of CHANNELS) if (k.applied[channel]) delete k.applied[channel][room];
    });
  }

  /**
   * Keep a channel's set-up for all my tables (null: forget it). The seats in `given`
   * have it already.
   * @param {"push"|"email"} channel @param {PushSetUp|EmailSetUp|null} setUp
   * @param {HeldSeat[]} [given] @param {string} [lang]
   */
  keep(channel, setUp, given = [], lang) {
    this.update((k) => {
      if (setUp) /** @type {any} */ (k)[channel] = setUp;
      else delete k[channel];
      k.applied[channel] = Object.fromEntries(setUp ? given.map((s) => [s.room, s.token]) : []);
      if (lang) k.lang = lang;
    });
  }

  /**
   * The seats still to be given a channel's set-up: held, not switched off, not given it
   * with the token held now. Pure.
   * @param {"push"|"email"} channel @param {HeldSeat[]} held
   * @returns {HeldSeat[]}
   */
  pending(channel, held) {
    const k = this.read();
    if (!k[channel]) return [];
    const given = k.applied[channel] ?? {};
    return held.filter((s) => !k.off.includes(s.room) && given[s.room] !== s.token);
  }

  /** @param {"push"|"email"} channel @param {HeldSeat[]} seats */
  given(channel, seats) {
    this.update((k) => {
      k.applied[channel] = { ...(k.applied[channel] ?? {}), ...Object.fromEntries(seats.map((s) => [s.room, s.token])) };
    });
  }
}

/** The page's kept set-up (localStorage when the browser allows it). */
export function keptAlerts() {
  let storage = null;
  try {
    storage = globalThis.localStorage ?? null;
  } catch {
    storage = null;
  }
  return new KeptAlerts(storage);
}

/**
 * The body of POST /api/alerts for one channel. Pure.
 * @param {"push"|"email"} channel @param {PushSetUp|EmailSetUp} setUp
 * @param {HeldSeat[]} seats @param {HeldSeat[]} proof @param {string} [lang]
 */
export function setUpBody(channel, setUp, seats, proof, lang) {
  const picked = channel === "push" ? { kind: "push", ...setUp } : { kind: "email", ...setUp };
  return {
    seats: seats.map(({ room, token }) => ({ room, token })),
    proof: proof.map(({ room, token }) => ({ room, token })),
    ...(lang ? { lang } : {}),
    channel: picked,
  };
}

/**
 * Set up one channel for these seats at once; the seats this browser holds besides
 * show the server the address was confirmed before.
 * @param {"push"|"email"} channel @param {PushSetUp|EmailSetUp} setUp
 * @param {HeldSeat[]} seats @param {HeldSeat[]} held @param {string} [lang]
 * @returns {Promise<{seats: Array<{room: string, set: boolean}>, email_confirmed: boolean|null}>}
 */
export async function setUpMany(channel, setUp, seats, held, lang) {
  const rooms = new Set(seats.map((s) => s.room));
  const proof = held.filter((s) => !rooms.has(s.room)).slice(0, 100);
  const chunk = seats.slice(0, 100);
  return request("POST", "/api/alerts", { body: setUpBody(channel, setUp, chunk, proof, lang) });
}

/**
 * Give the kept set-up to every held seat that lacks it (a table joined since), or
 * only to the table `only`; every held seat serves as proof.
 * @param {KeptAlerts} kept @param {HeldSeat[]} held @param {string|null} [only]
 * @returns {Promise<number>} how many seats got a channel
 */
export async function follow(kept, held, only = null) {
  let count = 0;
  const state = kept.read();
  for (const channel of CHANNELS) {
    const setUp = state[channel];
    const seats = kept.pending(channel, held).filter((s) => only === null || s.room === only);
    if (!setUp || !seats.length) continue;
    try {
      const answer = await setUpMany(channel, setUp, seats, held, state.lang);
      kept.given(channel, seats);
      count += answer.seats.filter((s) => s.set).length;
      if (channel === "push") for (const s of answer.seats) if (s.set) rememberDevice(s.room, /** @type {PushSetUp} */ (setUp).subscription.endpoint);
    } catch (err) {
      console.warn("alerts for a new table could not be set up", err);
    }
  }
  return count;
}

/** The endpoint this device subscribed with at a table (what "Notify me" shows as on). @param {string} room @param {string|null} endpoint */
export function rememberDevice(room, endpoint) {
  pref(`push.${room}`, endpoint);
}
