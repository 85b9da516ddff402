// @ts-check
/**
 * Time per move in words: how long a room gives each move, and how much of it is
 * left ("2 d 5 h", "40 min"). Pure, so the lobby, the room page and tests share it.
 */

/** @typedef {import("./i18n.js").Translate} Translate */

/** The choices a room can be created with, in seconds (null: no limit). */
export const TURN_CHOICES = Object.freeze([null, 3600, 43200, 86400, 259200, 604800]);

/**
 * "1 hour per move", "3 days per move", or "no time limit".
 * @param {number|null|undefined} seconds
 * @param {Translate} t
 */
export function turnTimeLabel(seconds, t) {
  if (!seconds) return t("clock.no_limit");
  if (seconds % 86400 === 0) return t("clock.days_per_move", { count: seconds / 86400 });
  return t("clock.hours_per_move", { count: Math.round(seconds / 3600) });
}

/**
 * The time left in the two largest units that matter: "2 d 5 h", "5 h 12 min", "12 min".
 * @param {number} seconds
 * @param {Translate} t
 */
export function formatLeft(seconds, t) {
  if (seconds <= 0) return t("clock.up");
  if (seconds < 60) return t("clock.under_a_minute");
  const minutes = Math.floor(seconds / 60);
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const mins = minutes % 60;
  if (days > 0) return hours > 0 ? t("clock.days_hours", { d: days, h: hours }) : t("clock.days", { d: days });
  if (hours > 0) return mins > 0 ? t("clock.hours_minutes", { h: hours, m: mins }) : t("clock.hours", { h: hours });
  return t("clock.minutes", { m: mins });
}

/**
 * Seconds left now for a deadline the server reported `left` seconds before `since`
 * (ms, this browser's clock): the server's own clock decides, the browser only counts down.
 * @param {number} left
 * @param {number} since
 * @param {number} now
 */
export function leftNow(left, since, now) {
  return Math.max(0, left - (now - since) / 1000);
}

/**
 * "My tables" order: your turn first (least time left first), then tables waiting
 * for others (least time left first), then the rest as they came (most recent use first).
 * @template {{kind: string, left: number|null, order: number}} T
 * @param {T[]} rows
 * @returns {T[]}
 */
export function orderTables(rows) {
  const rank = (/** @type {string} */ kind) => ({ turn: 0, wait: 1, lobby: 2, over: 3 })[kind] ?? 4;
  const left = (/** @type {number|null} */ value) => (value == null ? Infinity : value);
  return [...rows].sort((a, b) => rank(a.kind) - rank(b.kind) || left(a.left) - left(b.left) || a.order - b.order);
}
