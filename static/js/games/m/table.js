// @ts-check
/**
 * The table: the window of cells the 6x6 limit still lets the cards reach, the
 * cards on it, and what you may do there. Cells where the picked card may go
 * and cards you may take are buttons with words; arrow keys move between them.
 * Everything marked comes from the view and the server's legal moves.
 */

import { h } from "../../dom.js";
import { cardBack, cardFace, spoken } from "./card.js";
import { cellsOf, inBox, key, nearestIn, windowFor } from "./layout.js";
import { cardName, lineName, payWords } from "./words.js";

/** @typedef {import("./layout.js").Cell} Cell */
/** @typedef {import("./score.js").Card} Card */
/** @typedef {import("./words.js").Pay} Pay */
/** @typedef {import("../../i18n.js").Translate} Translate */

/**
 * @typedef {object} TableHandlers
 * @property {(cell: Cell) => void} onPlace   a highlighted cell was chosen
 * @property {(card: string) => void} onTake  a card of the scored line was chosen
 */

/**
 * @typedef {object} TableState
 * @property {any} view
 * @property {Card|null} picked          the hand card being placed
 * @property {Cell[]} targets            where it may go
 * @property {Set<string>} takes         card ids you may take now
 * @property {string[]} [names]         seat names, for who would pay a placement
 */

const ARROWS = /** @type {const} */ ({ ArrowUp: "up", ArrowDown: "down", ArrowLeft: "left", ArrowRight: "right" });

export class TableView {
  /**
   * @param {Translate} t
   * @param {TableHandlers} handlers
   */
  constructor(t, handlers) {
    this.t = t;
    this.handlers = handlers;
    this.pile = h("span", { class: "mm-pile" });
    this.boxInfo = h("span", { class: "mm-box-info muted" });
    this.final = h("span", { class: "badge mm-final", hidden: true }, t("m.final_badge"));
    this.grid = h("div", { class: "game-busy-fade mm-grid", role: "group", "aria-label": t("m.table_label") });
    this.el = h(
      "section",
      { class: "mm-table", "aria-label": t("m.table_label") },
      h("div", { class: "mm-table-bar" }, this.pile, this.final, this.boxInfo),
      h("div", { class: "mm-felt" }, this.grid),
    );
    this.grid.addEventListener("keydown", (e) => this.onKey(e));
    this.grid.addEventListener("click", (e) => {
      const button = /** @type {HTMLElement|null} */ (e.target instanceof Element ? e.target.closest("button.mm-cell") : null);
      if (!button) return;
      const cell = /** @type {Cell} */ ([Number(button.dataset.r), Number(button.dataset.c)]);
      if (button.dataset.take) this.handlers.onTake(button.dataset.take);
      else if (button.dataset.target) this.handlers.onPlace(cell);
    });
  }

  /** Arrow keys hop between the buttons of the table. @param {KeyboardEvent} e */
  onKey(e) {
    const direction = ARROWS[/** @type {keyof typeof ARROWS} */ (e.key)];
    const from = /** @type {HTMLElement|null} */ (e.target instanceof Element ? e.target.closest("button.mm-cell") : null);
    if (!direction || !from || e.altKey || e.ctrlKey || e.metaKey) return;
    const buttons = [...this.grid.querySelectorAll("button.mm-cell")].map((b) => /** @type {HTMLElement} */ (b));
    const cells = buttons.map((b) => [Number(b.dataset.r), Number(b.dataset.c)]);
    const next = nearestIn(cells, [Number(from.dataset.r), Number(from.dataset.c)], direction);
    e.preventDefault();
    if (next) buttons[cells.findIndex((c) => c[0] === next[0] && c[1] === next[1])]?.focus();
  }

  /** The first button on the table (to move the focus there after picking a card). */
  firstButton() {
    return /** @type {HTMLButtonElement|null} */ (this.grid.querySelector("button.mm-cell"));
  }

  /** Mark the cells of one line of the choice a little stronger. @param {string|null} line */
  preview(line) {
    this.grid.classList.toggle("preview-row", line === "row");
    this.grid.classList.toggle("preview-col", line === "col");
  }

