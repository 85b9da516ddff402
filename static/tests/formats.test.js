// @ts-check
import test from "node:test";
import assert from "node:assert/strict";
import { acceptList, downloads, formatLabel, formatsOf, importFormats, importTarget, recordOpen } from "../js/formats.js";

// engines as GET /api/games lists them, made up: the page must know none by name
const PILE = { name: "pile", title: "Pile file (.pile)", media_type: "text/x-pile", suffix: ".pile" };
const DECK = { name: "deck", title: "Deck file", media_type: "application/x-deck", suffix: ".Deck" };
const GAMES = [
  { name: "open", hidden_information: false, record_formats: [PILE] },
  { name: "hidden", hidden_information: true, record_formats: [DECK] },
  { name: "plain", hidden_information: true, record_formats: [] },
  { name: "twin", hidden_information: false, record_formats: [PILE] },
];

/** @type {import("../js/i18n.js").Translate} */
const t = (key) => ({ "replay.download_json": "Record (JSON)", "game.open.format.pile": "A pile" })[key] ?? key;

test("a running game's record is open only when its engine hides nothing", () => {
  assert.equal(recordOpen(GAMES, "open", false), true);
  assert.equal(recordOpen(GAMES, "hidden", false), false);
  assert.equal(recordOpen(GAMES, "hidden", true), true);
  // an engine the list does not name (not loaded yet) counts as hiding
  assert.equal(recordOpen([], "open", false), false);
  assert.equal(recordOpen([], "open", true), true);
});

test("a game offers the JSON record and each format its engine lists", () => {
  assert.deepEqual(downloads(GAMES, "open", "/api/rooms/r/games/2", t), [
    { href: "/api/rooms/r/games/2/record", id: "download-json", label: "Record (JSON)" },
    { href: "/api/rooms/r/games/2/record.pile", id: "download-pile", label: "A pile" },
  ]);
  // no words of the page's own for a format: the engine's title
  assert.deepEqual(
    downloads(GAMES, "hidden", "/b", t).map((link) => link.label),
    ["Record (JSON)", "Deck file"],
  );
  assert.deepEqual(downloads(GAMES, "plain", "/b", t).length, 1);
  assert.deepEqual(formatsOf(GAMES, "nobody"), []);
  assert.equal(formatLabel(t, "twin", PILE), "Pile file (.pile)");
});

test("an imported file goes to the route of the format its name ends in, else to the JSON one", () => {
  const formats = importFormats(GAMES).map((entry) => entry.format);
  assert.deepEqual(
    formats.map((f) => f.name),
    ["pile", "deck"],
    "each format once, in the list's order",
  );
  assert.deepEqual(importTarget("game.PILE", formats), { path: "/api/records/pile", type: "text/x-pile" });
  assert.deepEqual(importTarget("x.deck", formats), { path: "/api/records/deck", type: "application/x-deck" });
  assert.deepEqual(importTarget("record.json", formats), { path: "/api/records", type: "application/json" });
  assert.deepEqual(importTarget("pile", formats), { path: "/api/records", type: "application/json" });
  assert.equal(acceptList(formats), ".json,.pile,.Deck,application/json");
  assert.equal(acceptList([]), ".json,application/json");
});
