// @ts-check
/**
 * Confirming a move that can't be taken back, in a room that confirms moves: the board
 * keeps showing the chosen move (the renderer waits for the answer), and a bar asks for
 * a second click: "Confirm move" (focused, so Enter confirms) or "Cancel" (Escape too).
 * Which moves need it the server says (`confirm` in the state message).
 */

import { h } from "../dom.js";

/**
 * Whether `move` needs confirming: `confirm` is one flag for all the legal moves, or a
 * flag per move of `legal` in its order.
 * @param {boolean | boolean[] | undefined} confirm
 * @param {unknown[]} legal
 * @param {unknown} move
 */
export function needsConfirm(confirm, legal, move) {
  if (confirm === true) return true;
  if (!Array.isArray(confirm)) return false;
  const wanted = canonical(move);
  const index = legal.findIndex((m) => canonical(m) === wanted);
  return index < 0 ? true : !!confirm[index];
}

/** JSON with sorted keys, so two spellings of one move compare equal. @param {unknown} value @returns {string} */
function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/**
 * Ask in `root` to confirm; resolves true for Confirm, false for Cancel or Escape.
 * @param {HTMLElement} root
 * @param {(key: string) => string} t
 * @returns {Promise<boolean>}
 */
export function askToConfirm(root, t) {
  return new Promise((resolve) => {
    const previous = document.activeElement;
    /** @param {boolean} yes */
    const done = (yes) => {
      root.hidden = true;
      root.replaceChildren();
      root.removeEventListener("keydown", onKey);
      if (!yes && previous instanceof HTMLElement && previous.isConnected) previous.focus();
      resolve(yes);
    };
    /** @param {KeyboardEvent} event */
    const onKey = (event) => {
      if (event.key === "Escape") {
        event.preventDefault();
        done(false);
      }
    };
    const confirm = h("button", { type: "button", class: "btn btn-small btn-primary confirm-move", on: { click: () => done(true) } }, t("confirm.play"));
    root.replaceChildren(
      h("p", { class: "undo-text" }, t("confirm.text")),
      confirm,
      h("button", { type: "button", class: "btn btn-small confirm-cancel", on: { click: () => done(false) } }, t("common.cancel")),
    );
    root.addEventListener("keydown", onKey);
    root.hidden = false;
    /** @type {HTMLElement} */ (confirm).focus();
  });
}
