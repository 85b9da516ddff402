// @ts-check
import test from "node:test";
import assert from "node:assert/strict";
import { accepted, chooseToken, refused } from "../js/resume.js";

test("a link's token is tried first, and kept only once the server accepts it", () => {
  const choice = chooseToken("fromlink", "mine");
  assert.deepEqual(choice, { token: "fromlink", kept: "mine", trial: true });
  assert.deepEqual(accepted(choice), { token: "fromlink", kept: "fromlink", trial: false });
});

test("a refused link leaves the stored token alone and falls back to it", () => {
  const next = refused(chooseToken("forged", "mine"));
  assert.equal(next.forget, false);
  assert.deepEqual(next.choice, { token: "mine", kept: "mine", trial: false });
  assert.equal(next.message, "net.link_refused_kept");
});

test("a refused link without a stored token leaves the person watching", () => {
  const next = refused(chooseToken("forged", null));
  assert.equal(next.forget, false);
  assert.equal(next.choice.token, null);
  assert.equal(next.message, "net.link_refused");
});

test("a stored token the server refuses is forgotten", () => {
  const next = refused(chooseToken(null, "stale"));
  assert.equal(next.forget, true);
  assert.equal(next.choice.token, null);
  assert.equal(next.message, "net.bad_token");
  // a link carrying the token already stored is no trial
  assert.equal(chooseToken("mine", "mine").trial, false);
});
