// @ts-check
import test from "node:test";
import assert from "node:assert/strict";
import { deviceLink, hashWithoutSeats, mergeSeats, seatsFromHash } from "../js/devicelink.js";
import { SeatStore } from "../js/tokens.js";

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

const seats = [
  { room: "R1", token: "tok-1", seat: 0, name: "Zoë", game: "blokus", at: 2 },
  { room: "R2", token: "tok-2", seat: 3, name: "Ben", game: "m", at: 1 },
];

test("the link carries every seat in the fragment only, and reads back", () => {
  const link = deviceLink("https://play.example", seats);
  const url = new URL(link);
  assert.equal(url.pathname, "/");
  assert.equal(url.search, "", "nothing a server would see");
  assert.ok(!link.includes("tok-1"), "tokens are not spelled out in the link");
  assert.deepEqual(seatsFromHash(url.hash), [
    { room: "R1", token: "tok-1", seat: 0, name: "Zoë", game: "blokus" },
    { room: "R2", token: "tok-2", seat: 3, name: "Ben", game: "m" },
  ]);
});

test("a fragment without seats, or with nonsense, carries none", () => {
  for (const hash of ["", "#", "#token=abc", "#tables=", "#tables=%%%", "#tables=bnVsbA", "#tables=W1sxLDIsM11d"]) {
    assert.equal(seatsFromHash(hash), null, hash);
  }
});

test("dropping the seats keeps the rest of the fragment", () => {
  assert.equal(hashWithoutSeats("#tables=abc"), "");
  assert.equal(hashWithoutSeats("#tables=abc&x=1"), "#x=1");
});

test("merging adds new tables and never replaces a seat this browser holds", () => {
  const store = new SeatStore(new MemoryStorage());
  store.set("R2", { token: "mine", seat: 1 });
  const carried = seatsFromHash(new URL(deviceLink("https://play.example", seats)).hash) ?? [];
  assert.deepEqual(mergeSeats(store, carried), { added: 1, kept: 1 });
  assert.equal(store.get("R1")?.token, "tok-1");
  assert.equal(store.get("R2")?.token, "mine");
  assert.deepEqual(mergeSeats(store, carried), { added: 0, kept: 1 }, "a second time adds nothing");
});
