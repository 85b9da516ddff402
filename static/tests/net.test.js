// @ts-check
import test from "node:test";
import assert from "node:assert/strict";

/** A socket that records what the client sends; the test plays the server. */
class FakeSocket {
  static OPEN = 1;
  /** @type {FakeSocket[]} */
  static made = [];
  /** @param {string} url */
  constructor(url) {
    this.url = url;
    this.readyState = FakeSocket.OPEN;
    /** @type {any[]} */
    this.sent = [];
    /** @type {((e: any) => void) | null} */
    this.onmessage = null;
    /** @type {(() => void) | null} */
    this.onopen = null;
    /** @type {((e: any) => void) | null} */
    this.onclose = null;
    /** @type {(() => void) | null} */
    this.onerror = null;
    FakeSocket.made.push(this);
  }
  /** @param {string} text */
  send(text) {
    this.sent.push(JSON.parse(text));
  }
  close() {}
  /** @param {unknown} message */
  serverSays(message) {
    this.onmessage?.({ data: JSON.stringify(message) });
  }
}

Object.assign(globalThis, { WebSocket: FakeSocket, location: { protocol: "http:", host: "table.test" } });
const { RoomSocket } = await import("../js/net.js");

const STATE = {
  type: "state",
  seq: 4,
  room: { id: "r", game: "blokus", players: 2, status: "playing", seats: [] },
  to_act: [0],
  events: [],
};

test("a rate_limited error carrying a request's id settles that request", async () => {
  const socket = new RoomSocket("r", "token", { onState: () => {} });
  socket.connect();
  const ws = FakeSocket.made.at(-1);
  assert.ok(ws);
  ws.onopen?.();
  ws.serverSays(STATE);
  const pending = socket.chat("hello");
  const { id } = ws.sent.at(-1);
  ws.serverSays({ type: "error", id, code: "rate_limited", message: "Too many messages; slow down." });
  try {
    await assert.rejects(pending, (err) => /** @type {any} */ (err).code === "rate_limited");
    assert.equal(socket.pending.size, 0);
  } finally {
    socket.close();
  }
});
