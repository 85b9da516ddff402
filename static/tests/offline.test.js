// @ts-check
import assert from "node:assert/strict";
import test from "node:test";

import { pushMissingReason } from "../js/alerts.js";
import { KEEP_EVENTS, LastStates, keptState } from "../js/laststate.js";

class MemoryStorage {
  constructor() {
    /** @type {Map<string, string>} */
    this.map = new Map();
  }
  /** @param {string} k */
  getItem(k) {
    return this.map.get(k) ?? null;
  }
  /** @param {string} k @param {string} v */
  setItem(k, v) {
    this.map.set(k, v);
  }
  /** @param {string} k */
  removeItem(k) {
    this.map.delete(k);
  }
}

/** @param {number|null} you @returns {any} */
const stateOf = (you) => ({
  type: "state",
  seq: 7,
  game_seq: 3,
  you,
  room: { id: "r1", game: "blokus", seats: [] },
  view: { hand: ["mine"] },
  to_act: [0],
  legal_moves: [{ piece: "I1" }],
  legal_compact: { form: "shapes" },
  result: null,
  events: [{ seq: 7, kind: "move" }],
  events_truncated: true,
  events_from: 7,
});

test("the kept state is the seat's message as received, with the page's events and no legal moves", () => {
  const events = Array.from({ length: KEEP_EVENTS + 5 }, (_, i) => ({ seq: i + 1, kind: "chat" }));
  const kept = keptState(stateOf(0), events);
  assert.deepEqual(kept.view, { hand: ["mine"] });
  assert.deepEqual(kept.legal_moves, []);
  assert.equal("legal_compact" in kept, false);
  assert.equal("events_truncated" in kept, false);
  assert.equal(kept.events.length, KEEP_EVENTS);
  assert.equal(kept.events[0].seq, 6, "the newest events are kept");
});

test("a state is kept per room only for a seat, and forgotten with it", () => {
  const storage = new MemoryStorage();
  const store = new LastStates(storage);
  store.save("r1", stateOf(null), []);
  assert.equal(store.get("r1"), null, "a spectator's view is not kept");
  store.save("r1", stateOf(1), []);
  assert.equal(store.get("r1")?.you, 1);
  assert.equal(store.get("r2"), null);
  storage.setItem("spieltisch.last.r2", "{broken");
  assert.equal(store.get("r2"), null, "a broken entry reads as none");
  store.remove("r1");
  assert.equal(store.get("r1"), null);
});

test("a full storage loses the state, not the page", () => {
  const full = { getItem: () => null, setItem: () => { throw new Error("QuotaExceededError"); }, removeItem: () => {} };
  new LastStates(full).save("r1", stateOf(0), []);
  assert.equal(new LastStates(null).get("r1"), null);
});

test("without push, an iPhone or iPad outside the Home Screen app is told the way there", () => {
  const iphone = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1";
  const ipad = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15";
  const firefox = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0";
  assert.equal(pushMissingReason({ userAgent: iphone, maxTouchPoints: 5, standalone: false }), "alerts.push_home_screen");
  assert.equal(pushMissingReason({ userAgent: ipad, maxTouchPoints: 5, standalone: false }), "alerts.push_home_screen");
  assert.equal(pushMissingReason({ userAgent: ipad, maxTouchPoints: 0, standalone: false }), "alerts.push_unsupported", "a Mac");
  assert.equal(pushMissingReason({ userAgent: iphone, maxTouchPoints: 5, standalone: true }), "alerts.push_unsupported", "already on the Home Screen");
  assert.equal(pushMissingReason({ userAgent: firefox, maxTouchPoints: 0, standalone: false }), "alerts.push_unsupported");
});
