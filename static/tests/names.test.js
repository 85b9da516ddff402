// @ts-check
/**
 * A button that shows one text and is named by a longer aria-label must start its name
 * with what it shows (WCAG 2.5.3, label in name): a voice-control user says what they
 * see. These are the buttons the room and the start page name that way.
 */
import test from "node:test";
import assert from "node:assert/strict";
import en from "../js/locales/en.js";
import de from "../js/locales/de.js";
import fr from "../js/locales/fr.js";
import { format } from "../js/i18n.js";

/** [the text the button shows, the key of its aria-label] */
const NAMED = [
  ["seat.hand_over", "seat.hand_over_label"],
  ["seat.free_seat", "seat.free_label"],
  ["seat.make_host", "seat.make_host_label"],
  ["share.copy", "share.copy_label"],
  ["mygames.forget", "mygames.forget_label"],
];

/** @param {string} text */
const words = (text) => text.toLocaleLowerCase().replace(/\s+/g, " ").trim();

for (const [lang, table] of Object.entries({ en, de, fr })) {
  test(`${lang}: each named button's accessible name starts with its visible text`, () => {
    for (const [shown, named] of NAMED) {
      const text = /** @type {string} */ (table[shown]);
      const name = format(/** @type {string} */ (table[named]), { name: "Ben", what: "the link" });
      assert.ok(words(name).startsWith(words(text)), `${lang} ${named}: "${name}" does not start with "${text}"`);
    }
  });
}
