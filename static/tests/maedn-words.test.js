// @ts-check
import test from "node:test";
import assert from "node:assert/strict";
import en from "../js/locales/en.js";
import de from "../js/locales/de.js";
import strings from "../js/games/maedn/strings.js";
import { translate } from "../js/i18n.js";
import { describeEvent } from "../js/room/log.js";
import { describeMove } from "../js/games/maedn.js";
import { latestMove, lastMarks } from "../js/games/maedn/lastmove.js";
import { diceText, previewLines, takeShort, targetLabel, targetWhere } from "../js/games/maedn/words.js";

/** @typedef {import("../js/games/maedn/plays.js").Target} Target */

const tables = { en: { ...en, ...strings.en }, de: { ...de, ...strings.de } };
/** @type {import("../js/i18n.js").Translate} */
const t = (key, params) => translate(tables, "en", key, params);
/** @type {import("../js/i18n.js").Translate} */
const tDe = (key, params) => translate(tables, "de", key, params);
const names = ["Anna", "Ben", "Carla"];

const base = { row_vanished: false, finished: null, score: 0, end: null };

test("a start from the middle names both dice and the figure", () => {
  const log = { ...base, seat: 0, type: "start", dice: [2, 6], row: 0, figure: 8, taken_from: "middle", from_seat: null, from_row: null };
  assert.deepEqual(describeMove(log, names, t), ["Anna starts a row with 2 + 6 and takes 8 from the middle."]);
  assert.deepEqual(describeMove({ ...log, dice: [5], figure: 5 }, names, t), ["Anna starts a row with a 5 and takes 5 from the middle."]);
});

test("a steal names its victim, and a row left empty is announced", () => {
  const log = { ...base, seat: 1, type: "extend", dice: [3], row: 0, figure: 12, taken_from: "stolen", from_seat: 0, from_row: 1, row_vanished: true };
  assert.deepEqual(describeMove(log, names, t), ["Ben plays a 3 on row 1 and steals 12 from Anna!", "Row 2 of Anna is empty and gone."]);
  assert.deepEqual(describeMove(log, names, tDe), [
    "Ben legt eine 3 an Reihe 1 und wirft die 12 bei Anna raus!",
    "Reihe 2 von Anna ist leer und verschwindet.",
  ]);
});

test("moving a figure between your own rows is no steal", () => {
  const log = { ...base, seat: 2, type: "extend", dice: [1], row: 2, figure: 7, taken_from: "own_row", from_seat: 2, from_row: 0 };
  assert.deepEqual(describeMove(log, names, t), ["Carla plays a 1 on row 3 and moves 7 over from row 1."]);
});

test("a finished row gives its figures, points and the new score", () => {
  const log = {
    ...base,
    seat: 0,
    type: "extend",
    dice: [2],
    row: 0,
    figure: 40,
    taken_from: "middle",
    from_seat: null,
    from_row: null,
    finished: { figures: [8, 15, 20, 28, 33, 38, 40], points: 11 },
    score: 23,
  };
  assert.deepEqual(describeMove(log, names, t), [
    "Anna plays a 2 on row 1 and takes 40 from the middle.",
    "Anna finishes a row at 40: 7 figures, 11 points (23 in all).",
  ]);
});

test("a dead-end discard and a stalled game read plainly", () => {
  assert.deepEqual(describeMove({ seat: 1, type: "discard", die: 6, score: 4, end: null }, names, t), ["Ben can't play either die and discards a 6."]);
  const stalled = { seat: 1, type: "discard", die: 6, score: 4, end: { reason: "stalled", winner: null } };
  assert.equal(describeMove(stalled, names, t).length, 2);
});

test("the room log shows MÄDN moves through the renderer", () => {
  const event = {
    seq: 9,
    kind: "move",
    seat: 0,
    log: { ...base, seat: 0, type: "start", dice: [4], row: 1, figure: 4, taken_from: "middle", from_seat: null, from_row: null },
  };
  const lines = describeEvent(event, { names, t, lang: "en", describeMove });
  assert.deepEqual(
    lines.map((l) => l.text),
    ["Anna starts a row with a 4 and takes 4 from the middle."],
  );
});

