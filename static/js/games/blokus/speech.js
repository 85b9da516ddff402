// @ts-check
/**
 * Blokus read aloud, for a player who cannot see the board: the piece being
 * placed (its name, how it is turned and the squares it would cover), the board
 * around a square, each colour's free corners, and the scores. Rows and columns
 * count from 1 at the top left, as the board's cells are named. Whether a
 * placement is legal comes from the caller (the server's legal moves); the
 * corners are read off the board as it lies. Pure.
 */

import { cellsKey, flip, normalize, rotate } from "./geometry.js";

/** @typedef {import("./geometry.js").Cell} Cell */
/** @typedef {import("../../i18n.js").Translate} Translate */

/**
 * Cells grouped by row: "row 3: columns 4, 5; row 4: column 5".
 * @param {ReadonlyArray<Readonly<Cell>>} cells
 * @param {Translate} t
 */
export function cellsWords(cells, t) {
  /** @type {Map<number, number[]>} */
  const rows = new Map();
  for (const [r, c] of [...cells].sort((a, b) => a[0] - b[0] || a[1] - b[1])) {
    if (!rows.has(r)) rows.set(r, []);
    rows.get(r)?.push(c + 1);
  }
  return [...rows].map(([r, cols]) => t("blokus.say.row_cols", { row: r + 1, count: cols.length, cols: cols.join(", ") })).join("; ");
}

/**
 * How `shape` lies compared with the piece as the tray first shows it: "as in the
 * tray", "turned 90° clockwise", "flipped and turned 180°".
 * @param {ReadonlyArray<Readonly<Cell>>} base
 * @param {ReadonlyArray<Readonly<Cell>>} shape
 * @param {Translate} t
 */
export function orientationWords(base, shape, t) {
  const wanted = cellsKey(normalize(shape));
  for (const flipped of [false, true]) {
    let candidate = normalize(flipped ? flip(base) : base);
    for (let turns = 0; turns < 4; turns++) {
      if (cellsKey(candidate) === wanted) {
        const key = flipped ? (turns ? "blokus.say.flipped_turned" : "blokus.say.flipped") : turns ? "blokus.say.turned" : "blokus.say.unturned";
        return t(key, { degrees: turns * 90 });
      }
      candidate = rotate(candidate);
    }
  }
  return "";
}

/**
 * The piece being placed, where it would go and whether it fits there.
 * @param {{piece: string, base: Cell[], shape: Cell[], cells: Cell[]|null, fits: boolean, spots: number, myTurn: boolean}} p
 * @param {Translate} t
 */
export function pieceWords({ piece, base, shape, cells, fits, spots, myTurn }, t) {
  const parts = [t("blokus.say.piece", { piece, count: shape.length, orientation: orientationWords(base, shape, t) })];
  if (cells) parts.push(t("blokus.say.covers", { cells: cellsWords(cells, t) }));
  if (myTurn) parts.push(fits ? t("blokus.say.fits") : spots ? t("blokus.say.fits_elsewhere", { count: spots }) : t("blokus.say.fits_nowhere"));
  return parts.join(" ");
}

/**
 * What colour a board square holds, by name ("" for empty).
 * @param {any} view
 * @param {number} r
 * @param {number} c
 */
function colourAt(view, r, c) {
  const mark = view.board[r]?.[c] ?? ".";
  return mark === "." ? "" : view.colours[Number(mark)]?.name ?? "";
}

/**
 * The board within two squares of `centre`, row by row, in runs: "row 5: columns
 * 3 to 4 blue, column 5 empty".
 * @param {any} view
 * @param {Cell} centre
 * @param {Translate} t
 */
export function aroundWords(view, centre, t) {
  const size = view.size;
  const top = Math.max(0, Math.min(size - 5, centre[0] - 2));
  const left = Math.max(0, Math.min(size - 5, centre[1] - 2));
  const parts = [t("blokus.say.around", { row: centre[0] + 1, col: centre[1] + 1 })];
  for (let r = top; r < Math.min(size, top + 5); r++) {
    /** @type {{from: number, to: number, colour: string}[]} */
    const runs = [];
    for (let c = left; c < Math.min(size, left + 5); c++) {
      const colour = colourAt(view, r, c);
      const run = runs[runs.length - 1];
      if (run && run.colour === colour) run.to = c;
      else runs.push({ from: c, to: c, colour });
    }
    const words = runs.map((run) =>
      t(run.from === run.to ? "blokus.say.run_one" : "blokus.say.run", {
        from: run.from + 1,
        to: run.to + 1,
        what: run.colour ? t(`blokus.colour.${run.colour}`) : t("blokus.say.empty"),
      }),
    );
    parts.push(t("blokus.say.row", { row: r + 1, runs: words.join(", ") }));
  }
  return parts.join(" ");
}

/**
 * The empty squares touching a colour's pieces only at a corner: where it can
 * still grow. A colour with no piece yet has its start point.
 * @param {any} view
 * @param {number} index
 * @returns {Cell[]}
 */
export function cornersOf(view, index) {
  const mark = String(index);
  const size = view.size;
  const at = (/** @type {number} */ r, /** @type {number} */ c) => (r >= 0 && c >= 0 && r < size && c < size ? view.board[r][c] : "#");
  /** @type {Cell[]} */
  const found = [];
  for (let r = 0; r < size; r++) {
    for (let c = 0; c < size; c++) {
      if (at(r, c) !== ".") continue;
      const side = [at(r - 1, c), at(r + 1, c), at(r, c - 1), at(r, c + 1)].includes(mark);
      const corner = [at(r - 1, c - 1), at(r - 1, c + 1), at(r + 1, c - 1), at(r + 1, c + 1)].includes(mark);
      if (corner && !side) found.push([r, c]);
    }
  }
  return found;
}

/**
 * Every colour's corners where it may still play (or that it is blocked).
 * @param {any} view
 * @param {Translate} t
 */
export function cornersWords(view, t) {
  return view.colours
    .map((/** @type {any} */ colour) => {
      const name = t(`blokus.colour.${colour.name}`);
      if (colour.out) return t("blokus.say.corners_blocked", { colour: name });
      if (!colour.placed) return t("blokus.say.corners_start", { colour: name, row: colour.start[0] + 1, col: colour.start[1] + 1 });
      const corners = cornersOf(view, colour.index);
      return t("blokus.say.corners", { colour: name, count: corners.length, cells: cellsWords(corners, t) });
    })
    .join(" ");
}

/**
 * Each colour's player, pieces left and score.
 * @param {any} view
 * @param {string[]} names
 * @param {Translate} t
 */
export function scoresWords(view, names, t) {
  return view.colours
    .map((/** @type {any} */ colour) =>
      t("blokus.say.score", {
        colour: t(`blokus.colour.${colour.name}`),
        name: colour.owner == null ? t("blokus.shared_colour", { name: names[colour.seat] ?? "" }) : names[colour.owner] ?? "",
        count: colour.remaining.length,
        score: colour.score,
      }) + (colour.out ? ` ${t("blokus.blocked")}.` : ""),
    )
    .join(" ");
}
