// @ts-check
import test from "node:test";
import assert from "node:assert/strict";
import { sendMove } from "../js/games/sending.js";

function fakeRoot() {
  const classes = new Set();
  return {
    classes,
    classList: { add: (c) => classes.add(c), remove: (c) => classes.delete(c) },
  };
}

test("a move is sent while the root is marked busy, and the answer is reported", async () => {
  const root = fakeRoot();
  /** @type {boolean[]} */
  const busyWhileSending = [];
  const ok = await sendMove(/** @type {any} */ (root), async () => {
    busyWhileSending.push(root.classes.has("game-busy"));
  }, { piece: "I1" });
  assert.equal(ok, true);
  assert.deepEqual(busyWhileSending, [true]);
  assert.equal(root.classes.has("game-busy"), false);
});

test("a refused move answers false and clears the busy mark", async () => {
  const root = fakeRoot();
  const ok = await sendMove(/** @type {any} */ (root), async () => {
    throw new Error("illegal_move");
  }, {});
  assert.equal(ok, false);
  assert.equal(root.classes.has("game-busy"), false);
});

test("after a move whose control is gone, the keyboard lands on the status line", async () => {
  const root = fakeRoot();
  /** @type {string[]} */
  const focused = [];
  const status = { tabIndex: 0, focus: () => focused.push("status") };
  const body = {};
  Object.assign(root, { querySelector: (/** @type {string} */ sel) => (sel === ".game-status" ? status : null) });
  const saved = globalThis.document;
  /** @type {any} */ (globalThis).document = { activeElement: body, body };
  try {
    assert.equal(await sendMove(/** @type {any} */ (root), async () => {}, {}), true);
    assert.deepEqual(focused, ["status"]);
    assert.equal(status.tabIndex, -1);
    // a control that is still there keeps the focus
    /** @type {any} */ (globalThis).document = { activeElement: { isConnected: true }, body };
    await sendMove(/** @type {any} */ (root), async () => {}, {});
    assert.deepEqual(focused, ["status"]);
  } finally {
    /** @type {any} */ (globalThis).document = saved;
  }
});
