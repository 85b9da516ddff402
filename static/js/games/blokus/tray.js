// @ts-check
/** The tray: the remaining pieces of the colour you place, as buttons with a small drawing each. */

import { h, s } from "../../dom.js";

/** @typedef {import("./geometry.js").Cell} Cell */
/** @typedef {import("../../i18n.js").Translate} Translate */

/**
 * A piece drawn in a small SVG.
 * @param {ReadonlyArray<Readonly<Cell>>} cells  normalized
 * @param {string} colour
 */
export function pieceIcon(cells, colour) {
  const side = 5;
  const rows = 1 + Math.max(...cells.map(([r]) => r));
  const cols = 1 + Math.max(...cells.map(([, c]) => c));
  const dx = (side - cols) / 2;
  const dy = (side - rows) / 2;
  return s(
    "svg",
    { class: `bk-piece-icon bk-${colour}`, viewBox: `0 0 ${side} ${side}`, "aria-hidden": "true", focusable: "false" },
    cells.map(([r, c]) => s("rect", { x: c + dx + 0.06, y: r + dy + 0.06, width: 0.88, height: 0.88, rx: 0.14 })),
  );
}

export class Tray {
  /**
   * @param {Translate} t
   * @param {(piece: string) => void} onPick
   */
  constructor(t, onPick) {
    this.t = t;
    this.onPick = onPick;
    this.el = h("div", { class: "bk-tray", role: "group" });
    this.signature = "";
  }

  /**
   * @param {object} p
   * @param {string[]} p.pieces          remaining piece names
   * @param {Record<string, Cell[]>} p.shapes
   * @param {string} p.colour            colour name
   * @param {string|null} p.selected
   * @param {Cell[]|null} p.selectedShape
   * @param {((piece: string) => boolean)|null} p.usable  null: all usable (not your turn: preview)
   */
  update({ pieces, shapes, colour, selected, selectedShape, usable }) {
    const t = this.t;
    this.el.setAttribute("aria-label", t("blokus.tray_label", { colour: t(`blokus.colour.${colour}`) }));
    const signature = JSON.stringify([pieces, colour, selected, selectedShape, usable ? pieces.map(usable) : null, t("blokus.piece_label", { piece: "", count: 1 })]);
    if (signature === this.signature) return;
    this.signature = signature;
    this.el.replaceChildren(
      ...pieces.map((piece) => {
        const shape = piece === selected && selectedShape ? selectedShape : shapes[piece];
        const fits = usable ? usable(piece) : true;
        return h(
          "button",
          {
            type: "button",
            class: ["bk-piece", piece === selected && "selected", !fits && "nofit"],
            dataset: { piece },
            "aria-pressed": piece === selected ? "true" : "false",
            "aria-label": t(fits ? "blokus.piece_label" : "blokus.piece_label_nofit", { piece, count: shape.length }),
            disabled: !fits,
            on: { click: () => this.onPick(piece) },
          },
          pieceIcon(shape, colour),
        );
      }),
    );
  }
}
