// @ts-check
import test from "node:test";
import assert from "node:assert/strict";
import en from "../js/locales/en.js";
import de from "../js/locales/de.js";
import fr from "../js/locales/fr.js";
import { translate } from "../js/i18n.js";
import { LEGACY_BOTS, botAbout, botLabel, botLevel, seatName } from "../js/room/names.js";
import { levelChoices, standInLevel } from "../js/room/levels.js";

const tables = { en, de, fr };
/** @param {string} lang @returns {import("../js/i18n.js").Translate} */
const tr = (lang) => (key, params) => translate(tables, lang, key, params);
const LEVELS = ["hard", "medium", "easy"];

test("every level has a name and a sentence on how it plays, in each language", () => {
  for (const lang of ["en", "de", "fr"]) {
    const t = tr(lang);
    const names = LEVELS.map((level) => botLabel(level, t));
    const abouts = LEVELS.map((level) => botAbout(level, t));
    assert.equal(new Set(names).size, 3, `${lang}: three names`);
    assert.equal(new Set(abouts).size, 3, `${lang}: three descriptions`);
    for (const text of [...names, ...abouts]) assert.ok(text && !text.startsWith("bot."), `${lang}: ${text}`);
  }
  assert.deepEqual(LEVELS.map((level) => botLabel(level, tr("en"))), ["Hard bot", "Medium bot", "Easy bot"]);
  assert.deepEqual(LEVELS.map((level) => botLabel(level, tr("de"))), ["Schwerer Bot", "Mittlerer Bot", "Leichter Bot"]);
  assert.deepEqual(LEVELS.map((level) => botLabel(level, tr("fr"))), ["Robot difficile", "Robot moyen", "Robot facile"]);
});

test("an old room's bot names show as the levels they stand for", () => {
  assert.deepEqual(LEGACY_BOTS, { strong: "medium", random: "easy" });
  const t = tr("de");
  assert.equal(botLevel("strong"), "medium");
  assert.equal(botLevel("random"), "easy");
  assert.equal(botLevel("hard"), "hard");
  assert.equal(botLabel("strong", t), "Mittlerer Bot");
  assert.equal(botLabel("random", t), "Leichter Bot");
  assert.equal(botAbout("strong", t), botAbout("medium", t));
  assert.equal(seatName({ seat: 1, name: null, kind: "bot", bot: "strong", stand_in: null, online: true, to_act: false }, 1, t), "Mittlerer Bot");
});

test("a bot nobody knows keeps its id and has no description", () => {
  const t = tr("en");
  assert.equal(botLabel("clever", t), "Bot (clever)");
  assert.equal(botAbout("clever", t), "");
  assert.equal(botLevel("toString"), "toString", "an inherited name is no old bot name");
});

test("a picker lists the game's levels strongest first, each with what it is like", () => {
  const bots = LEVELS.map((name) => ({ name, title: name }));
  const choices = levelChoices(bots, tr("fr"));
  assert.deepEqual(
    choices.map((c) => [c.value, c.label]),
    [
      ["hard", "Robot difficile"],
      ["medium", "Robot moyen"],
      ["easy", "Robot facile"],
    ],
  );
  assert.deepEqual(
    choices.map((c) => c.about),
    LEVELS.map((level) => botAbout(level, tr("fr"))),
  );
});

test("the room's stand-in is preselected, else the strongest level", () => {
  const bots = LEVELS.map((name) => ({ name }));
  assert.equal(standInLevel({ stand_in: "easy" }, bots), "easy");
  assert.equal(standInLevel({ stand_in: "strong" }, bots), "medium", "an old name as the level it stands for");
  assert.equal(standInLevel({ stand_in: null }, bots), "hard");
  assert.equal(standInLevel(undefined, bots), "hard");
  assert.equal(standInLevel({ stand_in: "clever" }, bots), "hard", "a level the game lacks");
  assert.equal(standInLevel({ stand_in: "easy" }, []), "");
});
