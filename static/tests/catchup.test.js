// @ts-check
import test from "node:test";
import assert from "node:assert/strict";
import { fetchMissed, missedEvents } from "../js/net.js";

/** @param {Partial<import("../js/messages.js").StateMessage>} extra */
const state = (extra) =>
  /** @type {import("../js/messages.js").StateMessage} */ ({
    type: "state", seq: 900, game_seq: 0, you: 0, room: /** @type {any} */ ({}), view: null,
    to_act: [], legal_moves: [], result: null, events: [], ...extra,
  });

test("a message marked truncated names the events to fetch; others name none", () => {
  assert.deepEqual(missedEvents(12, state({ events_truncated: true, events_from: 601 })), { after: 12, upTo: 600 });
  assert.equal(missedEvents(12, state({})), null);
  assert.equal(missedEvents(700, state({ events_truncated: true, events_from: 601 })), null);
});

test("the gap is fetched page by page, and nothing past it", async () => {
  const log = Array.from({ length: 900 }, (_, i) => ({ seq: i + 1, kind: "chat" }));
  /** @type {Array<[number, number]>} */
  const asked = [];
  const page = async (/** @type {number} */ after, /** @type {number} */ limit) => {
    asked.push([after, limit]);
    // the server answers with at most 250 at a time, whatever the limit
    return { events: log.filter((e) => e.seq > after).slice(0, Math.min(limit, 250)) };
  };
  const found = await fetchMissed({ after: 12, upTo: 600 }, page);
  assert.deepEqual(found.map((e) => e.seq), Array.from({ length: 588 }, (_, i) => i + 13));
  assert.deepEqual(asked[0], [12, 588]);
  assert.equal(asked.length, 3);
});
