// @ts-check
import test from "node:test";
import assert from "node:assert/strict";
import en from "../js/locales/en.js";
import blokusStrings from "../js/games/blokus/strings.js";
import mStrings from "../js/games/m/strings.js";
import maednStrings from "../js/games/maedn/strings.js";
import { translate } from "../js/i18n.js";
import { Announcer } from "../js/room/announce.js";
import { aroundWords, cornersOf, cornersWords, orientationWords, pieceWords } from "../js/games/blokus/speech.js";
import { playersWords as mPlayers, tableWords as mTable } from "../js/games/m/speech.js";
import { payWords as mPay } from "../js/games/m/words.js";
import { tableWords as maednTable } from "../js/games/maedn/speech.js";

/** @param {"en"|"de"|"fr"} lang @returns {import("../js/i18n.js").Translate} */
const tr = (lang) => (key, params) =>
  translate(
    {
      en: { ...en, ...blokusStrings.en, ...mStrings.en, ...maednStrings.en },
      de: { ...blokusStrings.de, ...mStrings.de, ...maednStrings.de },
      fr: { ...blokusStrings.fr, ...mStrings.fr, ...maednStrings.fr },
    },
    lang,
    key,
    params,
  );
const t = tr("en");

test("the announcer says new log lines and the status once, and nothing when nothing changed", () => {
  const el = /** @type {HTMLElement} */ (/** @type {unknown} */ ({ textContent: "" }));
  const said = new Announcer(el);
  const line = (/** @type {number} */ seq, /** @type {string} */ text) => ({ seq, kind: "move", text });
  said.update([line(1, "Old news.")], "Your turn.");
  assert.equal(el.textContent, "Your turn.", "the history is not read out on arrival");
  el.textContent = "untouched";
  said.update([line(1, "Old news.")], "Your turn.");
  assert.equal(el.textContent, "untouched", "the same status is not written again");
  said.update([line(1, "Old news."), line(2, "Ben placed F.")], "Your turn.");
  assert.equal(el.textContent, "Ben placed F. Your turn.");
  said.update([line(1, "Old news."), line(2, "Ben placed F.")], "Ben is placing.");
  assert.equal(el.textContent, "Ben is placing.");
  said.say("The board.");
  said.say("The board.");
  assert.equal(el.textContent.trim(), "The board.", "a command asked twice is said twice");
  assert.notEqual(el.textContent, "The board.");
});

test("a Blokus piece is said with its turn and the squares it covers, by row", () => {
  const base = [[0, 0], [0, 1], [1, 0]];
  assert.equal(orientationWords(base, base, t), "as in the tray");
  assert.equal(orientationWords(base, [[0, 0], [0, 1], [1, 1]], t), "turned 90° clockwise");
  const words = pieceWords({ piece: "V3", base, shape: base, cells: [[4, 5], [4, 6], [5, 5]], fits: false, spots: 2, myTurn: true }, t);
  assert.equal(words, "V3, 3 squares, as in the tray. Covers row 5, columns 6, 7; row 6, column 6. Does not fit here; fits in 2 places this way round.");
  assert.match(pieceWords({ piece: "V3", base, shape: base, cells: null, fits: false, spots: 0, myTurn: true }, tr("de")), /^V3, 3 Felder, wie im Vorrat\. Passt so herum nirgends/);
});

test("the board around a square and each colour's corners are read off the board", () => {
  const board = ["0.....", ".0....", "......", "......", "....1.", "......"];
  const view = {
    size: 6,
    board,
    colours: [
      { index: 0, name: "purple", out: false, placed: 2, start: [0, 0] },
      { index: 1, name: "orange", out: true, placed: 1, start: [5, 5] },
    ],
  };
  assert.deepEqual(cornersOf(view, 0), [[0, 2], [2, 0], [2, 2]]);
  assert.equal(cornersWords(view, t), "Purple, 3 free corners: row 1, column 3; row 3, columns 1, 3. Orange is blocked.");
  assert.match(aroundWords(view, [0, 0], t), /^Around row 1, column 1: row 1: column 1 Purple, columns 2 to 5 empty\. row 2: column 1 empty, column 2 Purple/);
});

