// @ts-check
/** Short messages at the bottom of the screen: server errors, "link copied". */

import { h } from "./dom.js";
import { has, t } from "./i18n.js";

/**
 * @param {string} text
 * @param {{kind?: "info"|"error"|"success", timeout?: number}} [options]
 */
export function toast(text, { kind = "info", timeout = 5000 } = {}) {
  let shelf = document.getElementById("toasts");
  if (!shelf) {
    shelf = h("div", { id: "toasts", class: "toasts", role: "status", "aria-live": "polite" });
    document.body.append(shelf);
  }
  const item = h("div", { class: ["toast", `toast-${kind}`] }, text);
  const close = () => {
    item.classList.add("leaving");
    setTimeout(() => item.remove(), 200);
  };
  item.append(
    h("button", { class: "toast-close", type: "button", "aria-label": t("common.dismiss"), on: { click: close } }, "×"),
  );
  shelf.append(item);
  while (shelf.children.length > 4) shelf.firstElementChild?.remove();
  setTimeout(close, timeout);
}

/**
 * A server error (REST or websocket) as a short sentence in the page's language:
 * our own text for codes we know, else the server's.
 * @param {{code?: string, message?: string}} err
 */
export function errorText(err) {
  const code = err.code ?? "";
  const key = `error.${code}`;
  if (code && has(key)) return t(key);
  return err.message || t("error.unknown");
}

/** @param {unknown} err */
export function toastError(err) {
  const e = /** @type {{code?: string, message?: string}} */ (err ?? {});
  toast(errorText(e), { kind: "error" });
}
