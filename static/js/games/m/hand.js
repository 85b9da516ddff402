// @ts-check
/**
 * Your hand and the pass buttons. A hand card is a button: pick it to see where
 * it fits (or drag it to the table); the pass buttons show only when the
 * server's legal moves have a pass, and "swap" only for the picked card.
 */

import { h } from "../../dom.js";
import { cardFace, spoken } from "./card.js";
import { cardName } from "./words.js";

/** @typedef {import("./score.js").Card} Card */
/** @typedef {import("./moves.js").LegalMoves} LegalMoves */
/** @typedef {import("./drag.js").CardDrag} CardDrag */
/** @typedef {import("../../i18n.js").Translate} Translate */

/**
 * @typedef {object} HandHandlers
 * @property {(card: string, byKeyboard: boolean) => void} onPick
 * @property {() => void} onPass
 * @property {(card: string) => void} onSwap
 */

export class HandView {
  /**
   * @param {Translate} t
   * @param {HandHandlers} handlers
   * @param {CardDrag} drag
   */
  constructor(t, handlers, drag) {
    this.t = t;
    this.handlers = handlers;
    this.drag = drag;
    this.title = h("h3", { class: "game-card-title mm-hand-title" }, t("m.hand_title"));
    this.hint = h("p", { class: "mm-hint" });
    this.cards = h("div", { class: "mm-hand", role: "group", "aria-label": t("m.hand_title") });
    this.passBtn = h("button", { type: "button", class: "btn mm-pass-btn", on: { click: () => handlers.onPass() } }, t("m.pass"));
    this.swapBtn = h("button", { type: "button", class: "btn mm-swap-btn", on: { click: () => this.picked && handlers.onSwap(this.picked) } }, t("m.swap"));
    this.passNote = h("p", { class: "mm-pass-note muted small" });
    this.passBox = h("div", { class: "mm-pass" }, h("div", { class: "mm-pass-buttons" }, this.passBtn, this.swapBtn), this.passNote);
    this.el = h("section", { class: "game-card mm-hand-box" }, this.title, this.cards, this.hint, this.passBox);
    /** @type {string|null} */
    this.picked = null;
    this.signature = "";
  }

  /**
   * @param {object} p
   * @param {Card[]} p.hand
   * @param {string|null} p.picked
   * @param {LegalMoves} p.moves
   * @param {boolean} p.playing   your turn to place or pass
   * @param {boolean} p.busy
   * @param {string} p.hint
   */
  update({ hand, picked, moves, playing, busy, hint }) {
    const t = this.t;
    this.picked = picked;
    this.hint.textContent = hint;
    const signature = JSON.stringify([hand.map((c) => c.id), picked, playing, playing ? hand.map((c) => moves.cellsFor(c.id).length) : null, t("m.pass")]);
    if (signature !== this.signature) {
      this.signature = signature;
      const focused = document.activeElement instanceof HTMLElement && this.cards.contains(document.activeElement) ? document.activeElement.dataset.card : null;
      this.cards.replaceChildren(
        ...hand.map((card) => {
          const spots = moves.cellsFor(card.id).length;
          const name = cardName(card, t);
          const label = !playing ? name : spots ? t("m.hand_card_fits", { card: name, count: spots }) : t("m.hand_card_nofit", { card: name });
          const button = h(
            "button",
            {
              type: "button",
              class: ["mm-hand-card", card.id === picked && "picked", playing && !spots && "nofit"],
              dataset: { card: card.id, fits: playing && spots ? "yes" : "no" },
              "aria-pressed": card.id === picked ? "true" : "false",
              on: { click: (/** @type {MouseEvent} */ e) => this.handlers.onPick(card.id, e.detail === 0) },
            },
            spoken(label),
            cardFace(card, t),
          );
          this.drag.attach(button, card.id);
          return button;
        }),
      );
      if (focused) /** @type {HTMLElement|null} */ (this.cards.querySelector(`[data-card="${focused}"]`))?.focus({ preventScroll: true });
    }
    const showPass = playing && moves.canPass;
    this.passBox.hidden = !showPass;
    this.passBtn.hidden = !moves.pass;
    this.passBtn.disabled = busy;
    this.passBtn.classList.toggle("btn-primary", showPass && !moves.canPlace);
    this.swapBtn.hidden = moves.swaps.size === 0;
    const canSwap = !!picked && moves.swaps.has(picked);
    this.swapBtn.disabled = busy || !canSwap;
    const pickedCard = hand.find((c) => c.id === picked);
    this.swapBtn.textContent = canSwap && pickedCard ? t("m.swap_card", { card: cardName(pickedCard, t) }) : t("m.swap");
    this.passNote.textContent = !showPass
      ? ""
      : moves.canPlace
        ? t(moves.swaps.size ? "m.pass_note_choice_swap" : "m.pass_note_choice")
        : t(moves.swaps.size ? "m.pass_note_forced_swap" : "m.pass_note_forced");
  }
}
