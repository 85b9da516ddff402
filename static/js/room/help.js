// @ts-check
/**
 * The "How to play" panel of the room page: a dialog with the rules of the room's
 * game in the page's language, fitted to the room's options (board, player count,
 * free corners). The words come from the game's renderer (`howToPlay`).
 */

import { h, replace } from "../dom.js";

/** @typedef {import("../i18n.js").Translate} Translate */

/**
 * Fill the dialog and open it.
 * @param {HTMLDialogElement} dialog
 * @param {object} ctx
 * @param {string} ctx.title       the game's title
 * @param {string[]} ctx.lines     the renderer's `howToPlay(room, t)`, or [] without one
 * @param {Translate} ctx.t
 */
export function openHelp(dialog, { title, lines, t }) {
  const close = h("button", { type: "button", class: "btn btn-ghost btn-small help-close", on: { click: () => dialog.close() } }, t("help.close"));
  replace(
    dialog,
    h(
      "div",
      { class: "help-head" },
      h("h2", { id: "help-title" }, t("help.title", { game: title })),
      close,
    ),
    lines.length
      ? h("ul", { class: "help-rules" }, lines.map((line) => h("li", {}, line)))
      : h("p", { class: "muted" }, t("help.none")),
  );
  dialog.setAttribute("aria-labelledby", "help-title");
  if (!dialog.open) dialog.showModal();
  close.focus();
}

/**
 * Close the dialog on a click on its backdrop (outside its box).
 * @param {HTMLDialogElement} dialog
 */
export function closeOnBackdrop(dialog) {
  dialog.addEventListener("click", (event) => {
    if (event.target !== dialog) return;
    const box = dialog.getBoundingClientRect();
    const e = /** @type {MouseEvent} */ (event);
    const inside = e.clientX >= box.left && e.clientX <= box.right && e.clientY >= box.top && e.clientY <= box.bottom;
    if (!inside) dialog.close();
  });
}
