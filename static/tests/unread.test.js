import assert from "node:assert/strict";
import { test } from "node:test";

import { UnreadChat, titleWithUnread } from "../js/room/unread.js";

const chat = (seq, seat) => ({ seq, kind: "chat", seat });
const move = (seq) => ({ seq, kind: "move", seat: 0 });

test("the chat already there when the page opens is not unread", () => {
  const unread = new UnreadChat();
  assert.equal(unread.take([chat(1, 0), chat(2, 1)], 1, false), 0);
});

test("messages from others count while the chat is out of view, one's own never", () => {
  const unread = new UnreadChat();
  const events = [chat(1, 0)];
  unread.take(events, 1, false);
  events.push(chat(2, 0), move(3), chat(4, 1), chat(5, 0));
  assert.equal(unread.take(events, 1, false), 2);
  assert.equal(unread.take(events, 1, false), 2, "the same events count once");
  events.push(chat(6, 0));
  assert.equal(unread.take(events, 1, false), 3);
});

test("seeing the chat clears the count, and chat arriving in view is never unread", () => {
  const unread = new UnreadChat();
  unread.take([], 0, false);
  assert.equal(unread.take([chat(1, 1)], 0, false), 1);
  assert.equal(unread.seen(), true);
  assert.equal(unread.count, 0);
  assert.equal(unread.seen(), false);
  assert.equal(unread.take([chat(1, 1), chat(2, 1)], 0, true), 0);
});

test("the title says how many are unread", () => {
  assert.equal(titleWithUnread("Blokus · Spieltisch", 0), "Blokus · Spieltisch");
  assert.equal(titleWithUnread("Blokus · Spieltisch", 2), "(2) Blokus · Spieltisch");
});
