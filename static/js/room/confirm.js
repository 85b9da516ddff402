// @ts-check
/** A modal question with two buttons, for changes that are hard to undo. */

import { h } from "../dom.js";
import { choiceSelect } from "./levels.js";

/**
 * @typedef {{label: string, options: import("./levels.js").Pick[], value: string}} Choice
 * A pick the person makes along with the answer (which bot plays for them, say); an
 * option's ``about`` is shown under the list while it is chosen.
 */

/**
 * Ask, and resolve true only if the person confirmed.
 * @param {{title: string, text: string, confirm: string, cancel: string}} words
 * @returns {Promise<boolean>}
 */
export async function confirmDialog(words) {
  return (await ask(words, null)) !== null;
}

/**
 * Ask with a choice to make: resolve the chosen value if the person confirmed, else null.
 * @param {{title: string, text: string, confirm: string, cancel: string}} words
 * @param {Choice} choice
 * @returns {Promise<string | null>}
 */
export function confirmChoice(words, choice) {
  return ask(words, choice);
}

/**
 * @param {{title: string, text: string, confirm: string, cancel: string}} words
 * @param {Choice | null} choice
 * @returns {Promise<string | null>}
 */
function ask({ title, text, confirm, cancel }, choice) {
  return new Promise((resolve) => {
    const picker = choice ? choiceSelect("confirm-choice", choice.options, choice.value) : null;
    const dialog = /** @type {HTMLDialogElement} */ (
      h(
        "dialog",
        { class: "confirm-dialog", "aria-labelledby": "confirm-title", "aria-describedby": "confirm-text" },
        h("h2", { id: "confirm-title" }, title),
        h("p", { id: "confirm-text" }, text),
        h(
          "form",
          { method: "dialog" },
          picker && choice ? h("div", { class: "confirm-choice" }, h("label", { for: "confirm-choice" }, choice.label), picker.select, picker.about) : null,
          h(
            "div",
            { class: "confirm-actions" },
            h("button", { type: "submit", value: "cancel", class: "btn btn-ghost", autofocus: true }, cancel),
            h("button", { type: "submit", value: "ok", class: "btn btn-danger confirm-ok" }, confirm),
          ),
        ),
      )
    );
    dialog.addEventListener("close", () => {
      resolve(dialog.returnValue === "ok" ? (picker?.select.value ?? "") : null);
      dialog.remove();
    });
    document.body.append(dialog);
    dialog.showModal();
  });
}
