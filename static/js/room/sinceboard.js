// @ts-check
/**
 * "Since your last turn" on the board. When it is your turn, the room page asks
 * the replay for the step right after your previous move, seen as your own seat
 * (`GET /api/rooms/{room}/games/{n}/steps/{k}` with your token: only what you
 * could see then), and hands that view to the game's renderer, which marks on
 * the board what differs from now. No new facts reach the page: the replay
 * refuses anything the seat may not see.
 */

import { request } from "../api.js";

/** @typedef {import("../messages.js").RoomEvent} RoomEvent */
/** @typedef {import("../messages.js").StateMessage} StateMessage */

/**
 * The replay step right after `you` last moved in the running game: how many
 * moves of it had been played then (0 when you have not moved yet). Null when
 * the events in hand do not reach back to the start of game `gameNo`.
 * @param {RoomEvent[]} events  the room's public events, oldest first
 * @param {number} you
 * @param {number} gameNo
 * @returns {number|null}
 */
export function lastTurnStep(events, you, gameNo) {
  let start = -1;
  events.forEach((event, i) => {
    if (event.kind === "game_started") start = i;
  });
  if (start < 0 || (events[start].game_no != null && events[start].game_no !== gameNo)) return null;
  let step = 0;
  let mine = 0;
  for (const event of events.slice(start + 1)) {
    if (event.kind !== "move") continue;
    step += 1;
    if (event.seat === you) mine = step;
  }
  return mine;
}

export class SinceBoard {
  /** @param {string} roomId */
  constructor(roomId) {
    this.roomId = roomId;
    /** which step `view` is (game:step:seat), "" for none */
    this.key = "";
    /** @type {any} */
    this.view = null;
    this.wanted = "";
  }

  /**
   * The view to mark changes against for the state now shown, or null (not your
   * turn, or not known yet). When it has to be fetched, `shown` is called with it
   * once it arrives, if it is still the one wanted.
   * @param {StateMessage} current
   * @param {RoomEvent[]} events
   * @param {string|null} token
   * @param {(view: any) => void} shown
   * @returns {any}
   */
  before(current, events, token, shown) {
    const { room, you } = current;
    const myTurn = room.status === "playing" && you != null && current.to_act.includes(you);
    const step = myTurn && you != null ? lastTurnStep(events, you, room.game_no) : null;
    if (step == null || !token) {
      this.wanted = "";
      return null;
    }
    const key = `${room.game_no}:${step}:${you}`;
    this.wanted = key;
    if (this.key === key) return this.view;
    const path = `/api/rooms/${encodeURIComponent(this.roomId)}/games/${room.game_no}/steps/${step}`;
    request("GET", path, { token })
      .then((data) => {
        this.key = key;
        this.view = data.view;
        if (this.wanted === key) shown(data.view);
      })
      .catch(() => {
        // without it the board just carries no marks; the summary line still says what happened
      });
    return null;
  }
}
