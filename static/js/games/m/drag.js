// @ts-check
/**
 * Dragging a hand card onto the table with a mouse, pen or finger. A press that
 * moves a few pixels becomes a drag: the card is picked (so its cells light up),
 * a copy follows the pointer, and letting go over a lit cell places it. A press
 * that does not move stays a click.
 */

/** @typedef {import("./layout.js").Cell} Cell */

const THRESHOLD = 6;

/**
 * @typedef {object} DragHandlers
 * @property {(card: string) => void} onStart           the card is being dragged: pick it
 * @property {(card: string, cell: Cell) => void} onDrop  let go over a lit cell
 */

export class CardDrag {
  /** @param {DragHandlers} handlers */
  constructor(handlers) {
    this.handlers = handlers;
    /** @type {{card: string, x: number, y: number, id: number, source: HTMLElement, ghost: HTMLElement|null, over: HTMLElement|null}|null} */
    this.press = null;
    this.swallowClick = false;
    this.onMove = this.onMove.bind(this);
    this.onUp = this.onUp.bind(this);
    this.onCancel = this.onCancel.bind(this);
  }

  /**
   * Let a hand card be dragged.
   * @param {HTMLElement} el
   * @param {string} card
   */
  attach(el, card) {
    el.addEventListener("pointerdown", (e) => {
      if (e.button !== 0 || this.press) return;
      this.press = { card, x: e.clientX, y: e.clientY, id: e.pointerId, source: el, ghost: null, over: null };
      window.addEventListener("pointermove", this.onMove);
      window.addEventListener("pointerup", this.onUp);
      window.addEventListener("pointercancel", this.onCancel);
    });
    el.addEventListener(
      "click",
      (e) => {
        // the click that ends a drag is not a pick
        if (this.swallowClick) {
          e.stopImmediatePropagation();
          e.preventDefault();
          this.swallowClick = false;
        }
      },
      true,
    );
  }

  /** @param {PointerEvent} e */
  onMove(e) {
    const p = this.press;
    if (!p || e.pointerId !== p.id) return;
    if (!p.ghost) {
      if (Math.hypot(e.clientX - p.x, e.clientY - p.y) < THRESHOLD) return;
      this.handlers.onStart(p.card);
      const face = p.source.querySelector("svg");
      const ghost = document.createElement("div");
      ghost.className = p.source.closest(".mm-show-initials") ? "mm-drag-ghost mm-show-initials" : "mm-drag-ghost";
      if (face) ghost.append(face.cloneNode(true));
      document.body.append(ghost);
      document.body.classList.add("mm-dragging");
      p.ghost = ghost;
    }
    e.preventDefault();
    p.ghost.style.transform = `translate(${e.clientX}px, ${e.clientY}px)`;
    const over = this.targetAt(e.clientX, e.clientY);
    if (over !== p.over) {
      p.over?.classList.remove("drop-over");
      over?.classList.add("drop-over");
      p.over = over;
    }
  }

  /** The lit cell under a point, if any. @param {number} x @param {number} y */
  targetAt(x, y) {
    const el = document.elementFromPoint(x, y);
    return /** @type {HTMLElement|null} */ (el?.closest?.("button.mm-cell[data-target]") ?? null);
  }

  /** @param {PointerEvent} e */
  onUp(e) {
    const p = this.press;
    if (!p || e.pointerId !== p.id) return;
    const dragged = !!p.ghost;
    const over = dragged ? this.targetAt(e.clientX, e.clientY) : null;
    this.end();
    if (!dragged) return;
    this.swallowClick = true;
    setTimeout(() => {
      this.swallowClick = false;
    }, 0);
    if (over) this.handlers.onDrop(p.card, [Number(over.dataset.r), Number(over.dataset.c)]);
  }

  onCancel() {
    this.end();
  }

  end() {
    const p = this.press;
    this.press = null;
    window.removeEventListener("pointermove", this.onMove);
    window.removeEventListener("pointerup", this.onUp);
    window.removeEventListener("pointercancel", this.onCancel);
    if (!p) return;
    p.over?.classList.remove("drop-over");
    p.ghost?.remove();
    document.body.classList.remove("mm-dragging");
  }
}
