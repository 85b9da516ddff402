// @ts-check
import test from "node:test";
import assert from "node:assert/strict";
import en from "../js/locales/en.js";
import strings from "../js/games/m/strings.js";
import { translate } from "../js/i18n.js";
import { describeEvent } from "../js/room/log.js";
import { LegalMoves } from "../js/games/m/moves.js";
import { cardName, describeMove, endReason, statusText } from "../js/games/m/words.js";

/** @typedef {Record<string, string | Record<string, string>>} Table */

/** @param {"en"|"de"|"fr"} lang @returns {import("../js/i18n.js").Translate} */
const tr = (lang) => (key, params) => translate({ en: { ...en, ...strings.en }, de: { ...strings.de }, fr: { ...strings.fr } }, lang, key, params);
const t = tr("en");
const names = ["Anna", "Ben", "Chloé"];
const red20 = { id: "red-20-cube", colour: "red", value: 20, symbol: "cube" };
const green0 = { id: "green-0-a", colour: "green", value: 0, symbol: null };

test("cards are named by colour, value and symbol; a 0-card has no symbol", () => {
  assert.equal(cardName(red20, t), "red 20 cube");
  assert.equal(cardName(green0, t), "green 0");
  assert.equal(cardName(red20, tr("de")), "rote 20 (Würfel)");
  assert.equal(cardName(red20, tr("fr")), "20 rouge (cube)");
});

test("a placement says which card, the tokens it earned and who paid", () => {
  const log = {
    seat: 0,
    type: "place",
    card: red20,
    at: [2, -1],
    neighbours: 3,
    tokens: { owed: 2, earned: 2, paid_by: [{ seat: 2, tokens: 1 }, { seat: 1, tokens: 1 }], lost: 0 },
    scoring: "row",
    drew: true,
  };
  assert.deepEqual(describeMove(log, names, t), [
    "Anna placed the red 20 cube.",
    "Anna gets 2 tokens from Chloé (1), Ben (1).",
    "The row is complete: a scoring begins.",
  ]);
  const one = { ...log, tokens: { owed: 1, earned: 1, paid_by: [{ seat: 2, tokens: 1 }], lost: 0 }, scoring: "choose" };
  assert.deepEqual(describeMove(one, names, t).slice(1), [
    "Anna gets 1 token from Chloé.",
    "The row and the column both qualify: Anna chooses which one to score.",
  ]);
  const broke = { ...log, tokens: { owed: 3, earned: 0, paid_by: [], lost: 3 }, scoring: null };
  assert.deepEqual(describeMove(broke, names, t), ["Anna placed the red 20 cube.", "3 tokens could not be paid: nobody had any left."]);
});

test("a pass tells that a card was swapped, never which", () => {
  assert.deepEqual(describeMove({ seat: 1, type: "pass", swapped: true, gave: { seat: 0, tokens: 1 } }, names, t), [
    "Ben passed and gave a token to Anna.",
    "Ben put a card under the pile and drew one.",
  ]);
  assert.deepEqual(describeMove({ seat: 1, type: "pass", swapped: false, gave: null }, names, t), ["Ben passed."]);
});

test("line choice, takes, the end of a scoring and of the game", () => {
  assert.deepEqual(describeMove({ seat: 2, type: "line", line: "col" }, names, t), ["Chloé scores the column."]);
  assert.deepEqual(describeMove({ seat: 1, type: "take", card: green0, at: [0, 0], phase_over: true, drew: true }, names, t), [
    "Ben took the green 0.",
    "The scoring is over.",
  ]);
  assert.deepEqual(describeMove({ seat: 1, type: "take", card: green0, at: [0, 0], phase_over: true, drew: false, ended: "final_scoring" }, names, t), [
    "Ben took the green 0.",
    "The pile was empty, so that scoring was the last: the game is over.",
  ]);
  for (const reason of ["hands_empty", "all_passed", "jammed", "guard", "stalled", "final_scoring"]) {
    assert.notEqual(endReason(reason, t), t("m.ended.other"), reason);
  }
  assert.equal(endReason("whatever", t), "The game is over.");
});

