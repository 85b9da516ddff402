// @ts-check
/** "How to play" for a Blokus room, fitted to its options: board, player count, free corners. Pure. */

/** @typedef {import("../../i18n.js").Translate} Translate */

/**
 * @param {{players: number, options?: Record<string, unknown>}} room
 * @param {Translate} t
 * @returns {string[]}
 */
export function howToPlay(room, t) {
  const duo = room.options?.variant === "duo";
  const free = !!room.options?.free_corners;
  const setup = duo ? "blokus.help.setup_duo" : `blokus.help.setup_${Math.min(Math.max(room.players, 2), 4)}`;
  const first = duo ? (free ? "blokus.help.first_duo_free" : "blokus.help.first_duo") : free ? "blokus.help.first_free" : "blokus.help.first";
  return [
    t("blokus.rules.goal"),
    t(setup),
    t(first),
    t("blokus.rules.corners"),
    t("blokus.rules.blocked"),
    t("blokus.rules.score"),
  ];
}
