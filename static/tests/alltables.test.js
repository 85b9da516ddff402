// @ts-check
import test from "node:test";
import assert from "node:assert/strict";
import { KeptAlerts, setUpBody } from "../js/alltables.js";

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

const mail = { address: "ben@example.org" };

test("nothing is pending until a channel is kept for all my tables", () => {
  const kept = new KeptAlerts(new MemoryStorage());
  assert.deepEqual(kept.pending("email", [{ room: "a", token: "t" }]), []);
});

test("a seat taken later is pending; one given the set-up is not", () => {
  const kept = new KeptAlerts(new MemoryStorage());
  kept.keep("email", mail, [{ room: "a", token: "ta" }]);
  const held = [
    { room: "a", token: "ta" },
    { room: "b", token: "tb" },
  ];
  assert.deepEqual(kept.pending("email", held), [{ room: "b", token: "tb" }]);
  assert.deepEqual(kept.pending("push", held), [], "push was never kept");
  kept.given("email", [{ room: "b", token: "tb" }]);
  assert.deepEqual(kept.pending("email", held), []);
  assert.deepEqual(kept.pending("email", [{ room: "a", token: "new" }]), [{ room: "a", token: "new" }], "a new seat at the same table");
});

test("a table switched off stays off for the kept set-up until switched on", () => {
  const kept = new KeptAlerts(new MemoryStorage());
  kept.keep("email", mail, []);
  kept.setOff("b", true);
  const held = [
    { room: "a", token: "ta" },
    { room: "b", token: "tb" },
  ];
  assert.deepEqual(kept.pending("email", held), [{ room: "a", token: "ta" }]);
  kept.keep("email", { ...mail, each_turn: true }, [{ room: "a", token: "ta" }]);
  assert.ok(kept.isOff("b"), "setting all my tables up again does not switch it back on");
  kept.setOff("b", false);
  assert.deepEqual(kept.pending("email", held), [{ room: "b", token: "tb" }]);
});

test("forgetting a channel stops handing it on", () => {
  const kept = new KeptAlerts(new MemoryStorage());
  kept.keep("email", mail, []);
  kept.keep("email", null);
  assert.deepEqual(kept.pending("email", [{ room: "a", token: "ta" }]), []);
});

test("broken storage reads as nothing kept", () => {
  const storage = new MemoryStorage();
  storage.setItem("spieltisch.alerts.all", "[1,");
  assert.deepEqual(new KeptAlerts(storage).read(), { off: [], applied: {} });
});

test("the request carries tokens in its body, proof apart", () => {
  const body = setUpBody("email", mail, [{ room: "a", token: "ta" }], [{ room: "b", token: "tb" }], "de");
  assert.deepEqual(body, {
    seats: [{ room: "a", token: "ta" }],
    proof: [{ room: "b", token: "tb" }],
    lang: "de",
    channel: { kind: "email", address: "ben@example.org" },
  });
});
