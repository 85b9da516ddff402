// @ts-check
/** How seats are called on screen: the person's name, the bot's, or "Seat 3". Pure. */

/** @typedef {import("../messages.js").Seat} Seat */
/** @typedef {import("../i18n.js").Translate} Translate */

/**
 * A bot's name in the page's language ("Strong bot"), falling back to its id.
 * @param {string} bot
 * @param {Translate} t
 */
export function botLabel(bot, t) {
  const key = `bot.${bot}`;
  const text = t(key);
  return text === key ? t("bot.other", { bot }) : text;
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
 * Every seat's display name, by seat index.
 * @param {Seat[]} seats
 * @param {Translate} t
 * @returns {string[]}
 */
export function seatNames(seats, t) {
  return seats.map((seat, i) => seatName(seat, i, t));
}
