// @ts-check
import test from "node:test";
import assert from "node:assert/strict";
import en from "../js/locales/en.js";
import { translate } from "../js/i18n.js";
import { describeEvent } from "../js/room/log.js";
import { needsConfirm } from "../js/room/confirmmove.js";

/** @type {import("../js/i18n.js").Translate} */
const t = (key, params) => translate({ en }, "en", key, params);
const ctx = { names: ["Anna", "Ben"], t, lang: "en", describeMove: null };

test("a move is confirmed as the server flags it: one flag for all, or one per legal move", () => {
  const legal = [{ type: "pass" }, { type: "place", card: "red-10-cube", at: [0, 1] }];
  assert.equal(needsConfirm(undefined, legal, legal[1]), false, "a room that does not confirm");
  assert.equal(needsConfirm(false, legal, legal[1]), false);
  assert.equal(needsConfirm(true, legal, legal[0]), true);
  assert.equal(needsConfirm([false, true], legal, legal[0]), false);
  // the same move with its keys in another order is the same move
  assert.equal(needsConfirm([false, true], legal, { at: [0, 1], card: "red-10-cube", type: "place" }), true);
  assert.equal(needsConfirm([false, false], legal, { type: "unknown" }), true, "a move the list lacks is asked about");
});

test("the log words a take-back, its request and the answers", () => {
  const text = (/** @type {any} */ event) => describeEvent(event, ctx).map((line) => line.text);
  assert.deepEqual(text({ seq: 9, kind: "undo_request", seat: 0, name: "Anna", back_to: 7 }), ["Anna asks to take back their last move."]);
  assert.deepEqual(text({ seq: 10, kind: "undo_answer", seat: 1, name: "Ben", accept: false }), ["Ben declines the take-back."]);
  assert.deepEqual(text({ seq: 11, kind: "undo_answer", seat: 1, name: "Ben", accept: true }), ["Ben agrees to the take-back."]);
  assert.deepEqual(text({ seq: 12, kind: "undo", seat: 0, name: "Anna", to: 6, undone: [7, 8] }), ["Anna's move was taken back."]);
});