  /** @param {TableState} p */
  update({ view, picked, targets, takes, names = [] }) {
    const t = this.t;
    const box = view.box;
    const open = new Set((view.open_cells ?? []).map(key));
    const targetSet = new Set(targets.map(key));
    /** @type {Map<string, Card>} */
    const cards = new Map((view.table ?? []).map((/** @type {{at: Cell, card: Card}} */ e) => [key(e.at), e.card]));
    const win = windowFor(box, [...(view.table ?? []).map((/** @type {any} */ e) => e.at), ...(view.open_cells ?? [])]);
    const last = view.last ? key(view.last) : null;
    const scoring = view.scoring;
    /** @type {Map<string, boolean>} cell -> takeable by the rules now */
    const run = new Map((scoring?.run ?? []).map((/** @type {any} */ e) => [key(e.at), !!e.takeable]));
    const choice = view.choice?.lines ?? {};
    const rowLine = new Set((choice.row ?? []).map(key));
    const colLine = new Set((choice.col ?? []).map(key));
    /** @type {Map<string, Pay>} what a placement there would pay you */
    const pays = new Map((view.pays ?? []).map((/** @type {Pay} */ p) => [key(p.at), p]));

    this.pile.replaceChildren(cardBack("mm-pile-icon"), h("span", {}, t("m.pile", { count: view.pile })));
    this.final.hidden = !(scoring?.final || (view.phase !== "over" && view.pile === 0));
    this.final.textContent = t(scoring?.final ? "m.final_badge" : "m.pile_empty_badge");
    this.boxInfo.textContent = t("m.box", { rows: box.height, cols: box.width, limit: box.limit });

    // keep the keyboard where it was across redraws
    const active = document.activeElement;
    const focusKey = active instanceof HTMLElement && this.grid.contains(active) ? `${active.dataset.r},${active.dataset.c}` : null;

    for (const edge of /** @type {const} */ (["top", "left", "bottom", "right"])) this.grid.classList.toggle(`limit-${edge}`, win.limits[edge]);
    this.grid.style.setProperty("--rows", String(win.rows));
    this.grid.style.setProperty("--cols", String(win.cols));
    this.grid.classList.toggle("picking", !!picked);
    this.grid.classList.toggle("taking", takes.size > 0);
    const pickedName = picked ? cardName(picked, t) : "";
    const lineWord = lineName(scoring?.line, t);
    this.grid.replaceChildren(
      ...cellsOf(win).map(({ cell, row, col }) => {
        const k = key(cell);
        const card = cards.get(k);
        const where = { row, col };
        const classes = [
          "mm-cell",
          inBox(box, cell) && "in-box",
          open.has(k) && !card && "open",
          card && "has-card",
          k === last && "last",
          run.has(k) && "run",
          run.get(k) && "takeable",
          rowLine.has(k) && "line-row",
          colLine.has(k) && "line-col",
        ];
        const dataset = { r: cell[0], c: cell[1] };
        if (card && takes.has(card.id)) {
          return h(
            "button",
            {
              type: "button",
              class: [...classes, "can-take"],
              dataset: { ...dataset, take: card.id },
            },
            spoken(t("m.cell.take", { card: cardName(card, t), ...where })),
            cardFace(card, t),
          );
        }
        if (card) {
          const notes = [
            k === last && t("m.cell.note_last"),
            run.has(k) && t("m.cell.note_run", { line: lineWord }),
            run.has(k) && !run.get(k) && t("m.cell.note_pinned"),
          ].filter(Boolean);
          return h(
            "div",
            {
              class: classes,
              dataset,
              role: "img",
              "aria-label": t("m.cell.card", { card: cardName(card, t), ...where }) + notes.map((n) => `, ${n}`).join(""),
            },
            cardFace(card, t),
          );
        }
        if (picked && targetSet.has(k)) {
          const pay = pays.get(k);
          return h(
            "button",
            {
              type: "button",
              class: [...classes, "target"],
              dataset: { ...dataset, target: "1" },
            },
            spoken(t("m.cell.place", { card: pickedName, ...where }) + (pay ? `, ${payWords(pay, names, t)}` : "")),
            cardFace(picked, t, "mm-ghost"),
          );
        }
        return h("div", { class: classes, dataset, "aria-hidden": "true" });
      }),
    );
    if (focusKey) {
      const again = /** @type {HTMLElement|null} */ (this.grid.querySelector(`button.mm-cell[data-r="${focusKey.split(",")[0]}"][data-c="${focusKey.split(",")[1]}"]`));
      again?.focus({ preventScroll: true });
    }
  }
}
