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
