// @ts-check
/** A modal question with two buttons, for changes that are hard to undo. */

import { h } from "../dom.js";

/**
 * @typedef {{label: string, options: {value: string, label: string, about?: string}[], value: string}} Choice
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
    const select = choice
      ? /** @type {HTMLSelectElement} */ (
          h(
            "select",
            { id: "confirm-choice", "aria-describedby": "confirm-choice-about" },
            choice.options.map((o) => h("option", { value: o.value, title: o.about ?? "" }, o.label)),
          )
        )
      : null;
    const about = h("p", { id: "confirm-choice-about", class: "muted small choice-about" });
    const explain = () => {
      about.textContent = choice?.options.find((o) => o.value === select?.value)?.about ?? "";
    };
    if (select && choice) {
      select.value = choice.value;
      select.addEventListener("change", explain);
      explain();
    }
    const dialog = /** @type {HTMLDialogElement} */ (
      h(
        "dialog",
        { class: "confirm-dialog", "aria-labelledby": "confirm-title", "aria-describedby": "confirm-text" },
        h("h2", { id: "confirm-title" }, title),
        h("p", { id: "confirm-text" }, text),
        h(
          "form",
          { method: "dialog" },
          select && choice ? h("div", { class: "confirm-choice" }, h("label", { for: "confirm-choice" }, choice.label), select, about) : null,
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
      resolve(dialog.returnValue === "ok" ? (select?.value ?? "") : null);
      dialog.remove();
    });
    document.body.append(dialog);
    dialog.showModal();
  });
}
