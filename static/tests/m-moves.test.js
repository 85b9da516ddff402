// @ts-check
import test from "node:test";
import assert from "node:assert/strict";
import { LegalMoves } from "../js/games/m/moves.js";

test("placements are indexed by card and by cell, negative coordinates included", () => {
  const moves = new LegalMoves([
    { type: "place", card: "red-20-cube", at: [-1, 0] },
    { type: "place", card: "red-20-cube", at: [2, 4] },
    { type: "place", card: "blue-0-a", at: [-1, 0] },
    { type: "pass" },
    { type: "pass", swap: "red-20-cube" },
    { type: "pass", swap: "blue-0-a" },
  ]);
  assert.deepEqual(moves.cellsFor("red-20-cube"), [[-1, 0], [2, 4]]);
  assert.deepEqual(moves.cellsFor("green-10-circle"), []);
  assert.deepEqual(moves.cellsFor(null), []);
  assert.deepEqual(moves.cardsAt([-1, 0]), ["red-20-cube", "blue-0-a"]);
  assert.ok(moves.allows("blue-0-a", [-1, 0]));
  assert.ok(!moves.allows("blue-0-a", [2, 4]));
  assert.ok(moves.canPlace && moves.canPass && moves.pass && moves.any);
  assert.deepEqual([...moves.swaps].sort(), ["blue-0-a", "red-20-cube"]);
});

test("a forced pass with an empty pile offers no swap", () => {
  const moves = new LegalMoves([{ type: "pass" }]);
  assert.ok(!moves.canPlace);
  assert.ok(moves.pass && moves.canPass);
  assert.equal(moves.swaps.size, 0);
});

test("with no token and a card that fits, there is no pass to offer", () => {
  const moves = new LegalMoves([{ type: "place", card: "red-20-cube", at: [0, 0] }]);
  assert.ok(!moves.canPass);
});

test("takes and line choices, and nothing at all when it is not your turn", () => {
  const take = new LegalMoves([{ type: "take", card: "red-20-cube" }, { type: "take", card: "blue-0-b" }]);
  assert.deepEqual([...take.takes], ["red-20-cube", "blue-0-b"]);
  assert.ok(take.any && !take.canPlace && !take.canPass);
  const line = new LegalMoves([{ type: "line", line: "row" }, { type: "line", line: "col" }]);
  assert.deepEqual(line.lines, ["row", "col"]);
  const none = new LegalMoves([]);
  assert.ok(!none.any);
});

test("things that are not moves are ignored", () => {
  const moves = new LegalMoves([null, { type: "line", line: "diagonal" }, { type: "place", card: 3, at: [0, 0] }, { type: "fly" }]);
  assert.ok(!moves.any);
});
