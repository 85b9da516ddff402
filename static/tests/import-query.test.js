import assert from "node:assert/strict";
import { test } from "node:test";

import { importQuery } from "../js/room/history.js";

test("an import carries the waiting table's time per move, policy and stand-in", () => {
  assert.equal(importQuery({ turn_seconds: 86400, on_timeout: "bot_seat", stand_in: "random" }), "?turn_seconds=86400&on_timeout=bot_seat&stand_in=random");
});

test("a table without a time limit imports without one, and its policy is left out", () => {
  assert.equal(importQuery({ turn_seconds: null, on_timeout: "bot_move" }), "");
  assert.equal(importQuery(undefined), "");
  assert.equal(importQuery({ stand_in: "strong" }), "?stand_in=strong");
});
