// @ts-check
/**
 * What you may do now, read from the server's `legal_moves` — never decided here.
 * Pure: the legal moves are grouped by the dice they play (one die, or both to
 * start a row), and each becomes a target (a new row, one of your rows, a
 * discard) with a preview, taken from the view, of the figure it takes and from
 * where: the middle, one of your own rows, or another player's row.
 */

/**
 * @typedef {{type: "start", dice: number[], from?: number}} StartMove
 * @typedef {{type: "extend", row: number, die: number, from?: number}} ExtendMove
 * @typedef {{type: "discard", die: number}} DiscardMove
 * @typedef {StartMove|ExtendMove|DiscardMove} Move
 */

/**
 * The parts of the view (engines/maedn/view.py) the helpers read.
 * @typedef {{figures: number[], stars: number[]}} Row
 * @typedef {{figure: number, count: number, copies: number, stars: number}} Slot
 * @typedef {object} View
 * @property {number} players
 * @property {number|null} seat
 * @property {number[]|null} hand
 * @property {Row[][]} rows
 * @property {Slot[]} middle
 */

/**
 * Where a move's figure comes from.
 * @typedef {object} Take
 * @property {"middle"|"own_row"|"stolen"} source
 * @property {number|null} from      the seat whose row gives it (null: the middle)
 * @property {number|null} fromRow   that row's index
 * @property {boolean} vanishes      that row holds nothing else, so it disappears
 */

/**
 * One dice choice: the dice played together, and whether it can only be discarded.
 * @typedef {{key: string, dice: number[], sum: number, discard: boolean}} Choice
 */

/**
 * One place the chosen dice can go, with what it would take.
 * @typedef {object} Target
 * @property {string} key            stable within a position: "new", "row:1", "discard", plus ":from:2"
 * @property {Move} move             the legal move, as the server spelled it
 * @property {"start"|"extend"|"discard"} kind
 * @property {number[]} dice
 * @property {number|null} row       the row extended (null: a new row, or a discard)
 * @property {number|null} last      that row's last figure
 * @property {number|null} figure    the figure taken (null for a discard)
 * @property {number} stars
 * @property {boolean} finishes      the figure is the 40
 * @property {Take|null} take
 */

export const GOAL = 40;

const ascending = (/** @type {number} */ a, /** @type {number} */ b) => a - b;

/** The dice a move plays, ascending. @param {Move} move */
export function diceOf(move) {
  return move.type === "start" ? [...move.dice].sort(ascending) : [move.die];
}

/** "3" for one die, "2+6" for two: the same dice give the same key in any order. @param {number[]} dice */
export function diceKey(dice) {
  return [...dice].sort(ascending).join("+");
}

/** Whether the only legal moves are discards (the dead end). @param {Move[]} legal */
export function isDeadEnd(legal) {
  return legal.length > 0 && legal.every((move) => move.type === "discard");
}

/**
 * The ways to play dice now, one per distinct key, singles before the pair.
 * @param {Move[]} legal
 * @returns {Choice[]}
 */
export function diceChoices(legal) {
  /** @type {Map<string, Choice>} */
  const found = new Map();
  for (const move of legal) {
    const dice = diceOf(move);
    const key = diceKey(dice);
    if (!found.has(key)) found.set(key, { key, dice, sum: dice.reduce((a, b) => a + b, 0), discard: move.type === "discard" });
  }
  return [...found.values()].sort((a, b) => a.dice.length - b.dice.length || a.sum - b.sum);
}

/**
 * The figure a move asks for: the dice's sum for a start, the row's last figure
 * plus the die for an extend; null for a discard or a row the view doesn't have.
 * @param {View} view
 * @param {number} seat
 * @param {Move} move
 * @returns {number|null}
 */
export function figureOf(view, seat, move) {
  if (move.type === "start") return move.dice.reduce((a, b) => a + b, 0);
  if (move.type === "extend") {
    const row = view.rows[seat]?.[move.row];
    return row && row.figures.length ? row.figures[row.figures.length - 1] + move.die : null;
  }
  return null;
}

