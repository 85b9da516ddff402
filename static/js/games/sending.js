// @ts-check
/**
 * Sending a move from a renderer: the root is marked `game-busy` (the shared
 * stylesheet fades what is marked `game-busy-fade`) until the server answers.
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
  try {
    await onMove(move);
    return true;
  } catch {
    return false;
  } finally {
    root.classList.remove("game-busy");
  }
}
