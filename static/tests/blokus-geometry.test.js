// @ts-check
import test from "node:test";
import assert from "node:assert/strict";
import {
  LegalIndex,
  anchorOf,
  cellsKey,
  clampAnchor,
  flip,
  normalize,
  onBoard,
  orientations,
  placeAt,
  rotate,
  rotateBack,
  shapeKey,
} from "../js/games/blokus/geometry.js";

/** @typedef {import("../js/games/blokus/geometry.js").Cell} Cell */

/** The 21 pieces as the engine draws them (engines/blokus/pieces.py), and their orientation counts. */
/** @type {Record<string, [Cell[], number]>} */
const PIECES = {
  I1: [[[0, 0]], 1],
  I2: [[[0, 0], [0, 1]], 2],
  I3: [[[0, 0], [0, 1], [0, 2]], 2],
  V3: [[[0, 0], [1, 0], [1, 1]], 4],
  I4: [[[0, 0], [0, 1], [0, 2], [0, 3]], 2],
  L4: [[[0, 0], [1, 0], [2, 0], [2, 1]], 8],
  T4: [[[0, 0], [0, 1], [0, 2], [1, 1]], 4],
  O4: [[[0, 0], [0, 1], [1, 0], [1, 1]], 1],
  Z4: [[[0, 0], [0, 1], [1, 1], [1, 2]], 4],
  F: [[[0, 1], [0, 2], [1, 0], [1, 1], [2, 1]], 8],
  I5: [[[0, 0], [0, 1], [0, 2], [0, 3], [0, 4]], 2],
  L5: [[[0, 0], [1, 0], [2, 0], [3, 0], [3, 1]], 8],
  N: [[[0, 1], [1, 1], [2, 0], [2, 1], [3, 0]], 8],
  P: [[[0, 0], [0, 1], [1, 0], [1, 1], [2, 0]], 8],
  T5: [[[0, 0], [0, 1], [0, 2], [1, 1], [2, 1]], 4],
  U: [[[0, 0], [0, 2], [1, 0], [1, 1], [1, 2]], 4],
  V5: [[[0, 0], [1, 0], [2, 0], [2, 1], [2, 2]], 4],
  W: [[[0, 0], [1, 0], [1, 1], [2, 1], [2, 2]], 4],
  X: [[[0, 1], [1, 0], [1, 1], [1, 2], [2, 1]], 1],
  Y: [[[0, 1], [1, 0], [1, 1], [2, 1], [3, 1]], 8],
  Z5: [[[0, 0], [0, 1], [1, 1], [2, 1], [2, 2]], 4],
};

test("the 21 pieces have 91 orientations in all", () => {
  let total = 0;
  for (const [name, [cells, count]] of Object.entries(PIECES)) {
    assert.equal(orientations(cells).length, count, name);
    total += count;
  }
  assert.equal(total, 91);
});

test("four quarter turns and two flips give the shape back", () => {
  for (const [cells] of Object.values(PIECES)) {
    const start = normalize(cells);
    assert.equal(cellsKey(rotate(rotate(rotate(rotate(start))))), cellsKey(start));
    assert.equal(cellsKey(flip(flip(start))), cellsKey(start));
    assert.equal(cellsKey(rotateBack(rotate(start))), cellsKey(start));
  }
});

test("rotate turns clockwise on screen: a row becomes a column", () => {
  assert.deepEqual(rotate([[0, 0], [0, 1], [0, 2]]), [[0, 0], [1, 0], [2, 0]]);
  // the L's foot goes from right-bottom to left-bottom
  assert.deepEqual(rotate([[0, 0], [1, 0], [2, 0], [2, 1]]), [[0, 0], [0, 1], [0, 2], [1, 0]]);
  assert.deepEqual(flip([[0, 0], [1, 0], [1, 1]]), [[0, 1], [1, 0], [1, 1]]);
});

test("normalize moves a shape to the corner and sorts it", () => {
  assert.deepEqual(normalize([[5, 7], [4, 8], [4, 7]]), [[0, 0], [0, 1], [1, 0]]);
  assert.equal(shapeKey([[9, 9], [9, 10]]), shapeKey([[0, 3], [0, 4]]));
});

test("the anchor is the cell nearest the middle, and placing puts it on the target", () => {
  assert.deepEqual(anchorOf(PIECES.X[0]), [1, 1]);
  assert.deepEqual(anchorOf(PIECES.I5[0]), [0, 2]);
  const cells = placeAt(PIECES.X[0], [5, 5]);
  assert.equal(cellsKey(cells), cellsKey([[4, 5], [5, 4], [5, 5], [5, 6], [6, 5]]));
});

test("clamping keeps the whole piece on the board", () => {
  const shape = PIECES.I5[0];
  for (const at of /** @type {Cell[]} */ ([[0, 0], [19, 19], [-4, 30], [10, 10]])) {
    assert.ok(onBoard(placeAt(shape, clampAnchor(shape, at, 20)), 20));
  }
  assert.deepEqual(clampAnchor(shape, [10, 10], 20), [10, 10]);
});

test("the legal index answers by cell set, in any order", () => {
  const index = new LegalIndex([
    { piece: "I2", cells: [[0, 0], [0, 1]] },
    { piece: "I2", cells: [[0, 0], [1, 0]] },
    { piece: "V3", cells: [[0, 0], [1, 0], [1, 1]] },
  ]);
  assert.ok(index.has("I2", [[0, 1], [0, 0]]));
  assert.ok(!index.has("I2", [[0, 1], [0, 2]]));
  assert.ok(!index.has("I3", [[0, 0], [0, 1]]));
  assert.ok(index.canPlace("V3"));
  assert.ok(!index.canPlace("X"));
  assert.equal(index.size, 3);
  assert.equal(index.shapesOf("I2").size, 2);
});

test("anchors list where the picked orientation fits, and placing there is legal", () => {
  const moves = [
    { piece: "V3", cells: /** @type {Cell[]} */ ([[0, 0], [1, 0], [1, 1]]) },
    { piece: "V3", cells: /** @type {Cell[]} */ ([[4, 4], [5, 4], [5, 5]]) },
    { piece: "V3", cells: /** @type {Cell[]} */ ([[0, 1], [1, 0], [1, 1]]) },
  ];
  const index = new LegalIndex(moves);
  const shape = normalize(moves[0].cells);
  const anchors = index.anchors("V3", shape);
  assert.equal(anchors.length, 2);
  for (const at of anchors) assert.ok(index.has("V3", placeAt(shape, at)));
  assert.deepEqual(index.anchors("V3", rotate(rotate(shape))), []);
});

test("garbage in legal_moves is skipped", () => {
  const index = new LegalIndex(/** @type {any} */ ([null, { piece: 3 }, { piece: "I1", cells: [[0, 0]] }]));
  assert.equal(index.size, 1);
});