/**
 * Every open row holding each figure: `result[figure]` lists `{seat, row}`, seats
 * ascending, each seat's rows oldest first.
 * @param {View} view
 * @returns {{seat: number, row: number}[][]}
 */
export function holders(view) {
  /** @type {{seat: number, row: number}[][]} */
  const found = Array.from({ length: GOAL + 1 }, () => []);
  view.rows.forEach((rows, seat) =>
    rows.forEach((row, index) => {
      for (const figure of row.figures) found[figure]?.push({ seat, row: index });
    }),
  );
  return found;
}

/**
 * Where `seat`'s move would take its figure from, as the view shows the table:
 * the middle if a copy lies there; else the oldest of your rows holding it; else
 * the player the move names in `from`, or the one player who has it.
 * @param {View} view
 * @param {number} seat
 * @param {Move} move
 * @returns {Take|null}
 */
export function takeOf(view, seat, move) {
  const figure = figureOf(view, seat, move);
  if (figure == null || move.type === "discard") return null;
  const slot = view.middle[figure - 1];
  if (slot && slot.count > 0) return { source: "middle", from: null, fromRow: null, vanishes: false };
  const rows = holders(view)[figure] ?? [];
  const own = rows.find((r) => r.seat === seat);
  const other = move.from != null ? rows.find((r) => r.seat === move.from) : rows.find((r) => r.seat !== seat);
  const spot = own ?? other;
  if (!spot) return null;
  const figures = view.rows[spot.seat][spot.row].figures;
  return {
    source: own ? "own_row" : "stolen",
    from: spot.seat,
    fromRow: spot.row,
    vanishes: figures.length === 1,
  };
}

/** A key naming the target of a move within one position. @param {Move} move */
export function targetKey(move) {
  const base = move.type === "start" ? "new" : move.type === "extend" ? `row:${move.row}` : "discard";
  return "from" in move && move.from != null ? `${base}:from:${move.from}` : base;
}

/**
 * The targets of one dice choice: a new row first, then your rows in order, then
 * discards; a figure two players hold gives one target per player.
 * @param {View} view
 * @param {number} seat
 * @param {Move[]} legal
 * @param {string} key  a Choice's key
 * @returns {Target[]}
 */
export function targetsFor(view, seat, legal, key) {
  const order = { start: 0, extend: 1, discard: 2 };
  return legal
    .filter((move) => diceKey(diceOf(move)) === key)
    .map((move) => {
      const figure = figureOf(view, seat, move);
      const row = move.type === "extend" ? move.row : null;
      const figures = row == null ? null : view.rows[seat]?.[row]?.figures ?? null;
      return {
        key: targetKey(move),
        move,
        kind: move.type,
        dice: diceOf(move),
        row,
        last: figures ? figures[figures.length - 1] : null,
        figure,
        stars: figure == null ? 0 : view.middle[figure - 1]?.stars ?? 0,
        finishes: figure === GOAL,
        take: takeOf(view, seat, move),
      };
    })
    .sort(
      (a, b) =>
        order[a.kind] - order[b.kind] ||
        (a.row ?? -1) - (b.row ?? -1) ||
        (a.take?.from ?? -1) - (b.take?.from ?? -1),
    );
}

/**
 * Whether two targets ask for the same figure from different players: the
 * player must choose whom to take it from.
 * @param {Target[]} targets
 * @returns {number[]}  the figures with a choice of victim
 */
export function victimChoices(targets) {
  /** @type {Map<string, number>} */
  const seen = new Map();
  /** @type {Set<number>} */
  const figures = new Set();
  for (const target of targets) {
    if (target.take?.source !== "stolen" || target.figure == null || !("from" in target.move)) continue;
    if (target.move.from == null) continue;
    const place = `${target.kind}:${target.row}`;
    seen.set(place, (seen.get(place) ?? 0) + 1);
    if ((seen.get(place) ?? 0) > 1) figures.add(target.figure);
  }
  return [...figures].sort(ascending);
}