test("the M table is read row by row, with the places the chosen card fits and what they touch", () => {
  const red20 = { id: "red-20-cube", colour: "red", value: 20, symbol: "cube" };
  const blue0 = { id: "blue-0-a", colour: "blue", value: 0, symbol: null };
  const view = {
    table: [{ at: [0, 0], card: red20 }, { at: [0, 1], card: blue0 }],
    open_cells: [[1, 0], [0, 2]],
    pays: [
      { at: [1, 0], owed: 0, earned: 0, paid_by: [], lost: 0 },
      { at: [0, 2], owed: 0, earned: 0, paid_by: [], lost: 0 },
    ],
    box: { top: 0, left: 0, bottom: 0, right: 1, height: 1, width: 2, limit: 6 },
    scoring: null,
    players: 2,
    pile: 40,
    tokens: [6, 5],
    hand_sizes: [4, 4],
    collections: [[], [red20]],
    scores: [{ total: 60 }, { total: 70 }],
  };
  const words = mTable(view, blue0, [[1, 0]], t);
  assert.match(words, /^The table: 2 cards, 1 rows by 2 columns\. Row \d: red 20 cube in column \d, blue 0 in column \d\./);
  assert.match(words, /The blue 0 fits in 1 place: row \d, column \d, no tokens, touching 1 card: red 20 cube\.$/);
  assert.equal(mPlayers(view, ["Anna", "Ben"], 0, t), "Pile: 40 cards. You: 6 tokens, 4 cards in hand, score 60; collected: No cards collected yet. Ben: 5 tokens, 4 cards in hand, score 70; collected: red 20 cube");
});

test("each place the chosen M card fits says what it would pay, from whom, and what goes unpaid", () => {
  const card = (/** @type {string} */ colour, /** @type {number} */ value, /** @type {string} */ symbol) => ({ id: `${colour}-${value}-${symbol}`, colour, value, symbol });
  const view = {
    table: [
      { at: [0, 0], card: card("red", 20, "cube") },
      { at: [0, 2], card: card("red", 40, "cube") },
      { at: [1, 1], card: card("blue", 20, "cube") },
    ],
    open_cells: [[0, 1], [1, 0]],
    pays: [
      { at: [0, 1], owed: 2, earned: 1, paid_by: [{ seat: 2, tokens: 1 }], lost: 1 },
      { at: [1, 0], owed: 1, earned: 1, paid_by: [{ seat: 1, tokens: 1 }], lost: 0 },
    ],
    box: { top: 0, left: 0, bottom: 1, right: 2, height: 2, width: 3, limit: 6 },
    scoring: null,
  };
  const names = ["Anna", "Ben", "Cleo"];
  const picked = card("red", 10, "cube");
  assert.match(
    mTable(view, picked, [[0, 1], [1, 0]], t, names),
    /The red 10 cube fits in 2 places: row \d, column \d, you get 1 token from Cleo, 1 unpaid, touching 3 cards: blue 20 cube, red 20 cube, red 40 cube; row \d, column \d, you get 1 token from Ben, touching 2 cards: red 20 cube, blue 20 cube\.$/,
  );
  assert.equal(mPay({ at: [0, 0], owed: 3, earned: 3, paid_by: [{ seat: 2, tokens: 1 }, { seat: 1, tokens: 2 }], lost: 0 }, names, t), "you get 3 tokens from Cleo (1), Ben (2)");
  assert.equal(mPay({ at: [0, 0], owed: 2, earned: 0, paid_by: [], lost: 2 }, names, t), "no tokens, 2 unpaid");
  assert.match(mTable(view, picked, [[1, 0]], tr("de"), names), /Reihe \d, Spalte \d, du bekommst 1 Chip von Ben, neben 2 Karten: /);
  assert.match(mTable(view, picked, [[0, 1]], tr("fr"), names), /rangée \d, colonne \d, vous recevez 1 jeton de Cleo, 1 impayé, à côté de 3 cartes : /);
});

test("the MÄDN middle says what lies there and who holds the figures that are gone", () => {
  const view = {
    middle: [
      { figure: 1, count: 1, copies: 2, stars: 0 },
      { figure: 2, count: 0, copies: 1, stars: 1 },
    ],
    rows: [[{ figures: [1, 2], stars: [0, 1] }], []],
    finished: [[], [{ points: 7 }]],
  };
  assert.equal(
    maednTable(view, ["Anna", "Ben"], 0, t),
    "In the middle, 1 figure: 1. Gone from the middle, and who holds them: 1: You; 2: You. You, 1 open row: row 1: 1, 2 with 1 star. Ben, 0 open rows: none. 1 finished row, 7 points.",
  );
});
