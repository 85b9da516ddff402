// @ts-check
/**
 * The last move of the game being played, followed through the room's events,
 * and where it shows on the table: the figure just laid, the row it came from,
 * a row just finished. Pure.
 */

/**
 * The public log line of a move (engines/maedn/log.py).
 * @typedef {object} MoveLog
 * @property {number} seat
 * @property {"start"|"extend"|"discard"} type
 * @property {number[]} [dice]
 * @property {number} [die]
 * @property {number} [row]
 * @property {number} [figure]
 * @property {"middle"|"own_row"|"stolen"} [taken_from]
 * @property {number|null} [from_seat]
 * @property {number|null} [from_row]
 * @property {boolean} [row_vanished]
 * @property {{figures: number[], points: number}|null} [finished]
 * @property {number} [score]
 * @property {{reason: string, winner: number|null}|null} [end]
 */

/** @typedef {{seq: number, log: MoveLog}} LastMove */

/**
 * The newest move after `events` (seq ascending), starting from `previous`; a
 * new game forgets the moves of the one before.
 * @param {ReadonlyArray<{seq: number, kind: string, log?: any}>} events
 * @param {LastMove|null} previous
 * @returns {LastMove|null}
 */
export function latestMove(events, previous) {
  let last = previous;
  for (const event of events) {
    if (last && event.seq <= last.seq) continue;
    if (event.kind === "game_started") last = null;
    else if (event.kind === "move" && event.log && typeof event.log === "object") last = { seq: event.seq, log: event.log };
  }
  return last;
}

/**
 * Where the last move shows on the table.
 * @typedef {object} Marks
 * @property {number} seat              who moved
 * @property {number|null} row          the mover's open row now holding the figure
 * @property {number|null} figure
 * @property {number|null} finished     index of the mover's finished row it completed
 * @property {number|null} victim       the seat it was stolen from
 * @property {number|null} discard      the die discarded in a dead end
 */

/**
 * @param {{rows: {figures: number[]}[][], finished: unknown[][]}} view
 * @param {LastMove|null} last
 * @returns {Marks|null}
 */
export function lastMarks(view, last) {
  if (!last) return null;
  const log = last.log;
  const seat = log.seat;
  if (typeof seat !== "number" || !view.rows[seat]) return null;
  const base = { seat, row: null, figure: log.figure ?? null, finished: null, victim: null, discard: null };
  if (log.type === "discard") return { ...base, discard: log.die ?? null };
  const victim = log.taken_from === "stolen" ? log.from_seat ?? null : null;
  if (log.finished) return { ...base, victim, finished: Math.max(0, view.finished[seat].length - 1) };
  const rows = view.rows[seat];
  const figure = log.figure;
  const holds = (/** @type {number} */ i) => i >= 0 && i < rows.length && figure != null && rows[i].figures.includes(figure);
  // an extend names its row before the move; taking from an older own row that emptied moves it up one
  const guess = log.row ?? -1;
  const row = holds(guess) ? guess : holds(guess - 1) ? guess - 1 : rows.findIndex((_, i) => holds(i));
  return { ...base, victim, row: row >= 0 ? row : null };
}
