// @ts-check
/** How seats are called on screen: the person's name, the bot's, or "Seat 3". Pure. */

/** @typedef {import("../messages.js").Seat} Seat */
/** @typedef {import("../i18n.js").Translate} Translate */

/**
 * Names bots had before the levels, and the levels they stand for now (as the server's
 * ``LEGACY_BOTS`` in engines/base.py): an old room's log still says them.
 * @type {Record<string, string>}
 */
export const LEGACY_BOTS = { strong: "medium", random: "easy" };

/**
 * The level a bot's name stands for: the name itself, or the level an old name means.
 * @param {string} bot
 */
export function botLevel(bot) {
  return Object.hasOwn(LEGACY_BOTS, bot) ? LEGACY_BOTS[bot] : bot;
}

/**
 * A bot's name in the page's language ("Hard bot"), falling back to its id.
 * @param {string} bot
 * @param {Translate} t
 */
export function botLabel(bot, t) {
  const key = `bot.${botLevel(bot)}`;
  const text = t(key);
  return text === key ? t("bot.other", { bot }) : text;
}

/**
 * One sentence on how a bot plays, in the page's language; "" for a bot without one.
 * @param {string} bot
 * @param {Translate} t
 */
export function botAbout(bot, t) {
  const key = `bot.${botLevel(bot)}.about`;
  const text = t(key);
  return text === key ? "" : text;
}

/**
 * @param {Seat|undefined} seat
 * @param {number} index
 * @param {Translate} t
 */
export function seatName(seat, index, t) {
  if (seat?.name) return seat.name;
  if (seat?.kind === "bot" && seat.bot) return botLabel(seat.bot, t);
  return t("seat.numbered", { n: index + 1 });
}

/**
 * Every seat's display name, by seat index. Two bots of one kind are told apart by
 * a number in seat order ("Medium bot 1", "Medium bot 2"), so a result or a log
 * never shows two equal names.
 * @param {Seat[]} seats
 * @param {Translate} t
 * @returns {string[]}
 */
export function seatNames(seats, t) {
  const names = seats.map((seat, i) => seatName(seat, i, t));
  /** @type {Map<string, number[]>} */
  const bots = new Map();
  seats.forEach((seat, i) => {
    if (seat?.name || seat?.kind !== "bot" || !seat.bot) return;
    bots.set(names[i], [...(bots.get(names[i]) ?? []), i]);
  });
  for (const [label, indices] of bots) {
    if (indices.length < 2) continue;
    indices.forEach((i, k) => {
      names[i] = t("bot.numbered", { bot: label, n: k + 1 });
    });
  }
  return names;
}
