// @ts-check
import test from "node:test";
import assert from "node:assert/strict";
import en from "../js/locales/en.js";
import de from "../js/locales/de.js";
import fr from "../js/locales/fr.js";
import blokus from "../js/games/blokus/strings.js";
import m from "../js/games/m/strings.js";
import { detectLanguage, format, translate } from "../js/i18n.js";

/** @typedef {Record<string, string | Record<string, string>>} Table */

/** @type {Array<[string, Record<string, Table>]>} */
const BUNDLES = [
  ["pages", { en, de, fr }],
  ["blokus", blokus],
  ["m", m],
];

/** @param {string | Record<string, string>} entry */
const texts = (entry) => (typeof entry === "string" ? [entry] : Object.values(entry));
/** @param {string} text */
const placeholders = (text) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

for (const [name, bundle] of BUNDLES) {
  test(`${name}: every key exists in English, German and French`, () => {
    const keys = Object.keys(bundle.en).sort();
    for (const lang of ["de", "fr"]) {
      const other = Object.keys(bundle[lang]).sort();
      const missing = keys.filter((k) => !other.includes(k));
      const extra = other.filter((k) => !keys.includes(k));
      assert.deepEqual({ missing, extra }, { missing: [], extra: [] }, `${lang} differs from en`);
    }
  });

  test(`${name}: no empty texts, and placeholders agree across languages`, () => {
    for (const [key, entry] of Object.entries(bundle.en)) {
      const expected = placeholders(texts(entry).join(" "));
      for (const lang of ["en", "de", "fr"]) {
        const value = bundle[lang][key];
        for (const text of texts(value)) assert.ok(text.trim(), `${lang} ${key} is empty`);
        const found = texts(value).map(placeholders);
        for (const list of found) {
          for (const p of list) assert.ok(expected.includes(p), `${lang} ${key} has unknown {${p}}`);
        }
        const union = [...new Set(found.flat())].sort();
        assert.deepEqual(union, [...new Set(expected)].sort(), `${lang} ${key} placeholders`);
        if (typeof entry !== "string") assert.ok(typeof value !== "string" && value.other, `${lang} ${key} needs an "other" form`);
      }
    }
  });
}

test("the page and game bundles don't share keys", () => {
  const overlap = Object.keys(blokus.en).filter((k) => k in en);
  assert.deepEqual(overlap, []);
});

test("every colour and move piece the Blokus engine names has words", () => {
  for (const colour of ["blue", "yellow", "red", "green", "purple", "orange"]) {
    assert.ok(blokus.en[`blokus.colour.${colour}`]);
  }
  for (const game of ["blokus", "m", "maedn"]) assert.ok(en[`game.${game}.title`] && en[`game.${game}.description`]);
});

test("language: remembered choice first, then the browser, then English", () => {
  assert.equal(detectLanguage("fr", ["de-DE"]), "fr");
  assert.equal(detectLanguage(null, ["it-IT", "de-AT", "en"]), "de");
  assert.equal(detectLanguage("xx", ["FR-ca"]), "fr");
  assert.equal(detectLanguage(null, ["ja"]), "en");
});

test("formatting, fallback and plurals", () => {
  assert.equal(format("{a} and {b}", { a: 1 }), "1 and {b}");
  const tables = { en: { hi: "Hi {name}", n: { one: "{count} piece", other: "{count} pieces" } }, de: { hi: "Hallo {name}" } };
  assert.equal(translate(tables, "de", "hi", { name: "Ben" }), "Hallo Ben");
  assert.equal(translate(tables, "de", "n", { count: 1 }), "1 piece", "falls back to English");
  assert.equal(translate(tables, "en", "n", { count: 3 }), "3 pieces");
  assert.equal(translate(tables, "en", "missing.key"), "missing.key");
});
