// @ts-check
import test from "node:test";
import assert from "node:assert/strict";
import en from "../js/locales/en.js";
import replayStrings from "../js/replay/strings.js";
import { translate } from "../js/i18n.js";
import { sinceLastTurn, sinceShown, summaryLine } from "../js/room/since.js";
import { tallyLine } from "../js/room/tally.js";

const tables = { en: { ...en, ...replayStrings.en } };
/** @type {import("../js/i18n.js").Translate} */
const t = (key, params) => translate(tables, "en", key, params);
const move = (/** @type {number} */ seq, /** @type {number} */ seat) => ({ seq, kind: "move", seat, log: { seat } });

test("since your last turn lists only the others' moves after your own, in this game", () => {
  const events = [
    move(3, 0),
    { seq: 4, kind: "game_started", game_no: 2 },
    move(5, 0),
    move(6, 1),
    { seq: 7, kind: "chat", seat: 1, text: "hi" },
    move(8, 0),
    move(9, 1),
    move(10, 2),
  ];
  assert.deepEqual(sinceLastTurn(events, 0).map((e) => e.seq), [9, 10]);
  assert.deepEqual(sinceLastTurn(events, 3).map((e) => e.seq), [5, 6, 8, 9, 10]);
  assert.deepEqual(sinceLastTurn(events, 2).map((e) => e.seq), []);
});

test("the first move of a game has nothing to look back on; a second turn in a row has", () => {
  const started = [move(3, 1), { seq: 4, kind: "game_started", game_no: 2 }];
  assert.equal(sinceShown(started, 0, true), null, "no 'nothing happened' before anyone moved");
  assert.equal(sinceShown([...started, move(5, 1)], 0, false), null, "not your turn");
  assert.deepEqual(sinceShown([...started, move(5, 1)], 0, true)?.map((e) => e.seq), [5]);
  assert.deepEqual(sinceShown([...started, move(5, 0)], 0, true), [], "your own move, then your turn again");
});

test("the summary is one line counting the moves and naming them", () => {
  const ctx = { names: ["Anna", "Ben", "Cara"], t, lang: "en" };
  const line = summaryLine([move(9, 1), move(10, 2)], ctx);
  assert.equal(line, "Since your last turn: 2 moves — Ben moved. Cara moved.");
  assert.equal(summaryLine([], ctx), "Nothing happened since your last turn.");
  assert.ok(!line.includes("\n"));
});

test("the tally reads like a scoreboard", () => {
  assert.equal(tallyLine([{ name: "Anna", wins: 3 }, { name: "Ben", wins: 2 }], t), "Anna 3 – Ben 2");
});

test("a bot in the tally is named in the page's language, not by the engine's English title", () => {
  const de = { de: { "bot.medium": "Mittlerer Bot" } };
  const tde = (/** @type {string} */ key, /** @type {any} */ params) => translate(de, "de", key, params);
  const tally = [{ name: "Medium", wins: 2, bot: "medium" }, { name: "Anna", wins: 1 }];
  assert.equal(tallyLine(tally, tde), "Mittlerer Bot 2 – Anna 1");
  // a game played before the levels names its bot by the old name
  const old = [{ name: "Strong (finishes rows, steals from the leader)", wins: 2, bot: "strong" }, { name: "Anna", wins: 1 }];
  assert.equal(tallyLine(old, tde), "Mittlerer Bot 2 – Anna 1");
});
