// @ts-check
/**
 * An M card drawn as SVG: its colour, the value in the corner and as notches on
 * the lower edge (one per ten), the symbol in the middle (the 0-cards have
 * none), and the colour's initial for those who switch it on. The drawing is
 * decoration (aria-hidden): whatever holds it carries the words.
 */

import { h, s } from "../../dom.js";

/** @typedef {import("./score.js").Card} Card */
/** @typedef {import("../../i18n.js").Translate} Translate */

/** The five symbols in a 100x100 card, centred a little below the middle. */
const SYMBOL_SHAPES = {
  cube: () => [
    s("path", { class: "mm-face-top", d: "M50 31 L70 42 L50 53 L30 42 Z" }),
    s("path", { class: "mm-face-left", d: "M30 42 L50 53 L50 76 L30 65 Z" }),
    s("path", { class: "mm-face-right", d: "M70 42 L70 65 L50 76 L50 53 Z" }),
  ],
  triangle: () => [s("path", { d: "M50 30 L73 72 L27 72 Z" })],
  moebius: () => [
    s("path", {
      class: "mm-loop",
      d: "M50 53 C43 43 38 40 32 40 C25 40 21 46 21 53 C21 60 25 66 32 66 C38 66 43 63 50 53 C57 43 62 40 68 40 C75 40 79 46 79 53 C79 60 75 66 68 66 C62 66 57 63 50 53 Z",
    }),
  ],
  circle: () => [s("circle", { cx: 50, cy: 53, r: 21 })],
  cross: () => [s("path", { d: "M42 31 H58 V45 H72 V61 H58 V75 H42 V61 H28 V45 H42 Z" })],
};

/**
 * The notches: `count` small marks along the lower edge, centred.
 * @param {number} count
 */
function notches(count) {
  const width = 7;
  const gap = 4;
  const span = count * width + (count - 1) * gap;
  const start = 50 - span / 2;
  return Array.from({ length: count }, (_, i) =>
    s("rect", { class: "mm-notch", x: start + i * (width + gap), y: 86, width, height: 6, rx: 2 }),
  );
}

/**
 * The face of a card.
 * @param {Card} card
 * @param {Translate} t
 * @param {string} [extra]  more classes for the svg
 */
export function cardFace(card, t, extra = "") {
  const shape = card.symbol ? SYMBOL_SHAPES[/** @type {keyof typeof SYMBOL_SHAPES} */ (card.symbol)] : null;
  return s(
    "svg",
    {
      class: ["mm-card", `mm-c-${card.colour}`, extra],
      viewBox: "0 0 100 100",
      "aria-hidden": "true",
      focusable: "false",
      dataset: { card: card.id },
    },
    s("rect", { class: "mm-card-bg", x: 1.5, y: 1.5, width: 97, height: 97, rx: 11 }),
    s("rect", { class: "mm-card-rim", x: 7, y: 7, width: 86, height: 86, rx: 7 }),
    s("text", { class: "mm-card-value", x: 13, y: 26 }, String(card.value)),
    s("text", { class: "mm-card-initial", x: 87, y: 26, "text-anchor": "end" }, t(`m.initial.${card.colour}`)),
    shape ? s("g", { class: `mm-symbol mm-sym-${card.symbol}` }, shape()) : s("text", { class: "mm-card-zero", x: 50, y: 66, "text-anchor": "middle" }, "0"),
    notches(Math.round(card.value / 10)),
  );
}

/** The back of a card (the pile, the size of a hand). @param {string} [extra] */
export function cardBack(extra = "") {
  return s(
    "svg",
    { class: ["mm-back", extra], viewBox: "0 0 70 100", "aria-hidden": "true", focusable: "false" },
    s("rect", { class: "mm-back-bg", x: 2, y: 2, width: 66, height: 96, rx: 9 }),
    s("rect", { class: "mm-back-rim", x: 8, y: 8, width: 54, height: 84, rx: 5 }),
    s("text", { class: "mm-back-m", x: 35, y: 63, "text-anchor": "middle" }, "M"),
  );
}

/** A wooden token. @param {string} [extra] */
export function tokenIcon(extra = "") {
  return s(
    "svg",
    { class: ["mm-token", extra], viewBox: "0 0 20 20", "aria-hidden": "true", focusable: "false" },
    s("circle", { cx: 10, cy: 10, r: 8.5 }),
    s("circle", { class: "mm-token-ring", cx: 10, cy: 10, r: 5 }),
  );
}

/**
 * The words a card button is named by, as hidden text (not an aria-label): the drawing
 * holds visible digits and initials that a label would have to start with.
 * @param {string} text
 */
export function spoken(text) {
  return h("span", { class: "sr-only" }, text);
}
