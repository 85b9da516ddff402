// @ts-check
/**
 * Blokus "since your last turn": what two views (engines/blokus/view.py) differ
 * by — the squares covered since, and each colour's points gained. Both views
 * are public facts (the board and the scores lie open). Pure.
 */

/** @typedef {import("./geometry.js").Cell} Cell */

/**
 * The squares empty in `before` and covered in `now`.
 * @param {any} before
 * @param {any} now
 * @returns {Cell[]}
 */
export function newCells(before, now) {
  /** @type {Cell[]} */
  const cells = [];
  (now.board ?? []).forEach((/** @type {string} */ row, /** @type {number} */ r) => {
    const was = before.board?.[r] ?? "";
    for (let c = 0; c < row.length; c++) if (row[c] !== "." && (was[c] ?? ".") === ".") cells.push([r, c]);
  });
  return cells;
}

/**
 * Each colour's points gained since `before`, by colour index (0 where none).
 * @param {any} before
 * @param {any} now
 * @returns {number[]}
 */
export function scoreGains(before, now) {
  return (now.colours ?? []).map((/** @type {any} */ colour, /** @type {number} */ i) => colour.score - (before.colours?.[i]?.score ?? colour.score));
}
