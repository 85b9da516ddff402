// @ts-check
import test from "node:test";
import assert from "node:assert/strict";
import { TurnSound } from "../js/sound.js";

function fakeStore() {
  /** @type {Map<string, string>} */
  const data = new Map();
  /** @type {(key: string, value?: string|null) => string|null} */
  const store = (key, value) => {
    if (value === null) data.delete(key);
    else if (value !== undefined) data.set(key, value);
    return data.get(key) ?? null;
  };
  return { store, data };
}

/** An audio context that records the notes it is asked to play. */
function fakeContext() {
  const notes = /** @type {number[]} */ ([]);
  const param = () => ({ value: 0, setValueAtTime() {}, linearRampToValueAtTime() {}, exponentialRampToValueAtTime() {} });
  const node = () => ({ connect: (/** @type {any} */ next) => next });
  const ctx = {
    state: "running",
    currentTime: 0,
    destination: {},
    createOscillator: () => {
      const osc = { ...node(), type: "", frequency: param(), start: () => notes.push(osc.frequency.value), stop() {} };
      return osc;
    },
    createGain: () => ({ ...node(), gain: param() }),
    resume: async () => {},
  };
  return { ctx: /** @type {any} */ (ctx), notes };
}

test("the turn sound is off until the player turns it on", () => {
  const { store } = fakeStore();
  const { ctx, notes } = fakeContext();
  const sound = new TurnSound({ store, makeContext: () => ctx });
  assert.equal(sound.on, false);
  assert.equal(sound.update(true), false);
  assert.deepEqual(notes, []);
});

test("once on, it chimes when the turn comes, not while it lasts, and is remembered", () => {
  const { store, data } = fakeStore();
  const { ctx, notes } = fakeContext();
  const sound = new TurnSound({ store, makeContext: () => ctx });
  sound.set(true); // a sample, so the player hears what they turned on
  assert.equal(notes.length, 2);
  assert.equal(data.get("turn_sound"), "1");
  assert.equal(sound.update(false), false);
  assert.equal(sound.update(true), true);
  assert.equal(sound.update(true), false);
  assert.equal(sound.update(false), false);
  assert.equal(sound.update(true), true);
  assert.equal(notes.length, 6);
  const again = new TurnSound({ store, makeContext: () => ctx });
  assert.equal(again.on, true);
  again.set(false);
  assert.equal(again.update(true), false);
});

test("without Web Audio the sound simply stays silent", () => {
  const { store } = fakeStore();
  const sound = new TurnSound({ store, makeContext: () => null });
  sound.set(true);
  assert.equal(sound.update(true), true);
});
