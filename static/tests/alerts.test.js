// @ts-check
import assert from "node:assert/strict";
import test from "node:test";

import { keyBytes } from "../js/alerts.js";

test("a base64url VAPID key becomes the bytes the Push API wants", () => {
  // 0x04 then 0xfb 0xff: "+" and "/" in plain base64 are "-" and "_" in base64url
  assert.deepEqual([...keyBytes("BPv_")], [0x04, 0xfb, 0xff]);
  assert.deepEqual([...keyBytes("BA")], [0x04], "padding is added back");
  assert.equal(keyBytes("B" + "A".repeat(86)).length, 65, "an uncompressed P-256 key is 65 bytes");
});
