// @ts-check
import test from "node:test";
import assert from "node:assert/strict";
import en from "../js/locales/en.js";
import de from "../js/locales/de.js";
import fr from "../js/locales/fr.js";
import { translate } from "../js/i18n.js";
import { formatLeft, leftNow, orderTables, turnTimeLabel } from "../js/timeleft.js";

/** @param {string} lang */
const tr = (lang) => /** @type {import("../js/i18n.js").Translate} */ ((key, params) => translate({ en, de, fr }, lang, key, params));
const t = tr("en");

test("the time left reads in its two largest units", () => {
  assert.equal(formatLeft(2 * 86400 + 5 * 3600 + 59, t), "2 d 5 h left");
  assert.equal(formatLeft(3 * 86400, t), "3 d left");
  assert.equal(formatLeft(5 * 3600 + 12 * 60 + 5, t), "5 h 12 min left");
  assert.equal(formatLeft(3600, t), "1 h left");
  assert.equal(formatLeft(14 * 60 + 59, t), "14 min left");
  assert.equal(formatLeft(30, t), "under a minute left");
  assert.equal(formatLeft(0, t), "time is up");
});

test("every choice of time per move has a name in every language", () => {
  for (const lang of ["en", "de", "fr"]) {
    const labels = [null, 3600, 43200, 86400, 259200, 604800].map((s) => turnTimeLabel(s, tr(lang)));
    assert.equal(new Set(labels).size, 6, lang);
    for (const label of labels) assert.doesNotMatch(label, /clock\.|\{/, `${lang}: ${label}`);
  }
  assert.equal(turnTimeLabel(43200, t), "12 hours per move");
  assert.equal(turnTimeLabel(86400, t), "1 day per move");
});

test("the browser counts down from what the server said", () => {
  assert.equal(leftNow(100, 1_000, 31_000), 70);
  assert.equal(leftNow(10, 0, 60_000), 0);
});

test("my tables: my turn first, the most urgent first, then the others", () => {
  const rows = [
    { id: "over", kind: "over", left: null, order: 0 },
    { id: "wait-late", kind: "wait", left: 9000, order: 1 },
    { id: "turn-free", kind: "turn", left: null, order: 2 },
    { id: "turn-soon", kind: "turn", left: 60, order: 3 },
    { id: "wait-soon", kind: "wait", left: 100, order: 4 },
    { id: "lobby", kind: "lobby", left: null, order: 5 },
  ];
  assert.deepEqual(
    orderTables(rows).map((r) => r.id),
    ["turn-soon", "turn-free", "wait-soon", "wait-late", "lobby", "over"],
  );
});
