// @ts-check
/**
 * An optional, quiet chime when it becomes your turn: off unless the player turns
 * it on, and remembered in this browser. The sound is made on the spot with the
 * Web Audio API (two soft sine notes), so no audio file is loaded.
 */

/**
 * @typedef {object} SoundOptions
 * @property {(key: string, value?: string|null) => string|null} store  read/write a preference
 * @property {() => AudioContext|null} [makeContext]  the audio context maker (tests pass their own)
 */

const KEY = "turn_sound";
/** Two notes (Hz), each `NOTE` seconds, at a low volume. */
const NOTES = [659.25, 880];
const NOTE = 0.14;
const VOLUME = 0.06;

export class TurnSound {
  /** @param {SoundOptions} options */
  constructor({ store, makeContext }) {
    this.store = store;
    this.makeContext = makeContext ?? defaultContext;
    /** @type {AudioContext|null} */
    this.context = null;
    this.wasMyTurn = false;
    this.played = 0;
  }

  /** Whether the player turned the sound on (off by default). */
  get on() {
    return this.store(KEY) === "1";
  }

  /** Turn the sound on or off and remember it; turning it on plays the chime once, as a sample. @param {boolean} on */
  set(on) {
    this.store(KEY, on ? "1" : "0");
    if (on) this.chime();
  }

  /**
   * Tell whether it is this player's turn now; chimes on the change from not to yes.
   * @param {boolean} myTurn
   * @returns {boolean} whether it chimed
   */
  update(myTurn) {
    const starts = myTurn && !this.wasMyTurn;
    this.wasMyTurn = myTurn;
    if (!starts || !this.on) return false;
    this.chime();
    return true;
  }

  /** Browsers let a page make sound only after a gesture: call this from one. */
  unlock() {
    if (!this.on) return;
    const ctx = this.audio();
    if (ctx && ctx.state === "suspended") void ctx.resume();
  }

  /** @returns {AudioContext|null} */
  audio() {
    if (!this.context) this.context = this.makeContext();
    return this.context;
  }

  chime() {
    this.played += 1;
    const ctx = this.audio();
    if (!ctx) return;
    if (ctx.state === "suspended") void ctx.resume();
    const start = ctx.currentTime + 0.02;
    NOTES.forEach((freq, i) => {
      const at = start + i * NOTE;
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.type = "sine";
      osc.frequency.value = freq;
      // a soft attack and a gentle fade, so it never clicks
      gain.gain.setValueAtTime(0, at);
      gain.gain.linearRampToValueAtTime(VOLUME, at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + NOTE * 1.8);
      osc.connect(gain).connect(ctx.destination);
      osc.start(at);
      osc.stop(at + NOTE * 2);
    });
  }
}

/** @returns {AudioContext|null} */
function defaultContext() {
  const Ctor = globalThis.AudioContext ?? /** @type {any} */ (globalThis).webkitAudioContext;
  if (!Ctor) return null;
  try {
    return new Ctor();
  } catch {
    return null;
  }
}