/** @returns {Target} */
function target(/** @type {Partial<Target>} */ over) {
  return {
    key: "row:0",
    move: { type: "extend", row: 0, die: 3 },
    kind: "extend",
    dice: [3],
    row: 0,
    last: 9,
    figure: 12,
    stars: 0,
    finishes: false,
    take: { source: "middle", from: null, fromRow: null, vanishes: false },
    ...over,
  };
}

test("a target says where it goes and what it takes from whom", () => {
  const steal = target({ key: "row:0:from:2", take: { source: "stolen", from: 2, fromRow: 1, vanishes: true } });
  assert.equal(targetWhere(steal, t), "Row 1: 9 + 3");
  assert.equal(takeShort(steal, names, t), "steal from Carla");
  assert.deepEqual(previewLines(steal, names, t), ["You steal 12 from Carla (their row 2).", "That row of Carla is then empty and disappears."]);
  assert.equal(
    targetLabel(steal, names, t),
    "Play the 3 on row 1, which ends at 9. You steal 12 from Carla (their row 2). That row of Carla is then empty and disappears.",
  );
  const start = target({ key: "new", move: { type: "start", dice: [2, 6] }, kind: "start", dice: [2, 6], row: null, last: null, figure: 8 });
  assert.equal(targetWhere(start, t), "New row");
  assert.equal(targetLabel(start, names, t), "Start a new row with 2 + 6. You take 8 from the middle.");
  const own = target({ take: { source: "own_row", from: 0, fromRow: 2, vanishes: false } });
  assert.equal(takeShort(own, names, t), "from your row 3");
  const goal = target({ last: 37, figure: 40, finishes: true });
  assert.equal(previewLines(goal, names, t).length, 2);
  const discard = target({ key: "discard", move: { type: "discard", die: 5 }, kind: "discard", dice: [5], row: null, last: null, figure: null, take: null });
  assert.equal(targetLabel(discard, names, t), "Discard the 5. You discard the 5 and draw back up to two dice.");
  assert.equal(diceText([4], t), "a 4");
});

test("the last move is followed through events and forgotten by a new game", () => {
  const move = (/** @type {number} */ seq) => ({ seq, kind: "move", log: { seat: 0, type: "start", figure: 5 } });
  let last = latestMove([{ seq: 1, kind: "game_started" }, move(2), { seq: 3, kind: "chat" }, move(4)], null);
  assert.equal(last?.seq, 4);
  last = latestMove([], last);
  assert.equal(last?.seq, 4, "a message without events keeps it");
  last = latestMove([move(4)], last);
  assert.equal(last?.seq, 4, "a resent event changes nothing");
  assert.equal(latestMove([{ seq: 5, kind: "game_over" }, { seq: 6, kind: "game_started" }], last), null);
});

test("the last move shows where its figure lies now", () => {
  const view = {
    rows: [[{ figures: [3] }, { figures: [9, 12] }], [{ figures: [20] }]],
    finished: [[], [{ figures: [30, 35, 40], points: 5 }]],
  };
  const extend = { seq: 3, log: /** @type {any} */ ({ seat: 0, type: "extend", row: 1, figure: 12, taken_from: "stolen", from_seat: 1 }) };
  assert.deepEqual(lastMarks(view, extend), { seat: 0, row: 1, figure: 12, finished: null, victim: 1, discard: null });
  // the extend took from its own older row, which vanished: the row moved up one
  const shifted = { seq: 3, log: /** @type {any} */ ({ seat: 0, type: "extend", row: 2, figure: 12, taken_from: "own_row", from_seat: 0 }) };
  assert.equal(lastMarks(view, shifted)?.row, 1);
  const finish = { seq: 4, log: /** @type {any} */ ({ seat: 1, type: "extend", row: 1, figure: 40, taken_from: "middle", finished: { figures: [30, 35, 40], points: 5 } }) };
  assert.deepEqual(lastMarks(view, finish), { seat: 1, row: null, figure: 40, finished: 0, victim: null, discard: null });
  const discard = { seq: 5, log: /** @type {any} */ ({ seat: 1, type: "discard", die: 6 }) };
  assert.equal(lastMarks(view, discard)?.discard, 6);
  assert.equal(lastMarks(view, null), null);
});
