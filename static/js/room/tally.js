// @ts-check
/** The running tally of a table's games in one line. Pure. */

/**
 * The tally as one line: "Anna 3 – Ben 2".
 * @param {{name: string, wins: number}[]} tally
 */
export function tallyLine(tally) {
  return tally.map((entry) => `${entry.name} ${entry.wins}`).join(" – ");
}

