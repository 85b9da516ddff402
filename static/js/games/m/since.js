// @ts-check
/**
 * M "since your last turn": what two views (engines/m/view.py) differ by — the
 * cards laid on the table, the cards taken into collections, and each seat's
 * tokens and points. Only public parts of the views are read: the table, the
 * collections, the tokens and the score previews all lie open. Pure.
 */

/**
 * @typedef {object} MChanges
 * @property {Set<string>} placed        ids of cards on the table now that were not there before
 * @property {Set<string>} taken         ids of cards in a collection now that were not in it before
 * @property {number[]} tokens           tokens gained (or lost, negative) per seat
 * @property {number[]} points           score preview gained (or lost) per seat
 */

/**
 * @param {any} before
 * @param {any} now
 * @returns {MChanges}
 */
export function changes(before, now) {
  const onTable = new Set((before.table ?? []).map((/** @type {any} */ e) => e.card.id));
  const placed = new Set((now.table ?? []).map((/** @type {any} */ e) => e.card.id).filter((/** @type {string} */ id) => !onTable.has(id)));
  const held = new Set((before.collections ?? []).flat().map((/** @type {any} */ c) => c.id));
  const taken = new Set((now.collections ?? []).flat().map((/** @type {any} */ c) => c.id).filter((/** @type {string} */ id) => !held.has(id)));
  const seats = Array.from({ length: now.players ?? 0 }, (_, seat) => seat);
  return {
    placed,
    taken,
    tokens: seats.map((seat) => (now.tokens?.[seat] ?? 0) - (before.tokens?.[seat] ?? 0)),
    points: seats.map((seat) => (now.scores?.[seat]?.total ?? 0) - (before.scores?.[seat]?.total ?? 0)),
  };
}
