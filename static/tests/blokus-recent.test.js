// @ts-check
import test from "node:test";
import assert from "node:assert/strict";
import { recentMoves } from "../js/games/blokus/recent.js";

const colour = (/** @type {number} */ index, /** @type {number} */ placed) => ({ index, placed, last_cells: placed ? [[index, placed]] : [] });

test("the newest move is the latest colour of the latest round", () => {
  // round 3 (placed = 3) reached blue and yellow; red and green are still in round 2
  const moves = recentMoves([colour(0, 3), colour(1, 3), colour(2, 2), colour(3, 2)]);
  assert.deepEqual(moves.map((m) => [m.index, m.age]), [[1, 0], [0, 1], [3, 2], [2, 3]]);
});

test("a colour that is out keeps its old last move outside the recent round", () => {
  // yellow was blocked after 5 pieces; the others are in round 9
  const moves = recentMoves([colour(0, 9), colour(1, 5), colour(2, 9), colour(3, 8)]);
  assert.deepEqual(moves.map((m) => m.index), [2, 0, 3]);
  assert.equal(moves[0].age, 0);
});

test("before the first move nothing is marked; after it only that one", () => {
  assert.deepEqual(recentMoves([colour(0, 0), colour(1, 0)]), []);
  assert.deepEqual(recentMoves([colour(0, 1), colour(1, 0)]).map((m) => [m.index, m.age]), [[0, 0]]);
});
