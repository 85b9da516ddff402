// @ts-check
import test from "node:test";
import assert from "node:assert/strict";
import { cellsOf, inBox, key, nearestIn, reach, windowFor } from "../js/games/m/layout.js";

/** The start M: (1,0) (0,1) (1,2) (0,3) (1,4), a box 2 high and 5 wide. */
const START_BOX = { top: 0, left: 0, bottom: 1, right: 4, height: 2, width: 5, limit: 6 };

test("the start M can still grow four rows up or down and one column left or right", () => {
  assert.deepEqual(reach(START_BOX), { top: -4, left: -1, rows: 10, cols: 7 });
});

test("a full 6x6 box leaves exactly itself, wherever it lies (negative coordinates too)", () => {
  const box = { top: -3, left: -2, bottom: 2, right: 3, height: 6, width: 6, limit: 6 };
  assert.deepEqual(reach(box), { top: -3, left: -2, rows: 6, cols: 6 });
});

test("the window shows two cells of room around the cards, within the reach", () => {
  const w = windowFor(START_BOX, [[0, 1]]);
  assert.deepEqual(w, { top: -2, left: -1, rows: 6, cols: 7, limits: { top: false, left: true, bottom: false, right: true } });
  const full = { top: -3, left: -2, bottom: 2, right: 3, height: 6, width: 6, limit: 6 };
  assert.deepEqual(windowFor(full, []), { top: -3, left: -2, rows: 6, cols: 6, limits: { top: true, left: true, bottom: true, right: true } });
  const tall = { top: 0, left: 0, bottom: 4, right: 1, height: 5, width: 2, limit: 6 };
  assert.deepEqual(windowFor(tall, [], 2), { top: -1, left: -2, rows: 7, cols: 6, limits: { top: true, left: false, bottom: true, right: false } });
});

test("the window grows to show any cell the server sends, even outside the reach", () => {
  const w = windowFor(START_BOX, [[1, 0], [-6, 2], [0, 9]]);
  assert.deepEqual([w.top, w.left, w.rows, w.cols], [-6, -1, 10, 11]);
  assert.ok(!w.limits.top && !w.limits.right);
});

test("cells are listed row by row with their place on screen counted from 1", () => {
  const cells = cellsOf({ top: -1, left: -2, rows: 2, cols: 3 });
  assert.equal(cells.length, 6);
  assert.deepEqual(cells[0], { cell: [-1, -2], row: 1, col: 1 });
  assert.deepEqual(cells[5], { cell: [0, 0], row: 2, col: 3 });
  assert.equal(key([-1, 3]), "-1,3");
});

test("inside the box or not", () => {
  assert.ok(inBox(START_BOX, [1, 4]));
  assert.ok(!inBox(START_BOX, [2, 4]));
  assert.ok(!inBox(START_BOX, [0, -1]));
});

test("arrow keys go to the nearest cell that way, preferring straight lines", () => {
  /** @type {[number, number][]} */
  const cells = [[0, 0], [0, 3], [2, 1], [-1, 0], [1, 5]];
  assert.deepEqual(nearestIn(cells, [0, 0], "right"), [0, 3]);
  assert.deepEqual(nearestIn(cells, [0, 0], "down"), [2, 1]);
  assert.deepEqual(nearestIn(cells, [0, 0], "up"), [-1, 0]);
  assert.equal(nearestIn(cells, [0, 0], "left"), null);
  assert.deepEqual(nearestIn(cells, [0, 3], "right"), [1, 5]);
});
