// @ts-check
import test from "node:test";
import assert from "node:assert/strict";
import en from "../js/locales/en.js";
import blokusStrings from "../js/games/blokus/strings.js";
import { translate } from "../js/i18n.js";
import { describeEvent, winners } from "../js/room/log.js";
import { seatNames } from "../js/room/names.js";
import { describeMove, resultDetails } from "../js/games/blokus.js";
import { roomSummary } from "../js/mygames.js";

const tables = { en: { ...en, ...blokusStrings.en } };
/** @type {import("../js/i18n.js").Translate} */
const t = (key, params) => translate(tables, "en", key, params);
const names = ["Anna", "Ben"];
const ctx = { names, t, lang: "en", describeMove };

test("a Blokus move reads as a sentence, with blocked colours after it", () => {
  const lines = describeEvent(
    { seq: 7, kind: "move", seat: 1, log: { seat: 1, colour: "yellow", piece: "F", cells: [[0, 0]], blocked: ["blue"] } },
    ctx,
  );
  assert.deepEqual(
    lines.map((l) => l.text),
    ["Ben placed F (Yellow).", "Blue is blocked."],
  );
  assert.ok(lines.every((l) => l.seq === 7 && l.kind === "move"));
});

test("a stand-in bot's move is credited to the bot playing for the person, not to the person", () => {
  const event = { seq: 9, kind: "move", seat: 1, stand_in: "strong", log: { seat: 1, colour: "yellow", piece: "V5", cells: [[0, 0]], blocked: [] } };
  assert.deepEqual(
    describeEvent(event, ctx).map((l) => l.text),
    ["Medium bot for Ben placed V5 (Yellow)."],
  );
  const own = { ...event, stand_in: undefined };
  assert.deepEqual(describeEvent(own, ctx).map((l) => l.text), ["Ben placed V5 (Yellow)."]);
  assert.deepEqual(describeEvent({ seq: 3, kind: "move", seat: 0, stand_in: "random" }, { names, t, lang: "en" }).map((l) => l.text), [`${t("log.move", { name: "Easy bot for Anna" })}`]);
});

test("room events read in plain words; chat stays out of the log", () => {
  const text = (/** @type {any} */ e) => describeEvent(e, ctx).map((l) => l.text);
  assert.deepEqual(text({ seq: 1, kind: "room_created", name: "Anna", creator_seat: 0 }), ["Anna opened the table."]);
  assert.deepEqual(text({ seq: 2, kind: "seat_claimed", seat: 1, name: "Ben" }), ["Ben sat down in seat 2."]);
  assert.deepEqual(text({ seq: 3, kind: "seat_bot", seat: 1, bot: "strong" }), ["Seat 2 is played by the Medium bot."]);
  assert.deepEqual(text({ seq: 4, kind: "seat_bot", seat: 1, bot: null }), ["Seat 2 is free again."]);
  assert.deepEqual(text({ seq: 5, kind: "game_started", game_no: 2 }), ["Game 2 started."]);
  assert.deepEqual(text({ seq: 6, kind: "game_over", result: { scores: [3, 9], ranks: [2, 1] } }), ["Game over: Ben wins!"]);
  assert.deepEqual(text({ seq: 7, kind: "game_over", result: { scores: [3, 3], ranks: [1, 1] } }), ["Game over: Anna and Ben share the win."]);
  assert.deepEqual(text({ seq: 8, kind: "chat", seat: 0, name: "Anna", text: "hi" }), []);
  assert.deepEqual(text({ seq: 9, kind: "something_new" }), []);
});

test("a renderer without describeMove still gets a line per move", () => {
  const lines = describeEvent({ seq: 3, kind: "move", seat: 0, log: { seat: 0 } }, { ...ctx, describeMove: null });
  assert.deepEqual(lines.map((l) => l.text), ["Anna moved."]);
});

test("winners and result details", () => {
  assert.deepEqual(winners({ ranks: [1, 2, 1] }, ["a", "b", "c"]), ["a", "c"]);
  const details = resultDetails({ colours: [{ colour: "blue", score: 15, owner: 0 }, { colour: "green", score: -4, owner: null }] }, names, t);
  assert.deepEqual(details, ["Blue: 15 (Anna)", "Green: -4 (shared, not counted)"]);
});

