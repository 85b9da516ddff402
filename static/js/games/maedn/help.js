// @ts-check
/** "How to play" for a room of Mensch ärgere Dich nicht: Das Kartenspiel, fitted to its player count. Pure. */

/** @typedef {import("../../i18n.js").Translate} Translate */

/** Points that win, by player count (docs/rules.md MAEDN-16). */
const TARGET = /** @type {Record<number, number>} */ ({ 2: 40, 3: 35, 4: 30 });

/**
 * @param {{players: number}} room
 * @param {Translate} t
 * @returns {string[]}
 */
export function howToPlay(room, t) {
  const target = TARGET[room.players] ?? 30;
  return [
    t("maedn.help.goal", { n: room.players, target }),
    t(room.players === 2 ? "maedn.help.figures_2" : "maedn.help.figures"),
    ...["turn", "take", "rows", "finish", "stuck"].map((k) => t(`maedn.rules.${k}`)),
  ];
}
