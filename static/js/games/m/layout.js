// @ts-check
/**
 * Where things go on screen. M's coordinates are absolute and may go negative
 * (the start M sits on (1,0) (0,1) (1,2) (0,3) (1,4)); the screen shows cells
 * the 6x6 limit still lets the table reach (every cell that some 6x6 square
 * around the cards now on the table would cover), near enough to the cards to
 * matter, and marks the edges the table can never cross. Pure: no DOM.
 */

/** @typedef {[number, number]} Cell  [row, col], absolute */
/**
 * @typedef {object} Box  the view's `box`
 * @property {number} top
 * @property {number} left
 * @property {number} bottom
 * @property {number} right
 * @property {number} limit
 */
/**
 * @typedef {object} Window  the cells on screen
 * @property {number} top     absolute row of the first screen row
 * @property {number} left    absolute column of the first screen column
 * @property {number} rows
 * @property {number} cols
 */

/** A map key for a cell. @param {ReadonlyArray<number>} cell */
export function key(cell) {
  return `${cell[0]},${cell[1]}`;
}

/**
 * The cells a table inside `box` may still grow into: a card may lie at most
 * `limit - 1` rows from the farthest card, and the same for columns.
 * @param {Box} box
 * @returns {Window}
 */
export function reach(box) {
  const stretch = box.limit - 1;
  const top = box.bottom - stretch;
  const left = box.right - stretch;
  return { top, left, rows: box.top + stretch - top + 1, cols: box.left + stretch - left + 1 };
}

/**
 * The window to draw: the reach of the box, but at most `margin` cells beyond
 * the cards on each side (room far from the cards only makes them small), grown
 * if need be so that every given cell (cards, open cells) shows, whatever the
 * server sends. `limits` tells which edges of the window are edges of the reach:
 * the table can never grow past those.
 * @param {Box} box
 * @param {Iterable<ReadonlyArray<number>>} cells
 * @param {number} [margin]
 * @returns {Window & {limits: {top: boolean, left: boolean, bottom: boolean, right: boolean}}}
 */
export function windowFor(box, cells, margin = 2) {
  const r = reach(box);
  const far = { bottom: r.top + r.rows - 1, right: r.left + r.cols - 1 };
  let top = Math.max(r.top, box.top - margin);
  let left = Math.max(r.left, box.left - margin);
  let bottom = Math.min(far.bottom, box.bottom + margin);
  let right = Math.min(far.right, box.right + margin);
  for (const [row, col] of cells) {
    top = Math.min(top, row);
    left = Math.min(left, col);
    bottom = Math.max(bottom, row);
    right = Math.max(right, col);
  }
  return {
    top,
    left,
    rows: bottom - top + 1,
    cols: right - left + 1,
    limits: { top: top === r.top, left: left === r.left, bottom: bottom === far.bottom, right: right === far.right },
  };
}

/**
 * Every cell of the window, row by row, with its 1-based place on screen (what
 * a label says: absolute coordinates mean nothing to a player).
 * @param {Window} w
 * @returns {{cell: Cell, row: number, col: number}[]}
 */
export function cellsOf(w) {
  const out = [];
  for (let i = 0; i < w.rows; i++) {
    for (let j = 0; j < w.cols; j++) out.push({ cell: /** @type {Cell} */ ([w.top + i, w.left + j]), row: i + 1, col: j + 1 });
  }
  return out;
}

/**
 * Whether a cell lies inside the box the cards now span.
 * @param {Box} box
 * @param {ReadonlyArray<number>} cell
 */
export function inBox(box, cell) {
  return cell[0] >= box.top && cell[0] <= box.bottom && cell[1] >= box.left && cell[1] <= box.right;
}

/**
 * The focusable cell nearest to `from` in a direction (arrow keys on the table):
 * the smallest step along the direction, then the smallest sideways offset.
 * @param {ReadonlyArray<ReadonlyArray<number>>} cells
 * @param {ReadonlyArray<number>} from
 * @param {"up"|"down"|"left"|"right"} direction
 * @returns {Cell|null}
 */
export function nearestIn(cells, from, direction) {
  const [dr, dc] = { up: [-1, 0], down: [1, 0], left: [0, -1], right: [0, 1] }[direction];
  /** @type {Cell|null} */
  let best = null;
  let bestScore = Infinity;
  for (const cell of cells) {
    const along = (cell[0] - from[0]) * dr + (cell[1] - from[1]) * dc;
    if (along <= 0) continue;
    const aside = Math.abs(dr ? cell[1] - from[1] : cell[0] - from[0]);
    const score = along + 2 * aside;
    if (score < bestScore || (score === bestScore && best && aside < Math.abs(dr ? best[1] - from[1] : best[0] - from[0]))) {
      best = [cell[0], cell[1]];
      bestScore = score;
    }
  }
  return best;
}
