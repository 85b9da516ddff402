// @ts-check
import test from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import en from "../js/locales/en.js";
import strings from "../js/games/maedn/strings.js";

/** @typedef {string | Record<string, string>} Entry */

/** @param {Entry} entry */
const texts = (entry) => (typeof entry === "string" ? [entry] : Object.values(entry));
/** @param {string} text */
const placeholders = (text) => [...new Set([...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]))].sort();

test("MÄDN strings: every key exists in English, German and French", () => {
  const keys = Object.keys(strings.en).sort();
  for (const lang of ["de", "fr"]) {
    const other = Object.keys(strings[lang]).sort();
    assert.deepEqual(
      { missing: keys.filter((k) => !other.includes(k)), extra: other.filter((k) => !keys.includes(k)) },
      { missing: [], extra: [] },
      `${lang} differs from en`,
    );
  }
});

test("MÄDN strings: no empty texts, the same placeholders, plural forms complete", () => {
  for (const [key, entry] of Object.entries(strings.en)) {
    const expected = placeholders(texts(entry).join(" "));
    for (const lang of ["en", "de", "fr"]) {
      const value = strings[lang][key];
      for (const text of texts(value)) assert.ok(text.trim(), `${lang} ${key} is empty`);
      assert.deepEqual(placeholders(texts(value).join(" ")), expected, `${lang} ${key} placeholders`);
      if (typeof entry !== "string") assert.ok(typeof value !== "string" && value.other, `${lang} ${key} needs an "other" form`);
    }
  }
});

test("MÄDN strings don't reuse the pages' keys", () => {
  assert.deepEqual(
    Object.keys(strings.en).filter((k) => k in en),
    [],
  );
});

test("every maedn.* key the renderer asks for exists", () => {
  const dir = new URL("../js/games/maedn/", import.meta.url);
  const sources = [
    readFileSync(new URL("../js/games/maedn.js", import.meta.url), "utf8"),
    ...readdirSync(dir)
      .filter((f) => f.endsWith(".js") && f !== "strings.js")
      .map((f) => readFileSync(new URL(f, dir), "utf8")),
  ].join("\n");
  const used = [...sources.matchAll(/"(maedn\.[\w.]+)"/g)].map((m) => m[1]);
  // keys built from a template: maedn.log.<start|extend>.<source>, maedn.rules.<part>
  const built = [...sources.matchAll(/`(maedn\.[\w.]+)\.\$\{/g)].map((m) => m[1]);
  const missing = used.filter((k) => !(k in strings.en));
  assert.deepEqual(missing, []);
  for (const prefix of built) assert.ok(Object.keys(strings.en).some((k) => k.startsWith(`${prefix}.`)), prefix);
  for (const source of ["middle", "own_row", "stolen"]) {
    for (const kind of ["start", "extend"]) assert.ok(strings.en[`maedn.log.${kind}.${source}`]);
  }
});
