// @ts-check
/**
 * Mensch ärgere Dich nicht: Das Kartenspiel read aloud, for the "say it in
 * words" keys: the middle (what lies there, and who holds each figure that is
 * gone), every player's open and finished rows, and the players' public state
 * (score, dice held, piles). Only the view is read. Pure.
 */

import { holders } from "./plays.js";
import { nameOf } from "./words.js";

/** @typedef {import("../../i18n.js").Translate} Translate */

/** "5", "12 with 1 star": a figure inside a list. @param {number} figure @param {number} stars @param {Translate} t */
function figureShort(figure, stars, t) {
  return stars ? t("maedn.say.starred", { figure, count: stars }) : String(figure);
}

/**
 * The middle and every row.
 * @param {any} view
 * @param {string[]} names
 * @param {number|null} you
 * @param {Translate} t
 * @returns {string}
 */
export function tableWords(view, names, you, t) {
  const who = (/** @type {number} */ seat) => (seat === you ? t("maedn.say.you") : nameOf(names, seat, t));
  const held = holders(view);
  const here = [];
  const gone = [];
  for (const slot of view.middle) {
    if (slot.count > 0) here.push(figureShort(slot.figure, slot.stars, t) + (slot.copies > 1 && slot.count > 1 ? ` ×${slot.count}` : ""));
    if (slot.count < slot.copies) {
      const seats = [...new Set((held[slot.figure] ?? []).map((spot) => spot.seat))];
      gone.push(t("maedn.say.held", { figure: slot.figure, holders: seats.length ? seats.map(who).join(", ") : t("maedn.say.nobody") }));
    }
  }
  const parts = [t("maedn.say.middle", { count: here.length, figures: here.join(", ") || t("maedn.say.none") })];
  if (gone.length) parts.push(t("maedn.say.gone", { figures: gone.join("; ") }));
  view.rows.forEach((/** @type {{figures: number[], stars: number[]}[]} */ rows, /** @type {number} */ seat) => {
    const open = rows.map((row, index) =>
      t("maedn.say.row", { row: index + 1, figures: row.figures.map((f, i) => figureShort(f, row.stars[i] ?? 0, t)).join(", ") }),
    );
    const done = view.finished[seat] ?? [];
    parts.push(
      t("maedn.say.rows", {
        name: who(seat),
        count: rows.length,
        rows: open.join("; ") || t("maedn.say.none"),
      }) + (done.length ? ` ${t("maedn.say.finished", { count: done.length, points: done.reduce((/** @type {number} */ sum, /** @type {any} */ row) => sum + row.points, 0) })}` : ""),
    );
  });
  return parts.join(" ");
}

/**
 * Scores, dice held and the piles.
 * @param {any} view
 * @param {string[]} names
 * @param {number|null} you
 * @param {Translate} t
 * @returns {string}
 */
export function playersWords(view, names, you, t) {
  const parts = view.scores.map((/** @type {number} */ score, /** @type {number} */ seat) =>
    t("maedn.say.player", {
      name: seat === you ? t("maedn.say.you") : nameOf(names, seat, t),
      score,
      target: view.target,
      dice: view.hand_sizes[seat],
      rows: view.rows[seat].length,
    }),
  );
  if (you != null && view.hand?.length) parts.push(t("maedn.say.your_dice", { dice: view.hand.join(", ") }));
  const top = view.discard_pile.top;
  parts.push(t("maedn.say.piles", { draw: view.draw_pile, discard: view.discard_pile.size }) + (top != null ? ` ${t("maedn.say.discard_top", { die: top })}` : ""));
  return parts.join(" ");
}
