// @ts-check
/**
 * Which colours moved most recently, newest first. Pure.
 *
 * Every colour still in the game places exactly one piece per round, in turn
 * order, so a colour with `placed` pieces made its last move in round
 * `placed - 1`, and within a round the turn order decides: that orders the last
 * moves without any history. Only the moves of the latest round window count
 * (at most one per colour): older outlines would only add noise.
 */

/**
 * @typedef {object} ColourView
 * @property {number} index
 * @property {number} placed
 * @property {number[][]} [last_cells]
 */

/**
 * @param {ColourView[]} colours  the view's colours, in turn order
 * @returns {{index: number, age: number, cells: number[][]}[]}  age 0 is the newest move
 */
export function recentMoves(colours) {
  const count = colours.length;
  const moves = colours
    .filter((c) => c.placed > 0 && (c.last_cells?.length ?? 0) > 0)
    .map((c) => ({ index: c.index, order: (c.placed - 1) * count + c.index, cells: c.last_cells ?? [] }))
    .sort((a, b) => b.order - a.order);
  if (!moves.length) return [];
  const newest = moves[0].order;
  return moves
    .filter((m) => newest - m.order < count)
    .map((m, age) => ({ index: m.index, age, cells: m.cells }));
}
