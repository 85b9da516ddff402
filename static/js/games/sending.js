// @ts-check
/**
 * Sending a move from a renderer: the root is marked `game-busy` (the shared
 * stylesheet fades what is marked `game-busy-fade`) until the server answers.
 * When the move went through and the control that sent it is gone from the page
 * (the hand or the table was redrawn), the keyboard lands on the game's status
 * line, never on the page's body.
 */

/**
 * @param {HTMLElement} root  the renderer's root element
 * @param {(move: unknown) => Promise<unknown>} onMove  the shell's sender; rejects when refused
 * @param {unknown} move
 * @returns {Promise<boolean>} true when the server took the move; false when it refused it
 *   (the shell has shown the reason already)
 */
export async function sendMove(root, onMove, move) {
  root.classList.add("game-busy");
  let taken = false;
  try {
    await onMove(move);
    taken = true;
  } catch {
    // refused: the shell has said why
  } finally {
    root.classList.remove("game-busy");
  }
  if (taken) keepFocus(root);
  return taken;
}

/**
 * When nothing holds the focus (it was on a control a redraw took away), put it
 * on the game's status line (`.game-status`, made focusable for this).
 * @param {HTMLElement} root
 */
export function keepFocus(root) {
  if (typeof document === "undefined") return;
  const active = document.activeElement;
  if (active && active !== document.body && active.isConnected) return;
  const status = /** @type {HTMLElement|null} */ (root.querySelector(".game-status"));
  if (!status) return;
  status.tabIndex = -1;
  status.focus({ preventScroll: true });
}
