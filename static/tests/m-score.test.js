// @ts-check
import test from "node:test";
import assert from "node:assert/strict";
import { colourParts, groupByColour, scoreTerms, signed } from "../js/games/m/score.js";

/** @param {string} colour @param {number} value @param {string|null} symbol @param {string} [suffix] */
const card = (colour, value, symbol, suffix = "") => ({ id: `${colour}-${value}-${symbol ?? "a"}${suffix}`, colour, value, symbol });

test("a collection groups by colour in deck order, high cards first", () => {
  const groups = groupByColour([
    card("yellow", 10, "cube"),
    card("red", 20, "cube"),
    card("blue", 0, null),
    card("red", 40, "triangle"),
  ]);
  assert.deepEqual(groups.map((g) => g.colour), ["blue", "red", "yellow"]);
  assert.deepEqual(groups[1].cards.map((c) => c.value), [40, 20]);
  assert.deepEqual(groups.map((g) => g.total), [0, 60, 10]);
  assert.deepEqual(groupByColour([]), []);
});

test("the two counting colours come first, then the losses, biggest first", () => {
  const score = { tokens: 4, token_points: 40, colours: { blue: 10, red: 60, green: 30, yellow: 20 }, best: ["red", "green"], total: 70 };
  assert.deepEqual(colourParts(score), [
    { colour: "red", value: 60, counts: true },
    { colour: "green", value: 30, counts: true },
    { colour: "yellow", value: 20, counts: false },
    { colour: "blue", value: 10, counts: false },
  ]);
});

test("the terms add up to the server's total", () => {
  const score = { tokens: 4, token_points: 40, colours: { blue: 10, red: 60, green: 30, yellow: 20 }, best: ["red", "green"], total: 100 };
  const terms = scoreTerms(score);
  assert.equal(terms[0].kind, "tokens");
  assert.equal(terms.reduce((sum, term) => sum + term.points, 0), score.total);
  const empty = { tokens: 6, token_points: 60, colours: {}, best: [], total: 60 };
  assert.deepEqual(scoreTerms(empty), [{ kind: "tokens", tokens: 6, points: 60 }]);
  const zero = { tokens: 0, token_points: 0, colours: { red: 30, green: 20, blue: 0 }, best: ["red", "green"], total: 50 };
  assert.deepEqual(scoreTerms(zero).at(-1), { kind: "colour", colour: "blue", points: 0, counts: false });
});

test("signed numbers use a real minus sign", () => {
  assert.equal(signed(30), "+30");
  assert.equal(signed(-10), "\u221210");
  assert.equal(signed(0), "0");
});
