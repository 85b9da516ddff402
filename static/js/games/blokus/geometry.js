// @ts-check
/**
 * Blokus piece geometry for the browser: rotate, flip, move a shape, and look a
 * placement up among the legal moves the server sent. No rules here: whether a
 * placement is legal is only ever "is it in `legal_moves`". Pure, no DOM.
 */

/** @typedef {[number, number]} Cell  [row, col] */
/** @typedef {{piece: string, cells: Cell[]}} Move */

/**
 * The cells moved to touch row 0 and column 0, sorted row-major.
 * @param {ReadonlyArray<Readonly<Cell>>} cells
 * @returns {Cell[]}
 */
export function normalize(cells) {
  if (!cells.length) return [];
  const top = Math.min(...cells.map(([r]) => r));
  const left = Math.min(...cells.map(([, c]) => c));
  return sortCells(cells.map(([r, c]) => /** @type {Cell} */ ([r - top, c - left])));
}

/**
 * @param {ReadonlyArray<Readonly<Cell>>} cells
 * @returns {Cell[]}
 */
export function sortCells(cells) {
  return cells.map(([r, c]) => /** @type {Cell} */ ([r, c])).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
}

/** A key for a set of absolute cells (order-free). @param {ReadonlyArray<Readonly<Cell>>} cells */
export function cellsKey(cells) {
  return sortCells(cells)
    .map(([r, c]) => `${r},${c}`)
    .join(";");
}

/** A key for a shape wherever it lies. @param {ReadonlyArray<Readonly<Cell>>} cells */
export function shapeKey(cells) {
  return cellsKey(normalize(cells));
}

/** A quarter turn clockwise (row down, column right). @param {ReadonlyArray<Readonly<Cell>>} cells */
export function rotate(cells) {
  return normalize(cells.map(([r, c]) => /** @type {Cell} */ ([c, -r])));
}

/** A quarter turn counter-clockwise. @param {ReadonlyArray<Readonly<Cell>>} cells */
export function rotateBack(cells) {
  return normalize(cells.map(([r, c]) => /** @type {Cell} */ ([-c, r])));
}

/** Mirror left to right. @param {ReadonlyArray<Readonly<Cell>>} cells */
export function flip(cells) {
  return normalize(cells.map(([r, c]) => /** @type {Cell} */ ([r, -c])));
}

/**
 * The distinct orientations of a shape (rotations, then the mirrored ones).
 * @param {ReadonlyArray<Readonly<Cell>>} cells
 * @returns {Cell[][]}
 */
export function orientations(cells) {
  /** @type {Map<string, Cell[]>} */
  const found = new Map();
  for (let start of [normalize(cells), flip(cells)]) {
    for (let i = 0; i < 4; i++) {
      found.set(cellsKey(start), start);
      start = rotate(start);
    }
  }
  return [...found.values()];
}

/**
 * The cell of a (normalized) shape nearest its centre: it sits under the pointer.
 * @param {ReadonlyArray<Readonly<Cell>>} shape
 * @returns {Cell}
 */
export function anchorOf(shape) {
  const rows = shape.map(([r]) => r);
  const cols = shape.map(([, c]) => c);
  const midR = (Math.min(...rows) + Math.max(...rows)) / 2;
  const midC = (Math.min(...cols) + Math.max(...cols)) / 2;
  let best = shape[0];
  let bestDist = Infinity;
  for (const cell of sortCells(shape)) {
    const dist = (cell[0] - midR) ** 2 + (cell[1] - midC) ** 2;
    if (dist < bestDist - 1e-9) {
      best = cell;
      bestDist = dist;
    }
  }
  return [best[0], best[1]];
}

/**
 * The board cells a shape covers with its anchor on `at`.
 * @param {ReadonlyArray<Readonly<Cell>>} shape  normalized
 * @param {Readonly<Cell>} at
 * @returns {Cell[]}
 */
export function placeAt(shape, at) {
  const [ar, ac] = anchorOf(shape);
  return shape.map(([r, c]) => /** @type {Cell} */ ([r - ar + at[0], c - ac + at[1]]));
}

/**
 * The anchor position nearest `at` that keeps the whole shape on a size x size board.
 * @param {ReadonlyArray<Readonly<Cell>>} shape
 * @param {Readonly<Cell>} at
 * @param {number} size
 * @returns {Cell}
 */
export function clampAnchor(shape, at, size) {
  const [ar, ac] = anchorOf(shape);
  const height = 1 + Math.max(...shape.map(([r]) => r));
  const width = 1 + Math.max(...shape.map(([, c]) => c));
  const r = Math.min(Math.max(at[0], ar), size - height + ar);
  const c = Math.min(Math.max(at[1], ac), size - width + ac);
  return [r, c];
}

/**
 * @param {ReadonlyArray<Readonly<Cell>>} cells
 * @param {number} size
 */
export function onBoard(cells, size) {
  return cells.every(([r, c]) => r >= 0 && c >= 0 && r < size && c < size);
}

/** The legal moves of this turn, indexed for quick look-ups while a piece is dragged. */
export class LegalIndex {
  /** @param {ReadonlyArray<Move>} moves  `legal_moves` from the state message */
  constructor(moves) {
    /** @type {Set<string>} */
    this.keys = new Set();
    /** @type {Map<string, Move[]>} */
    this.byPiece = new Map();
    for (const move of moves) {
      if (!move || typeof move.piece !== "string" || !Array.isArray(move.cells)) continue;
      this.keys.add(`${move.piece}|${cellsKey(move.cells)}`);
      const list = this.byPiece.get(move.piece) ?? [];
      list.push(move);
      this.byPiece.set(move.piece, list);
    }
  }

  get size() {
    return this.keys.size;
  }

  /** @param {string} piece @param {ReadonlyArray<Readonly<Cell>>} cells */
  has(piece, cells) {
    return this.keys.has(`${piece}|${cellsKey(cells)}`);
  }

  /** @param {string} piece */
  canPlace(piece) {
    return this.byPiece.has(piece);
  }

  /**
   * Where the anchor of `shape` (one orientation of `piece`) may go: one cell per legal placement.
   * @param {string} piece
   * @param {ReadonlyArray<Readonly<Cell>>} shape  normalized
   * @returns {Cell[]}
   */
  anchors(piece, shape) {
    const key = cellsKey(shape);
    const [ar, ac] = anchorOf(shape);
    /** @type {Cell[]} */
    const out = [];
    for (const move of this.byPiece.get(piece) ?? []) {
      if (shapeKey(move.cells) !== key) continue;
      const top = Math.min(...move.cells.map(([r]) => r));
      const left = Math.min(...move.cells.map(([, c]) => c));
      out.push([top + ar, left + ac]);
    }
    return sortCells(out);
  }

  /**
   * The orientations of `piece` that fit somewhere, as shape keys.
   * @param {string} piece
   * @returns {Set<string>}
   */
  shapesOf(piece) {
    return new Set((this.byPiece.get(piece) ?? []).map((m) => shapeKey(m.cells)));
  }
}