test("the room log uses the renderer's words for M moves", () => {
  const lines = describeEvent(
    { seq: 4, kind: "move", seat: 0, log: { seat: 0, type: "take", card: red20, at: [0, 0], phase_over: false, drew: false } },
    { names, t, lang: "en", describeMove },
  );
  assert.deepEqual(lines.map((l) => l.text), ["Anna took the red 20 cube."]);
});

test("the status line says whose turn it is and what they do", () => {
  const base = { phase: "play", to_act: [1], scoring: null, ended: null };
  const none = new LegalMoves([]);
  assert.equal(statusText(base, 0, names, none, t), "Ben is placing a card.");
  const mine = { ...base, to_act: [0] };
  assert.equal(statusText(mine, 0, names, new LegalMoves([{ type: "place", card: "x", at: [0, 0] }, { type: "pass" }]), t), "Your turn: place a card or pass.");
  assert.equal(statusText(mine, 0, names, new LegalMoves([{ type: "place", card: "x", at: [0, 0] }]), t), "Your turn: place a card.");
  assert.equal(statusText(mine, 0, names, new LegalMoves([{ type: "pass" }]), t), "Your turn: none of your cards fits, so you pass.");
  const take = { ...base, phase: "take", to_act: [2], scoring: { line: "col" } };
  assert.equal(statusText(take, 0, names, none, t), "Scoring the column: Chloé takes a card.");
  assert.equal(statusText({ ...take, to_act: [0] }, 0, names, new LegalMoves([{ type: "take", card: "x" }]), t), "Scoring the column: your turn to take a card.");
  assert.equal(statusText({ ...base, phase: "line", to_act: [2] }, null, names, none, t), "Chloé chooses the row or the column to score.");
  assert.equal(statusText({ ...base, phase: "over", to_act: [], ended: "jammed" }, 0, names, none, t), endReason("jammed", t));
});

/** @param {string | Record<string, string>} entry */
const texts = (entry) => (typeof entry === "string" ? [entry] : Object.values(entry));
/** @param {string} text */
const placeholders = (text) => [...new Set([...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]))].sort();

test("every M string exists in English, German and French, with the same placeholders", () => {
  const bundle = /** @type {Record<string, Table>} */ (strings);
  const keys = Object.keys(bundle.en).sort();
  for (const lang of ["de", "fr"]) {
    assert.deepEqual(Object.keys(bundle[lang]).sort(), keys, `${lang} has the same keys as en`);
  }
  for (const key of keys) {
    const expected = placeholders(texts(bundle.en[key]).join(" "));
    for (const lang of ["en", "de", "fr"]) {
      const entry = bundle[lang][key];
      for (const text of texts(entry)) assert.ok(text.trim(), `${lang} ${key} is empty`);
      assert.deepEqual(placeholders(texts(entry).join(" ")), expected, `${lang} ${key} placeholders`);
      if (typeof bundle.en[key] !== "string") assert.ok(typeof entry !== "string" && entry.other, `${lang} ${key} needs an "other" form`);
    }
  }
  assert.deepEqual(keys.filter((k) => k in en), [], "no key shared with the page strings");
});

test("every colour and symbol of the deck has its words", () => {
  for (const lang of /** @type {const} */ (["en", "de", "fr"])) {
    for (const colour of ["blue", "brown", "red", "green", "yellow"]) {
      for (const prefix of ["m.colour.", "m.adj.", "m.initial."]) assert.ok(strings[lang][prefix + colour], `${lang} ${prefix}${colour}`);
    }
    for (const symbol of ["cube", "triangle", "moebius", "circle", "cross"]) assert.ok(strings[lang][`m.symbol.${symbol}`], `${lang} ${symbol}`);
  }
});

test("the colour initials tell all five colours apart in every language", () => {
  for (const lang of /** @type {const} */ (["en", "de", "fr"])) {
    const initials = ["blue", "brown", "red", "green", "yellow"].map((c) => strings[lang][`m.initial.${c}`]);
    assert.equal(new Set(initials).size, 5, lang);
  }
});
