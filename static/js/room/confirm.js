// @ts-check
/** A modal question with two buttons, for changes that are hard to undo. */

import { h } from "../dom.js";

/**
 * Ask, and resolve true only if the person confirmed.
 * @param {{title: string, text: string, confirm: string, cancel: string}} words
 * @returns {Promise<boolean>}
 */
export function confirmDialog({ title, text, confirm, cancel }) {
  return new Promise((resolve) => {
    const dialog = /** @type {HTMLDialogElement} */ (
      h(
        "dialog",
        { class: "confirm-dialog", "aria-labelledby": "confirm-title", "aria-describedby": "confirm-text" },
        h("h2", { id: "confirm-title" }, title),
        h("p", { id: "confirm-text" }, text),
        h(
          "form",
          { method: "dialog", class: "confirm-actions" },
          h("button", { type: "submit", value: "cancel", class: "btn btn-ghost", autofocus: true }, cancel),
          h("button", { type: "submit", value: "ok", class: "btn btn-danger confirm-ok" }, confirm),
        ),
      )
    );
    dialog.addEventListener("close", () => {
      resolve(dialog.returnValue === "ok");
      dialog.remove();
    });
    document.body.append(dialog);
    dialog.showModal();
  });
}
