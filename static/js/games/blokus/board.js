// @ts-check
/**
 * The Blokus board as SVG: one rect per cell (`data-r`, `data-c`, an aria-label,
 * classes for its state: the colour, `.last`, `.legal`), start points, the ghost
 * of the piece being placed. Pointer positions become board cells here.
 */

import { s } from "../../dom.js";
import { recentMoves } from "./recent.js";
import { markSince } from "../sincemark.js";

/** @typedef {import("./geometry.js").Cell} Cell */
/** @typedef {import("../../i18n.js").Translate} Translate */

/** Marks a colour can wear besides its hue (for colour-blind players): circle, triangle, square, diamond. */
const SYMBOLS = [
  () => s("circle", { cx: 0.5, cy: 0.5, r: 0.2 }),
  () => s("path", { d: "M0.5 0.27 L0.74 0.7 L0.26 0.7 Z" }),
  () => s("rect", { x: 0.3, y: 0.3, width: 0.4, height: 0.4 }),
  () => s("path", { d: "M0.5 0.24 L0.76 0.5 L0.5 0.76 L0.24 0.5 Z" }),
];

/**
 * @typedef {object} BoardHandlers
 * @property {(cell: Cell) => void} onHover
 * @property {(cell: Cell, pointer: string) => void} onActivate
 */

export class Board {
  /**
   * @param {number} size
   * @param {Translate} t
   * @param {BoardHandlers} handlers
   */
  constructor(size, t, handlers) {
    this.size = size;
    this.t = t;
    this.handlers = handlers;
    /** @type {SVGRectElement[][]} */
    this.cells = [];
    /** @type {string[]} */
    this.lastBoard = [];
    /** @type {string[]} colour names by index */
    this.colourNames = [];
    const pad = 0.25;
    this.el = s("svg", {
      class: "game-busy-fade bk-board",
      viewBox: `${-pad} ${-pad} ${size + 2 * pad} ${size + 2 * pad}`,
      role: "grid",
      tabindex: "0",
      "aria-roledescription": t("blokus.board_role"),
      "aria-label": t("blokus.board_label", { size }),
    });
    const defs = s("defs", {}, SYMBOLS.map((make, i) => s("symbol", { id: `bk-sym-${i}`, viewBox: "0 0 1 1" }, make())));
    const frame = s("rect", { class: "bk-frame", x: -pad, y: -pad, width: size + 2 * pad, height: size + 2 * pad, rx: 0.4 });
    const grid = s("g", { class: "bk-cells" });
    for (let r = 0; r < size; r++) {
      const row = s("g", { role: "row" });
      /** @type {SVGRectElement[]} */
      const cells = [];
      for (let c = 0; c < size; c++) {
        const rect = /** @type {SVGRectElement} */ (
          s("rect", {
            class: "cell",
            role: "gridcell",
            x: c + 0.05,
            y: r + 0.05,
            width: 0.9,
            height: 0.9,
            rx: 0.14,
            dataset: { r, c },
          })
        );
        cells.push(rect);
        row.append(rect);
      }
      this.cells.push(cells);
      grid.append(row);
    }
    this.symbols = s("g", { class: "bk-symbols", "aria-hidden": "true" });
    this.marks = s("g", { class: "bk-marks", "aria-hidden": "true" });
    this.since = s("g", { class: "bk-since", "aria-hidden": "true" });
    this.hints = s("g", { class: "bk-hints", "aria-hidden": "true" });
    this.ghost = s("g", { class: "bk-ghost", "aria-hidden": "true" });
    this.el.append(defs, frame, grid, this.symbols, this.marks, this.since, this.hints, this.ghost);
    this.bindPointer();
  }

  /** The board cell under a client point, or null. @param {number} x @param {number} y @returns {Cell|null} */
  cellAt(x, y) {
    const svg = /** @type {SVGSVGElement} */ (/** @type {unknown} */ (this.el));
    const matrix = svg.getScreenCTM();
    if (!matrix) return null;
    const point = new DOMPoint(x, y).matrixTransform(matrix.inverse());
    const r = Math.floor(point.y);
    const c = Math.floor(point.x);
    if (r < 0 || c < 0 || r >= this.size || c >= this.size) return null;
    return [r, c];
  }

  bindPointer() {
    /** @type {string} */
    let downType = "mouse";
    this.el.addEventListener("pointermove", (event) => {
      const e = /** @type {PointerEvent} */ (event);
      if (e.pointerType === "touch" && e.buttons === 0) return;
      const cell = this.cellAt(e.clientX, e.clientY);
      if (cell) this.handlers.onHover(cell);
    });
    this.el.addEventListener("pointerdown", (event) => {
      const e = /** @type {PointerEvent} */ (event);
      downType = e.pointerType;
      if (e.pointerType === "touch" && this.el.classList.contains("bk-dragging")) {
        e.preventDefault();
        const cell = this.cellAt(e.clientX, e.clientY);
        if (cell) this.handlers.onHover(cell);
      }
    });
    this.el.addEventListener("click", (event) => {
      const e = /** @type {MouseEvent} */ (event);
      const cell = this.cellAt(e.clientX, e.clientY);
      if (cell) this.handlers.onActivate(cell, downType);
    });
  }

