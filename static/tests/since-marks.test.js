// @ts-check
import test from "node:test";
import assert from "node:assert/strict";
import { newCells, scoreGains } from "../js/games/blokus/since.js";
import { changes as mChanges } from "../js/games/m/since.js";
import { changes as maednChanges } from "../js/games/maedn/since.js";
import { lastTurnStep } from "../js/room/sinceboard.js";

test("the step of your last turn counts the moves of the running game up to your last one", () => {
  const events = [
    { seq: 1, kind: "game_started", game_no: 1 },
    { seq: 2, kind: "move", seat: 0 },
    { seq: 3, kind: "game_over" },
    { seq: 4, kind: "game_started", game_no: 2 },
    { seq: 5, kind: "move", seat: 0 },
    { seq: 6, kind: "chat", seat: 1 },
    { seq: 7, kind: "move", seat: 1 },
    { seq: 8, kind: "move", seat: 0 },
    { seq: 9, kind: "move", seat: 1 },
  ];
  assert.equal(lastTurnStep(events, 0, 2), 3);
  assert.equal(lastTurnStep(events, 1, 2), 4);
  assert.equal(lastTurnStep(events, 2, 2), 0, "not moved yet: the deal");
  assert.equal(lastTurnStep(events.slice(4), 0, 2), null, "the start is not in hand");
  assert.equal(lastTurnStep(events, 0, 3), null, "another game");
});

test("blokus: the squares covered since, and each colour's points gained", () => {
  const before = { board: ["0..", "...", "..1"], colours: [{ score: 1 }, { score: 1 }] };
  const now = { board: ["00.", ".2.", "..1"], colours: [{ score: 2 }, { score: 1 }, { score: 1 }] };
  assert.deepEqual(newCells(before, now), [[0, 1], [1, 1]]);
  assert.deepEqual(scoreGains(before, now), [1, 0, 0]);
});

test("m: cards laid and taken since, tokens and points per seat", () => {
  const card = (/** @type {string} */ id) => ({ id, colour: "red", value: 10, symbol: "cube" });
  const before = {
    players: 2,
    table: [{ at: [0, 0], card: card("a") }, { at: [0, 1], card: card("b") }],
    collections: [[], [card("x")]],
    tokens: [6, 6],
    scores: [{ total: 60 }, { total: 70 }],
  };
  const now = {
    players: 2,
    table: [{ at: [0, 0], card: card("a") }, { at: [1, 0], card: card("c") }],
    collections: [[card("b")], [card("x")]],
    tokens: [5, 8],
    scores: [{ total: 60 }, { total: 90 }],
  };
  const got = mChanges(before, now);
  assert.deepEqual([...got.placed], ["c"]);
  assert.deepEqual([...got.taken], ["b"]);
  assert.deepEqual(got.tokens, [-1, 2]);
  assert.deepEqual(got.points, [0, 20]);
});

test("maedn: figures that came into rows, figures taken away, rows finished, points", () => {
  const before = {
    players: 2,
    rows: [[{ figures: [3, 5] }], [{ figures: [12] }, { figures: [7] }]],
    finished: [[], []],
    scores: [0, 0],
  };
  const now = {
    players: 2,
    // seat 0 stole 12 from seat 1 and moved 5 to a new row of its own; seat 1 took 8
    rows: [[{ figures: [3, 12] }, { figures: [5] }], [{ figures: [7, 8] }]],
    finished: [[], [{ figures: [20, 40] }]],
    scores: [0, 4],
  };
  const got = maednChanges(before, now);
  assert.deepEqual([...got.figures[0]], [[12, 1]]);
  assert.deepEqual([...got.figures[1]], [[8, 1]]);
  assert.deepEqual(got.lost, [[], [12]]);
  assert.deepEqual(got.finished, [0, 1]);
  assert.deepEqual(got.points, [0, 4]);
});
