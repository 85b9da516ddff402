// @ts-check
/**
 * How a renderer marks what changed since your last turn: the class `since`
 * for the eye (each game's CSS draws it), and the same fact in words for a
 * screen reader — added to the element's label, or as hidden text inside it.
 */

import { h } from "../dom.js";

/**
 * The mark to see: the class `since`, and on an HTML element a folded corner
 * (`.since-flag`, drawn by game.css; an SVG game draws its own).
 * @param {Element} el
 */
export function flagSince(el) {
  el.classList.add("since");
  if (el instanceof HTMLElement && !el.querySelector(":scope > .since-flag")) {
    el.append(h("span", { class: "since-flag", "aria-hidden": "true" }));
  }
}

/**
 * The mark to hear: `words` added to the element's label, or as hidden text inside it.
 * @param {Element} el
 * @param {string} words  e.g. "new since your last turn"
 */
export function tellSince(el, words) {
  const label = el.getAttribute("aria-label");
  if (label != null) {
    if (!label.endsWith(words)) el.setAttribute("aria-label", `${label}, ${words}`);
  } else if (!el.querySelector(":scope > .since-words")) {
    el.append(h("span", { class: "sr-only since-words" }, words));
  }
}

/** Both marks. @param {Element} el @param {string} words */
export function markSince(el, words) {
  flagSince(el);
  tellSince(el, words);
}

/**
 * A points change since your last turn: "+5" to see, the sentence to hear.
 * @param {number} delta
 * @param {string} words
 */
export function gainChip(delta, words) {
  return h(
    "span",
    { class: ["since-gain", delta < 0 && "since-loss"], dataset: { delta } },
    h("span", { "aria-hidden": "true" }, delta > 0 ? `+${delta}` : String(delta)),
    h("span", { class: "sr-only" }, words),
  );
}

/** "+5" or "−3": a signed number inside a sentence. @param {number} delta */
export function signed(delta) {
  return delta > 0 ? `+${delta}` : delta < 0 ? `−${-delta}` : "0";
}
