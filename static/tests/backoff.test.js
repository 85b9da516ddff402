// @ts-check
import test from "node:test";
import assert from "node:assert/strict";
import { backoffDelay, DEFAULTS } from "../js/backoff.js";

test("delays grow exponentially without jitter", () => {
  const plain = (/** @type {number} */ n) => backoffDelay(n, { jitter: 0 });
  assert.deepEqual([0, 1, 2, 3].map(plain), [500, 1000, 2000, 4000]);
});

test("delays never pass the cap", () => {
  for (let n = 0; n < 40; n++) assert.ok(backoffDelay(n, { random: () => 0 }) <= DEFAULTS.max);
  assert.equal(backoffDelay(100, { jitter: 0 }), DEFAULTS.max);
});

test("jitter only shortens, within its share", () => {
  const high = backoffDelay(3, { jitter: 0.3, random: () => 0 });
  const low = backoffDelay(3, { jitter: 0.3, random: () => 0.9999 });
  assert.equal(high, 4000);
  assert.ok(low >= 4000 * 0.7 - 1 && low < 4000);
});

test("negative or fractional attempts are treated as whole attempts from zero", () => {
  assert.equal(backoffDelay(-3, { jitter: 0 }), 500);
  assert.equal(backoffDelay(1.7, { jitter: 0 }), 1000);
});
