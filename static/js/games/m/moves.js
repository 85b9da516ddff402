// @ts-check
/**
 * The server's legal moves for M, indexed for the screen: which cells each
 * hand card may go to, whether passing (and swapping which card) is allowed,
 * which cards may be taken, which lines may be chosen. The browser holds no
 * rules: everything it highlights comes from here. Pure: no DOM.
 */

import { key } from "./layout.js";

/** @typedef {import("./layout.js").Cell} Cell */
/**
 * A move as the server lists it (engines/m/moves.py).
 * @typedef {{type: "place", card: string, at: Cell}
 *   | {type: "pass", swap?: string}
 *   | {type: "line", line: "row"|"col"}
 *   | {type: "take", card: string}} Move
 */

export class LegalMoves {
  /** @param {ReadonlyArray<any>} moves  the state message's `legal_moves` */
  constructor(moves) {
    /** @type {Map<string, Cell[]>} card id -> cells */
    this.places = new Map();
    /** @type {Map<string, string[]>} cell key -> card ids */
    this.byCell = new Map();
    this.pass = false;
    /** @type {Set<string>} */
    this.swaps = new Set();
    /** @type {Set<string>} */
    this.takes = new Set();
    /** @type {("row"|"col")[]} */
    this.lines = [];
    for (const move of moves ?? []) {
      if (move?.type === "place" && typeof move.card === "string" && Array.isArray(move.at)) {
        const cell = /** @type {Cell} */ ([move.at[0], move.at[1]]);
        const list = this.places.get(move.card) ?? [];
        list.push(cell);
        this.places.set(move.card, list);
        const here = this.byCell.get(key(cell)) ?? [];
        here.push(move.card);
        this.byCell.set(key(cell), here);
      } else if (move?.type === "pass") {
        if (typeof move.swap === "string") this.swaps.add(move.swap);
        else this.pass = true;
      } else if (move?.type === "take" && typeof move.card === "string") {
        this.takes.add(move.card);
      } else if (move?.type === "line" && (move.line === "row" || move.line === "col")) {
        this.lines.push(move.line);
      }
    }
  }

  /** The cells where `card` may be placed (none: it fits nowhere now). @param {string|null} card */
  cellsFor(card) {
    return card ? this.places.get(card) ?? [] : [];
  }

  /** Whether `card` may go to `cell`. @param {string} card @param {ReadonlyArray<number>} cell */
  allows(card, cell) {
    return (this.byCell.get(key(cell)) ?? []).includes(card);
  }

  /** The hand cards that fit at a cell. @param {ReadonlyArray<number>} cell */
  cardsAt(cell) {
    return this.byCell.get(key(cell)) ?? [];
  }

  /** Whether any card may be placed. */
  get canPlace() {
    return this.places.size > 0;
  }

  /** Whether any pass is allowed, with or without a swap. */
  get canPass() {
    return this.pass || this.swaps.size > 0;
  }

  /** Whether there is anything to do at all. */
  get any() {
    return this.canPlace || this.canPass || this.takes.size > 0 || this.lines.length > 0;
  }
}
