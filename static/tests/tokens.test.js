// @ts-check
import test from "node:test";
import assert from "node:assert/strict";
import { SeatStore, hashWithoutToken, resumeLink, shareLink, tokenFromHash } from "../js/tokens.js";

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
}

test("a token in the fragment is found, and removed leaving the rest", () => {
  assert.equal(tokenFromHash("#token=abc-123"), "abc-123");
  assert.equal(tokenFromHash("#x=1&token=t0k"), "t0k");
  assert.equal(tokenFromHash(""), null);
  assert.equal(tokenFromHash("#token="), null);
  assert.equal(hashWithoutToken("#token=abc"), "");
  assert.equal(hashWithoutToken("#x=1&token=abc"), "#x=1");
});

test("resume and share links", () => {
  assert.equal(resumeLink("https://t.example", "r1", "a+b"), "https://t.example/r/r1#token=a%2Bb");
  assert.equal(tokenFromHash(new URL(resumeLink("https://t.example", "r1", "a+b")).hash), "a+b");
  assert.equal(shareLink("http://x", "room"), "http://x/r/room");
});

test("the seat store keeps one entry per room, newest first", () => {
  const store = new SeatStore(new MemoryStorage());
  store.set("r1", { token: "t1", seat: 0, game: "blokus" }, 1000);
  store.set("r2", { token: "t2", seat: 1 }, 2000);
  store.set("r1", { token: "t1b" }, 3000);
  assert.deepEqual(store.list().map((e) => e.room), ["r1", "r2"]);
  assert.equal(store.get("r1")?.token, "t1b");
  assert.equal(store.get("r1")?.game, "blokus", "old fields are kept");
  store.remove("r1");
  assert.equal(store.get("r1"), null);
});

test("a broken or missing storage does not break the page", () => {
  const storage = new MemoryStorage();
  storage.setItem("spieltisch.rooms", "{broken");
  assert.deepEqual(new SeatStore(storage).list(), []);
  const none = new SeatStore(null);
  none.set("r", { token: "t" });
  assert.equal(none.get("r"), null);
});
