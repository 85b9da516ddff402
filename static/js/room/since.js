// @ts-check
/** "Since your last turn": the moves others made since you last moved, in one line. Pure. */

import { describeEvent } from "./log.js";

/** @typedef {import("../messages.js").RoomEvent} RoomEvent */

/**
 * The moves of the running game after `you` last moved (all of them if you have not yet).
 * @param {RoomEvent[]} events  the room's public events, oldest first
 * @param {number} you
 * @returns {RoomEvent[]}
 */
export function sinceLastTurn(events, you) {
  const moves = gameMoves(events);
  let mine = -1;
  moves.forEach((event, i) => {
    if (event.seat === you) mine = i;
  });
  return moves.slice(mine + 1).filter((event) => event.seat !== you);
}

/**
 * What "since your last turn" shows now: null when it is not `you`'s turn, or when nobody
 * has moved yet in this game (the first move has nothing to look back on), else the
 * moves since `you` last moved (maybe none: another turn of yours in a row).
 * @param {RoomEvent[]} events  the room's public events, oldest first
 * @param {number | null} you
 * @param {boolean} myTurn
 * @returns {RoomEvent[] | null}
 */
export function sinceShown(events, you, myTurn) {
  if (!myTurn || you == null || !gameMoves(events).length) return null;
  return sinceLastTurn(events, you);
}

/**
 * The moves of the running game: those after the last `game_started`.
 * @param {RoomEvent[]} events
 */
function gameMoves(events) {
  let start = -1;
  events.forEach((event, i) => {
    if (event.kind === "game_started") start = i;
  });
  return events.slice(start + 1).filter((event) => event.kind === "move");
}

/**
 * One line: "Since your last turn: 2 moves — Ben placed F; Cara passed".
 * @param {RoomEvent[]} moves
 * @param {{names: string[], t: import("../i18n.js").Translate, lang: string, describeMove?: any}} ctx
 */
export function summaryLine(moves, ctx) {
  if (!moves.length) return ctx.t("since.none");
  const texts = moves.flatMap((event) => describeEvent(event, ctx).map((line) => line.text));
  const shown = texts.length > 4 ? [...texts.slice(0, 4), "…"] : texts;
  return ctx.t("since.summary", { count: moves.length, lines: shown.join(" ") });
}

