// @ts-check
/** The card faces: a figure card (number and stars), a dice card (pips), a player's marker. */

import { h, s } from "../../dom.js";

/** @typedef {import("../../i18n.js").Translate} Translate */

/** Pip positions on a 3×3 grid, per face. */
const PIPS = {
  1: [[1, 1]],
  2: [[0, 0], [2, 2]],
  3: [[0, 0], [1, 1], [2, 2]],
  4: [[0, 0], [0, 2], [2, 0], [2, 2]],
  5: [[0, 0], [0, 2], [1, 1], [2, 0], [2, 2]],
  6: [[0, 0], [0, 1], [0, 2], [2, 0], [2, 1], [2, 2]],
};

/**
 * A die's face as a small drawing (the number is in the button's label).
 * @param {number} face
 */
export function dieFace(face) {
  const pips = PIPS[/** @type {1|2|3|4|5|6} */ (face)] ?? [];
  return s(
    "svg",
    { class: "md-die-face", viewBox: "0 0 30 30", "aria-hidden": "true", focusable: "false" },
    s("rect", { class: "md-die-body", x: 1, y: 1, width: 28, height: 28, rx: 6 }),
    pips.map(([col, row]) => s("circle", { class: "md-pip", cx: 7.5 + col * 7.5, cy: 7.5 + row * 7.5, r: 2.7 })),
  );
}

/**
 * "★★" for two stars (decoration: the accessible text says it in words).
 * @param {number} stars
 */
export function starMarks(stars) {
  return stars > 0 ? h("span", { class: "md-stars", "aria-hidden": "true" }, "★".repeat(stars)) : null;
}

/**
 * The accessible words for a figure: "Figure 38, 2 stars".
 * @param {number} figure
 * @param {number} stars
 * @param {Translate} t
 */
export function figureWords(figure, stars, t) {
  return stars ? t("maedn.figure_stars", { figure, count: stars }) : t("maedn.figure", { figure });
}

/**
 * A figure card, as decoration: where it matters, the surrounding element says
 * in words what it shows. The background band follows the middle's four rows
 * of ten (1–10, 11–20 …), which only helps sorting, as on the real table.
 * @param {number} figure
 * @param {number} stars
 * @param {string[]} [classes]
 */
export function figureCard(figure, stars, classes = []) {
  const band = Math.min(3, Math.floor((figure - 1) / 10));
  return h(
    "span",
    { class: ["md-card", `md-band-${band}`, figure === 40 && "md-goal", ...classes], dataset: { figure } },
    h("span", { class: "md-num" }, String(figure)),
    starMarks(stars),
  );
}

/**
 * A player's marker: a disc in their seat colour with their initial, so the
 * colour never stands alone.
 * @param {number} seat
 * @param {string} name
 */
export function pawn(seat, name) {
  const initial = [...name.trim()][0]?.toUpperCase() ?? String(seat + 1);
  return h("span", { class: ["md-pawn", `md-seat-${seat % 4}`], "aria-hidden": "true" }, initial);
}
