// @ts-check
/**
 * Taking a move back: "Take back" for the player whose last move may be taken back
 * while nobody has moved since, "Ask to take back" once someone has, and for a
 * take-back asked for, "Accept" / "Decline" for the others ("Withdraw" for the asker).
 * The server decides who may (`room.take_back`, `room.undo_request`); this only shows it.
 */

import { h } from "../dom.js";

/**
 * @typedef {object} UndoActions
 * @property {(key: string, vars?: Record<string, unknown>) => string} t
 * @property {string[]} names  the seats' names
 * @property {(ask: boolean) => void} onTakeBack
 * @property {() => void} onAccept
 * @property {() => void} onDecline
 */

/**
 * Draw the bar into `root` (hidden when there is nothing to take back or answer).
 * @param {HTMLElement} root
 * @param {import("../messages.js").StateMessage} state
 * @param {UndoActions} actions
 */
export function renderUndo(root, state, { t, names, onTakeBack, onAccept, onDecline }) {
  const { room, you } = state;
  const request = room.undo_request ?? null;
  const mine = (room.take_back ?? []).find((entry) => entry.seat === you) ?? null;
  /** @type {(Node|null)[]} */
  let parts = [];
  if (room.status === "playing" && you != null && request) {
    const asker = names[request.seat] ?? "";
    if (request.seat === you) {
      parts = [
        h("p", { class: "undo-text" }, t("undo.waiting")),
        h("button", { type: "button", class: "btn btn-small undo-withdraw", on: { click: onDecline } }, t("undo.withdraw")),
      ];
    } else if (request.waiting.includes(you)) {
      parts = [
        h("p", { class: "undo-text" }, t("undo.asked", { name: asker })),
        h("button", { type: "button", class: "btn btn-small btn-primary undo-accept", on: { click: onAccept } }, t("undo.accept")),
        h("button", { type: "button", class: "btn btn-small undo-decline", on: { click: onDecline } }, t("undo.decline")),
      ];
    } else {
      parts = [h("p", { class: "undo-text" }, t("undo.asked", { name: asker }))];
    }
  } else if (room.status === "playing" && mine) {
    const label = t(mine.ask ? "undo.ask" : "undo.take_back");
    parts = [
      h("button", { type: "button", class: `btn btn-small undo-take-back${mine.ask ? " undo-ask" : ""}`, on: { click: () => onTakeBack(mine.ask) } }, label),
    ];
  }
  root.hidden = parts.length === 0;
  root.replaceChildren(...parts.filter((p) => p !== null));
}
