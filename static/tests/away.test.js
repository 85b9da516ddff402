import assert from "node:assert/strict";
import { test } from "node:test";

import { awayUntil, dateValue, dayRange, MAX_DAYS } from "../js/away.js";

const DAY = 24 * 3600 * 1000;

test("a chosen day ends at the end of that local day", () => {
  const now = new Date(2026, 11, 3, 10, 0).getTime();
  const until = awayUntil("2026-12-05", now);
  assert.ok(until);
  assert.equal(dateValue(until), "2026-12-05");
  assert.equal(until.getHours(), 23);
  assert.equal(until.getMinutes(), 59);
});

test("an away time never ends more than 14 days after it began", () => {
  const now = new Date(2026, 11, 3, 10, 0).getTime();
  const until = awayUntil("2026-12-17", now);
  assert.ok(until && until.getTime() < now + MAX_DAYS * DAY);
  // moving the end of a running away time counts from its start
  const since = now - 5 * DAY;
  const moved = awayUntil("2026-12-17", now, since);
  assert.ok(moved && moved.getTime() < since + MAX_DAYS * DAY);
});

test("a day that is no date gives no time", () => {
  assert.equal(awayUntil("", Date.now()), null);
  assert.equal(awayUntil("2026-13-45x", Date.now()), null);
});

test("the picker offers today to 14 days on", () => {
  const now = new Date(2026, 11, 3, 10, 0).getTime();
  assert.deepEqual(dayRange(now), { min: "2026-12-03", max: "2026-12-17" });
});