  /** Touch drags move the piece instead of scrolling while one is picked. @param {boolean} on */
  setDragging(on) {
    this.el.classList.toggle("bk-dragging", on);
  }

  /**
   * Draw the position.
   * @param {any} view  the engine's view (engines/blokus/view.py)
   */
  update(view) {
    const t = this.t;
    this.colourNames = view.colours.map((/** @type {any} */ c) => c.name);
    /** @type {Map<string, number>} each recent move's cells, by how many moves ago (0: newest) */
    const last = new Map();
    for (const { age, cells } of recentMoves(view.colours)) for (const [r, c] of cells) last.set(`${r},${c}`, age);
    this.symbols.replaceChildren();
    for (let r = 0; r < this.size; r++) {
      const row = view.board[r] ?? "";
      for (let c = 0; c < this.size; c++) {
        const mark = row[c] ?? ".";
        const rect = this.cells[r][c];
        const index = mark === "." ? -1 : Number(mark);
        const name = index >= 0 ? this.colourNames[index] : null;
        const age = last.get(`${r},${c}`);
        const recent = age === undefined ? "" : age === 0 ? "last newest" : "last recent";
        const wanted = ["cell", name ? `filled bk-${name}` : "", recent, rect.classList.contains("legal") ? "legal" : ""]
          .filter(Boolean)
          .join(" ");
        if (rect.getAttribute("class") !== wanted) rect.setAttribute("class", wanted);
        const label = name
          ? t("blokus.cell_filled", { row: r + 1, col: c + 1, colour: t(`blokus.colour.${name}`) })
          : t("blokus.cell_empty", { row: r + 1, col: c + 1 });
        if (rect.getAttribute("aria-label") !== label) rect.setAttribute("aria-label", label);
        if (index >= 0) {
          this.symbols.append(
            s("use", { href: `#bk-sym-${index % SYMBOLS.length}`, x: c, y: r, width: 1, height: 1, class: `bk-sym bk-on-${name}` }),
          );
        }
      }
    }
    this.marks.replaceChildren();
    for (const [r, c] of view.start_points ?? []) {
      const owner = view.free_corners
        ? null
        : view.colours.find((/** @type {any} */ col) => col.start[0] === r && col.start[1] === c);
      this.marks.append(
        s("circle", { class: ["bk-start", owner ? `bk-start-${owner.name}` : "bk-start-free"], cx: c + 0.5, cy: r + 0.5, r: 0.28 }),
      );
    }
  }

  /**
   * The squares covered since your last turn: a folded corner on each, and the
   * words in its label. Call after `update` (which draws every square afresh).
   * @param {Cell[]} cells
   * @param {string} words
   */
  markSince(cells, words) {
    this.since.replaceChildren();
    for (const [r, c] of cells) {
      const rect = this.cells[r]?.[c];
      if (!rect) continue;
      markSince(rect, words);
      this.since.append(s("path", { class: "bk-since-mark", d: `M${c + 0.05} ${r + 0.05} h0.42 L${c + 0.05} ${r + 0.47} Z` }));
    }
  }

  /**
   * Anchor cells where the picked piece fits (class `.legal`, and a dot).
   * @param {Cell[]} anchors
   */
  showHints(anchors) {
    for (const row of this.cells) for (const rect of row) rect.classList.remove("legal");
    this.hints.replaceChildren();
    for (const [r, c] of anchors) {
      this.cells[r]?.[c]?.classList.add("legal");
      this.hints.append(s("circle", { class: "bk-hint", cx: c + 0.5, cy: r + 0.5, r: 0.16 }));
    }
  }

  /**
   * The piece being placed.
   * @param {Cell[]|null} cells
   * @param {"legal"|"illegal"|"preview"} state
   * @param {string} colour  colour name
   */
  showGhost(cells, state, colour) {
    this.ghost.replaceChildren();
    this.ghost.setAttribute("class", `bk-ghost ${state} bk-${colour}`);
    if (!cells) return;
    for (const [r, c] of cells) {
      if (r < 0 || c < 0 || r >= this.size || c >= this.size) continue;
      this.ghost.append(s("rect", { x: c + 0.05, y: r + 0.05, width: 0.9, height: 0.9, rx: 0.14 }));
    }
  }
}
