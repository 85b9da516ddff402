// @ts-check
import test from "node:test";
import assert from "node:assert/strict";
import fr from "../js/locales/fr.js";
import replay from "../js/replay/strings.js";
import blokus from "../js/games/blokus/strings.js";
import m from "../js/games/m/strings.js";
import maedn from "../js/games/maedn/strings.js";

// the pages speak to a player as "vous" everywhere; one "ton" reads as a slip
const FAMILIAR = /(^|[^\p{L}])(tu|te|toi|ton|ta|tes|t[’'])(?=$|[^\p{L}])/iu;

/** @param {unknown} value @returns {string[]} */
const texts = (value) =>
  typeof value === "string" ? [value] : value && typeof value === "object" ? Object.values(value).flatMap(texts) : [];

test("every French text says vous, never tu", () => {
  const tables = { pages: fr, replay: replay.fr, blokus: blokus.fr, m: m.fr, maedn: maedn.fr };
  for (const [name, table] of Object.entries(tables)) {
    const familiar = texts(table).filter((text) => FAMILIAR.test(text));
    assert.deepEqual(familiar, [], `${name}: ${familiar.join(" | ")}`);
  }
  assert.ok(texts(fr).some((text) => /\bvous\b/.test(text)), "the check reads the texts");
});
