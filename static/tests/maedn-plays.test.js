// @ts-check
import test from "node:test";
import assert from "node:assert/strict";
import {
  diceChoices,
  diceKey,
  diceOf,
  figureOf,
  holders,
  isDeadEnd,
  takeOf,
  targetKey,
  targetsFor,
  victimChoices,
} from "../js/games/maedn/plays.js";

/** @typedef {import("../js/games/maedn/plays.js").View} View */
/** @typedef {import("../js/games/maedn/plays.js").Move} Move */

const STARS = /** @type {Record<number, number>} */ ({ 5: 1, 10: 1, 15: 1, 20: 1, 25: 1, 30: 1, 35: 1, 36: 1, 37: 1, 38: 2, 39: 3 });

/**
 * A view as engines/maedn/view.py shapes it, with the middle worked out from the rows.
 * @param {number} players
 * @param {number[][][]} rows  per seat, open rows of figures
 * @param {number[]} [hand]
 * @returns {View}
 */
function makeView(players, rows, hand = [2, 6]) {
  const copies = (/** @type {number} */ f) => (players >= 3 && f <= 10 ? 2 : 1);
  const used = new Map();
  for (const seatRows of rows) for (const row of seatRows) for (const f of row) used.set(f, (used.get(f) ?? 0) + 1);
  return {
    players,
    seat: 0,
    hand,
    rows: rows.map((seatRows) => seatRows.map((figures) => ({ figures, stars: figures.map((f) => STARS[f] ?? 0) }))),
    middle: Array.from({ length: 40 }, (_, i) => {
      const figure = i + 1;
      return { figure, count: copies(figure) - (used.get(figure) ?? 0), copies: copies(figure), stars: STARS[figure] ?? 0 };
    }),
  };
}

test("dice are keyed the same in any order; a move's dice come out ascending", () => {
  assert.equal(diceKey([6, 2]), "2+6");
  assert.equal(diceKey([4]), "4");
  assert.deepEqual(diceOf({ type: "start", dice: [6, 2] }), [2, 6]);
  assert.deepEqual(diceOf({ type: "extend", row: 1, die: 3 }), [3]);
  assert.deepEqual(diceOf({ type: "discard", die: 5 }), [5]);
});

test("dice choices: one per way of playing, single dice before the pair", () => {
  /** @type {Move[]} */
  const legal = [
    { type: "start", dice: [2, 6] },
    { type: "extend", row: 0, die: 6 },
    { type: "start", dice: [6] },
    { type: "start", dice: [2] },
    { type: "extend", row: 0, die: 2 },
  ];
  const choices = diceChoices(legal);
  assert.deepEqual(
    choices.map((c) => [c.key, c.sum, c.discard]),
    [
      ["2", 2, false],
      ["6", 6, false],
      ["2+6", 8, false],
    ],
  );
  assert.deepEqual(diceChoices([]), []);
});

test("a double hand gives one choice per distinct die, and the pair", () => {
  /** @type {Move[]} */
  const legal = [{ type: "start", dice: [3] }, { type: "start", dice: [3, 3] }, { type: "extend", row: 0, die: 3 }];
  assert.deepEqual(
    diceChoices(legal).map((c) => c.key),
    ["3", "3+3"],
  );
});

test("the dead end: only discards are legal", () => {
  /** @type {Move[]} */
  const discards = [{ type: "discard", die: 5 }, { type: "discard", die: 6 }];
  assert.equal(isDeadEnd(discards), true);
  assert.equal(isDeadEnd([{ type: "start", dice: [4] }]), false);
  assert.equal(isDeadEnd([]), false);
  assert.deepEqual(
    diceChoices(discards).map((c) => [c.key, c.discard]),
    [
      ["5", true],
      ["6", true],
    ],
  );
  const view = makeView(2, [[[30, 36], [37], [38]], []], [5, 6]);
  const targets = targetsFor(view, 0, discards, "6");
  assert.equal(targets.length, 1);
  assert.equal(targets[0].kind, "discard");
  assert.equal(targets[0].figure, null);
  assert.equal(targets[0].take, null);
});

