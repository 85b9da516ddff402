// @ts-check
/** The running tally of a table's games in one line. Pure. */

import { botLabel } from "./names.js";

/**
 * The tally as one line: "Anna 3 – Ben 2"; a bot is named in the page's language.
 * @param {{name: string, wins: number, bot?: string}[]} tally
 * @param {import("../i18n.js").Translate} t
 */
export function tallyLine(tally, t) {
  return tally.map((entry) => `${entry.bot ? botLabel(entry.bot, t) : entry.name} ${entry.wins}`).join(" – ");
}
