// @ts-check
/**
 * The time left for each seat the game waits for, on the room page. Live states don't
 * carry deadlines: whenever whose turn it is (or who plays a seat) changes, the page
 * asks `GET /api/rooms/{room}/deadlines` once, then counts down by itself.
 */

import * as api from "../api.js";
import { formatLeft, leftNow } from "../timeleft.js";

/** @typedef {import("../messages.js").StateMessage} StateMessage */
/** @typedef {import("../i18n.js").Translate} Translate */

const TICK_MS = 15_000;

/**
 * What decides the deadlines: a change here means asking again. Pure.
 * @param {StateMessage} state
 */
export function clockKey(state) {
  const { room } = state;
  if (!room.rules?.turn_seconds || room.status !== "playing") return "";
  return [state.game_seq, state.to_act.join(","), room.seats.map((s) => `${s.kind}:${s.stand_in ?? ""}:${s.away_until ?? ""}`).join(",")].join("|");
}

export class RoomClocks {
  /**
   * @param {string} roomId
   * @param {() => void} onChange  re-render the seats
   */
  constructor(roomId, onChange) {
    this.roomId = roomId;
    this.onChange = onChange;
    this.key = "";
    /** @type {Map<number, {left: number, since: number, paused: boolean}>} */
    this.bySeat = new Map();
    /** @type {ReturnType<typeof setInterval>|null} */
    this.timer = null;
  }

  /** @param {StateMessage} state */
  update(state) {
    const key = clockKey(state);
    if (key === this.key) return;
    this.key = key;
    if (!key) {
      this.bySeat.clear();
      this.stopTicking();
      return;
    }
    api
      .deadlines(this.roomId)
      .then((answer) => {
        if (this.key !== key) return;
        const since = Date.now();
        this.bySeat = new Map(answer.deadlines.map((d) => [d.seat, { left: d.left, since, paused: !!d.paused }]));
        if (!this.timer) this.timer = setInterval(() => this.onChange(), TICK_MS);
        this.onChange();
      })
      .catch(() => {
        // the seats show no clock; the next change asks again
        this.key = "";
      });
  }

  /** The time left for `seat` in words, or null when no deadline runs. @param {number} seat @param {Translate} t */
  text(seat, t) {
    const clock = this.bySeat.get(seat);
    if (!clock) return null;
    // a paused clock (its person is away) keeps the time it had left
    if (clock.paused) return t("clock.paused", { left: formatLeft(clock.left, t) });
    return formatLeft(leftNow(clock.left, clock.since, Date.now()), t);
  }

  stopTicking() {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