test("seat names: people, bots, free seats", () => {
  const seats = [
    { seat: 0, name: "Anna", kind: "human", bot: null, online: true, to_act: false },
    { seat: 1, name: null, kind: "bot", bot: "random", online: true, to_act: false },
    { seat: 2, name: null, kind: "empty", bot: null, online: false, to_act: false },
  ];
  assert.deepEqual(seatNames(/** @type {any} */ (seats), t), ["Anna", "Easy bot", "Seat 3"]);
});

test("seat names: two bots of one kind get numbers, a lone bot keeps its plain name", () => {
  const bot = (/** @type {number} */ seat, /** @type {string} */ kind) => ({ seat, name: null, kind: "bot", bot: kind, online: true, to_act: false });
  const seats = [bot(0, "strong"), bot(1, "random"), bot(2, "strong"), { seat: 3, name: "Anna", kind: "human", bot: null, online: true, to_act: false }];
  const names = seatNames(/** @type {any} */ (seats), t);
  assert.deepEqual(names, ["Medium bot 1", "Easy bot", "Medium bot 2", "Anna"]);
  assert.equal(new Set(names).size, names.length);
});

test("my tables: whose turn, from my seat's point of view", () => {
  const seats = [
    { seat: 0, name: "Anna", kind: "human", bot: null, online: true, to_act: false },
    { seat: 1, name: "Ben", kind: "human", bot: null, online: true, to_act: true },
  ];
  const base = { type: "state", seq: 9, game_seq: 9, view: {}, legal_moves: [], events: [], result: null };
  const room = { id: "r", game: "blokus", title: "Blokus", players: 2, options: {}, rules: {}, creator_seat: 0, game_no: 1, seq: 9, seats };
  const state = (/** @type {any} */ extra) => /** @type {any} */ ({ ...base, room: { ...room, status: "playing" }, you: 0, to_act: [1], ...extra });
  assert.deepEqual(roomSummary(state({}), t), { text: "Waiting for Ben", kind: "wait" });
  assert.deepEqual(roomSummary(state({ to_act: [0] }), t), { text: "Your turn!", kind: "turn" });
  const over = state({ room: { ...room, status: "finished" }, to_act: [], result: { scores: [1, 5], ranks: [2, 1] } });
  assert.deepEqual(roomSummary(over, t), { text: "Game over: you placed 2 of 2", kind: "over" });
  const lobby = state({ room: { ...room, status: "lobby", seats: [seats[0], { ...seats[1], kind: "empty" }] } });
  assert.equal(roomSummary(lobby, t).kind, "lobby");
});

test("seats handed to bots and back read in plain words", () => {
  const said = (/** @type {any} */ event) => describeEvent({ seq: 9, ...event }, ctx).map((l) => l.text);
  assert.deepEqual(said({ kind: "seat_stand_in", seat: 0, name: "Anna", bot: "strong", reason: "timeout", once: true }), [
    "Time ran out for Anna: the Medium bot plays this one move.",
  ]);
  assert.deepEqual(said({ kind: "seat_stand_in", seat: 0, name: "Anna", bot: "random", reason: "timeout", once: false }), [
    "Time ran out for Anna: the Easy bot plays for them until they are back.",
  ]);
  assert.deepEqual(said({ kind: "seat_stand_in", seat: 1, name: "Ben", bot: "strong", reason: "left", once: false }), ["Ben left the game; the Medium bot plays for them."]);
  assert.deepEqual(said({ kind: "seat_stand_in", seat: 1, name: "Ben", bot: "strong", reason: "host", once: false }), ["The host handed Ben's seat to the Medium bot."]);
  assert.deepEqual(said({ kind: "seat_released", seat: 1, name: "Ben", bot: "strong" }), [
    "The host freed seat 2 (Ben); the Medium bot plays it until someone sits down.",
  ]);
  assert.deepEqual(said({ kind: "seat_taken_back", seat: 1, name: "Ben" }), ["Ben is back and plays again."]);
  assert.deepEqual(said({ kind: "host_changed", seat: 1, name: "Ben", from: 0, from_name: "Anna" }), ["Anna made Ben the host."]);
});
