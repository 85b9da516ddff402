// @ts-check
/**
 * MÄDN "since your last turn": what two views (engines/maedn/view.py) differ by
 * — the figures that came into each player's rows (from the middle or stolen),
 * the figures taken from each player, the rows finished, and each player's points. Rows, finished rows and scores
 * are public. Pure.
 */

/**
 * @typedef {object} MaednChanges
 * @property {Map<number, number>[]} figures  per seat: figure -> how many of its copies are new in that seat's open rows
 * @property {number[][]} lost                 per seat: the figures it no longer has (taken by another player)
 * @property {number[]} finished              per seat: how many finished rows are new (the last ones)
 * @property {number[]} points                points gained (or lost) per seat
 */

/** @param {any[]} rows @returns {Map<number, number>} */
function counts(rows) {
  /** @type {Map<number, number>} */
  const out = new Map();
  for (const row of rows ?? []) for (const figure of row.figures ?? []) out.set(figure, (out.get(figure) ?? 0) + 1);
  return out;
}

/**
 * @param {any} before
 * @param {any} now
 * @returns {MaednChanges}
 */
export function changes(before, now) {
  const seats = Array.from({ length: now.players ?? 0 }, (_, seat) => seat);
  const all = (/** @type {any} */ view, /** @type {number} */ seat) => counts([...(view.rows?.[seat] ?? []), ...(view.finished?.[seat] ?? [])]);
  return {
    figures: seats.map((seat) => more(counts(now.rows?.[seat]), counts(before.rows?.[seat]))),
    lost: seats.map((seat) => [...more(all(before, seat), all(now, seat))].flatMap(([figure, n]) => Array(n).fill(figure)).sort((a, b) => a - b)),
    finished: seats.map((seat) => Math.max(0, (now.finished?.[seat]?.length ?? 0) - (before.finished?.[seat]?.length ?? 0))),
    points: seats.map((seat) => (now.scores?.[seat] ?? 0) - (before.scores?.[seat] ?? 0)),
  };
}

/** What `a` holds beyond `b`. @param {Map<number, number>} a @param {Map<number, number>} b */
function more(a, b) {
  /** @type {Map<number, number>} */
  const out = new Map();
  for (const [figure, count] of a) if (count > (b.get(figure) ?? 0)) out.set(figure, count - (b.get(figure) ?? 0));
  return out;
}
