// @ts-check
/** "How to play" for an M room, fitted to its player count. Pure. */

/** @typedef {import("../../i18n.js").Translate} Translate */

const RULES = ["place", "box", "tokens", "pass", "scoring", "take", "end", "score"];

/**
 * @param {{players: number}} room
 * @param {Translate} t
 * @returns {string[]}
 */
export function howToPlay(room, t) {
  // docs/rules.md M-3: 30 + 10·N cards stay in the game
  const setup = t("m.help.setup", { n: room.players, cards: 30 + 10 * room.players });
  return [t("m.rules.goal"), setup, ...RULES.map((k) => t(`m.rules.${k}`))];
}
