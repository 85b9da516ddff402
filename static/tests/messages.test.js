// @ts-check
import test from "node:test";
import assert from "node:assert/strict";
import { closePlan, mergeEvents, parseServerMessage } from "../js/messages.js";

const room = { id: "r1", game: "blokus", title: "Blokus", players: 2, seats: [{ seat: 0 }, { seat: 1 }] };

test("a state message is parsed and gets defaults for missing parts", () => {
  const msg = parseServerMessage(JSON.stringify({ type: "state", seq: 5, room, to_act: [0], events: [{ seq: 5, kind: "move" }] }));
  assert.ok(msg && msg.type === "state");
  assert.equal(msg.seq, 5);
  assert.deepEqual(msg.legal_moves, []);
  assert.equal(msg.you, null);
  assert.equal(msg.result, null);
});

test("malformed or unknown messages are dropped", () => {
  assert.equal(parseServerMessage("not json"), null);
  assert.equal(parseServerMessage("[1,2]"), null);
  assert.equal(parseServerMessage(JSON.stringify({ type: "surprise" })), null);
  assert.equal(parseServerMessage(JSON.stringify({ type: "state", seq: "5", room, to_act: [], events: [] })), null);
  assert.equal(parseServerMessage(JSON.stringify({ type: "state", seq: 5, room: { id: 1 }, to_act: [], events: [] })), null);
  assert.equal(parseServerMessage(JSON.stringify({ type: "state", seq: 5, room, to_act: [], events: [{ kind: "x" }] })), null);
  assert.equal(parseServerMessage(JSON.stringify({ type: "presence", seq: 1 })), null);
});

test("presence, ack, error and pong are recognised", () => {
  assert.equal(parseServerMessage('{"type":"presence","seq":3,"online":[true,false]}')?.type, "presence");
  assert.equal(parseServerMessage('{"type":"ack","id":"c1","seq":9}')?.type, "ack");
  const err = parseServerMessage('{"type":"error","code":"stale","id":"c2"}');
  assert.ok(err && err.type === "error");
  assert.equal(err.message, "");
  assert.equal(parseServerMessage('{"type":"pong","id":"p1"}')?.type, "pong");
});

test("close codes: restart and drops reconnect, bad token drops it, no room gives up", () => {
  assert.equal(closePlan(1012).action, "reconnect");
  assert.equal(closePlan(1006).action, "reconnect");
  assert.equal(closePlan(1000).action, "reconnect");
  assert.equal(closePlan(4401).action, "drop_token");
  assert.equal(closePlan(4404).action, "give_up");
  assert.ok(closePlan(1008).minDelay >= 5000, "abuse backs off for a while");
});

test("events merge in seq order without duplicates", () => {
  const a = [{ seq: 1, kind: "room_created" }, { seq: 2, kind: "seat_claimed" }];
  const merged = mergeEvents(a, [{ seq: 4, kind: "move" }, { seq: 2, kind: "seat_claimed" }, { seq: 3, kind: "game_started" }]);
  assert.deepEqual(merged.map((e) => e.seq), [1, 2, 3, 4]);
  assert.equal(mergeEvents(a, []), a);
});

test("a compact legal-move form is expanded into the moves, in order", () => {
  const compact = {
    form: "shapes",
    size: 14,
    shapes: [
      { piece: "I1", cells: [[0, 0]], at: [0, 15] },
      { piece: "V3", cells: [[0, 0], [1, 0], [1, 1]], at: [30] },
    ],
  };
  const msg = parseServerMessage(JSON.stringify({ type: "state", seq: 7, room, to_act: [0], events: [], legal_compact: compact }));
  assert.ok(msg && msg.type === "state");
  assert.equal("legal_compact" in msg, false);
  assert.deepEqual(msg.legal_moves, [
    { piece: "I1", cells: [[0, 0]] },
    { piece: "I1", cells: [[1, 1]] },
    { piece: "V3", cells: [[2, 2], [3, 2], [3, 3]] },
  ]);
});

test("an unknown or malformed compact form leaves no legal moves rather than wrong ones", () => {
  const parse = (/** @type {unknown} */ compact) => {
    const msg = parseServerMessage(JSON.stringify({ type: "state", seq: 7, room, to_act: [0], events: [], legal_compact: compact }));
    assert.ok(msg && msg.type === "state");
    return msg.legal_moves;
  };
  assert.deepEqual(parse({ form: "later", size: 14, shapes: [] }), []);
  assert.deepEqual(parse({ form: "shapes", size: 0, shapes: [] }), []);
  assert.deepEqual(parse({ form: "shapes", size: 14, shapes: [{ piece: "I1", cells: [[0]], at: [1] }] }), []);
  assert.deepEqual(parse({ form: "shapes", size: 14, shapes: [{ piece: "I1", cells: [[0, 0]], at: ["1"] }] }), []);
  assert.deepEqual(parse({ form: "shapes", size: 14, shapes: [] }), []);
});