test("the figure a move asks for: the dice's sum, or the row's end plus the die", () => {
  const view = makeView(2, [[[8, 12, 15]], []]);
  assert.equal(figureOf(view, 0, { type: "start", dice: [2, 6] }), 8);
  assert.equal(figureOf(view, 0, { type: "extend", row: 0, die: 3 }), 18);
  assert.equal(figureOf(view, 0, { type: "extend", row: 4, die: 3 }), null);
  assert.equal(figureOf(view, 0, { type: "discard", die: 3 }), null);
});

test("who holds which figure: every open row, seats ascending", () => {
  const view = makeView(3, [[[3, 7]], [[7, 9]], [[2], [3]]]);
  const found = holders(view);
  assert.deepEqual(found[7], [
    { seat: 0, row: 0 },
    { seat: 1, row: 0 },
  ]);
  assert.deepEqual(found[3], [
    { seat: 0, row: 0 },
    { seat: 2, row: 1 },
  ]);
  assert.deepEqual(found[40], []);
});

test("a figure lying in the middle comes from there", () => {
  const view = makeView(2, [[[8]], [[12]]]);
  assert.deepEqual(takeOf(view, 0, { type: "extend", row: 0, die: 3 }), { source: "middle", from: null, fromRow: null, vanishes: false });
});

test("a figure missing from the middle is stolen, and the row that gave it may vanish", () => {
  const view = makeView(2, [[[8]], [[5, 11], [12]]]);
  assert.deepEqual(takeOf(view, 0, { type: "extend", row: 0, die: 3 }), { source: "stolen", from: 1, fromRow: 0, vanishes: false });
  assert.deepEqual(takeOf(view, 0, { type: "extend", row: 0, die: 4 }), { source: "stolen", from: 1, fromRow: 1, vanishes: true });
});

test("your own row gives the figure before anyone is stolen from", () => {
  // with three players both 7s are out: one in your row 1, one with seat 1
  const view = makeView(3, [[[2, 4], [7, 9]], [[7]], []]);
  view.middle[6] = { ...view.middle[6], count: 0 };
  assert.deepEqual(takeOf(view, 0, { type: "extend", row: 0, die: 3 }), { source: "own_row", from: 0, fromRow: 1, vanishes: false });
});

test("two other holders give one target each, and say whom each steals from", () => {
  const view = makeView(3, [[[3]], [[7]], [[1, 7]]], [4, 5]);
  /** @type {Move[]} */
  const legal = [
    { type: "extend", row: 0, die: 4, from: 1 },
    { type: "extend", row: 0, die: 4, from: 2 },
    { type: "start", dice: [4] },
  ];
  const targets = targetsFor(view, 0, legal, "4");
  assert.deepEqual(
    targets.map((t) => t.key),
    ["new", "row:0:from:1", "row:0:from:2"],
  );
  assert.deepEqual(
    targets.map((t) => [t.figure, t.take?.source, t.take?.from, t.take?.fromRow]),
    [
      [4, "middle", null, null],
      [7, "stolen", 1, 0],
      [7, "stolen", 2, 0],
    ],
  );
  assert.equal(targets[1].take?.vanishes, true);
  assert.equal(targets[2].take?.vanishes, false);
  assert.deepEqual(victimChoices(targets), [7]);
  assert.deepEqual(victimChoices(targets.slice(0, 2)), []);
});

test("targets: a new row first, then rows in order; they keep the server's move and know the 40", () => {
  const view = makeView(2, [[[30, 34], [20, 36]], []], [4, 6]);
  /** @type {Move[]} */
  const legal = [
    { type: "extend", row: 1, die: 4 },
    { type: "extend", row: 0, die: 4 },
    { type: "start", dice: [4] },
    { type: "extend", row: 0, die: 6 },
  ];
  const targets = targetsFor(view, 0, legal, "4");
  assert.deepEqual(
    targets.map((t) => [t.key, t.last, t.figure, t.finishes, t.stars]),
    [
      ["new", null, 4, false, 0],
      ["row:0", 34, 38, false, 2],
      ["row:1", 36, 40, true, 0],
    ],
  );
  assert.strictEqual(targets[2].move, legal[0]);
  assert.deepEqual(targets[0].dice, [4]);
});

test("a target's key names its place and, for a steal with a choice, its victim", () => {
  assert.equal(targetKey({ type: "start", dice: [1, 2] }), "new");
  assert.equal(targetKey({ type: "extend", row: 2, die: 1, from: 3 }), "row:2:from:3");
  assert.equal(targetKey({ type: "discard", die: 1 }), "discard");
});
