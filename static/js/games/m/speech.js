// @ts-check
/**
 * M read aloud, for the "say it in words" keys: the table row by row (with the
 * same row and column numbers the cells' names use), where the chosen card fits,
 * what each place would pay and which cards it would touch, and every player's
 * public state. Only the view (its `pays` says the tokens) and the server's legal
 * moves are read; no rule is worked out here.
 * Pure: the translation function comes in.
 */

import { key, windowFor } from "./layout.js";
import { cardName, lineName, nameOf, payWords } from "./words.js";

/** @typedef {import("../../i18n.js").Translate} Translate */
/** @typedef {import("./layout.js").Cell} Cell */
/** @typedef {import("./score.js").Card} Card */
/** @typedef {import("./words.js").Pay} Pay */

const SIDES = [
  [-1, 0],
  [1, 0],
  [0, -1],
  [0, 1],
];

/**
 * The table in words: its rows, and where `picked` may go (`targets`, from the legal
 * moves), what each place would pay you (the view's `pays`) and what it touches.
 * @param {any} view
 * @param {Card|null} picked
 * @param {Cell[]} targets
 * @param {Translate} t
 * @param {string[]} [names]  seat names, for who would pay
 * @returns {string}
 */
export function tableWords(view, picked, targets, t, names = []) {
  const entries = /** @type {{at: Cell, card: Card}[]} */ (view.table ?? []);
  /** @type {Map<string, Card>} */
  const cards = new Map(entries.map((e) => [key(e.at), e.card]));
  const win = windowFor(view.box, [...entries.map((e) => e.at), ...(view.open_cells ?? [])]);
  /** @param {ReadonlyArray<number>} cell */
  const where = (cell) => ({ row: cell[0] - win.top + 1, col: cell[1] - win.left + 1 });
  const parts = [t("m.say.table", { count: entries.length, rows: view.box.height, cols: view.box.width })];
  for (let i = 0; i < win.rows; i++) {
    const r = win.top + i;
    const inRow = entries.filter((e) => e.at[0] === r).sort((a, b) => a.at[1] - b.at[1]);
    if (!inRow.length) continue;
    const items = inRow.map((e) => t("m.say.in_col", { card: cardName(e.card, t), col: where(e.at).col }));
    parts.push(t("m.say.row", { row: i + 1, cards: items.join(", ") }));
  }
  if (view.scoring) {
    const run = (view.scoring.run ?? []).map((/** @type {any} */ e) => cardName(e.card, t));
    parts.push(t("m.say.scoring", { line: lineName(view.scoring.line, t), cards: run.join(", ") }));
  }
  if (picked) {
    if (!targets.length) parts.push(t("m.say.fits_nowhere", { card: cardName(picked, t) }));
    else {
      /** @type {Map<string, Pay>} */
      const pays = new Map((view.pays ?? []).map((/** @type {Pay} */ p) => [key(p.at), p]));
      const places = targets.map((cell) => {
        const next = SIDES.map(([dr, dc]) => cards.get(key([cell[0] + dr, cell[1] + dc]))).filter((c) => !!c);
        const pay = pays.get(key(cell));
        return [
          t("m.say.at", where(cell)),
          pay && payWords(pay, names, t),
          t("m.say.touching", { count: next.length, cards: next.map((c) => cardName(c, t)).join(", ") }),
        ]
          .filter(Boolean)
          .join(", ");
      });
      parts.push(t("m.say.fits", { card: cardName(picked, t), count: targets.length, places: places.join("; ") }));
    }
  }
  return parts.join(" ");
}

/**
 * Every player's public state: tokens, cards in hand, collection and score.
 * @param {any} view
 * @param {string[]} names
 * @param {number|null} you
 * @param {Translate} t
 * @returns {string}
 */
export function playersWords(view, names, you, t) {
  const parts = [t("m.say.pile", { count: view.pile })];
  for (let seat = 0; seat < view.players; seat++) {
    const collection = /** @type {Card[]} */ (view.collections[seat] ?? []);
    parts.push(
      t("m.say.player", {
        name: seat === you ? t("m.say.you") : nameOf(names, seat, t),
        tokens: view.tokens[seat],
        hand: view.hand_sizes[seat],
        total: view.scores[seat]?.total ?? 0,
        collection: collection.length ? collection.map((c) => cardName(c, t)).join(", ") : t("m.no_collection"),
      }),
    );
  }
  return parts.join(" ");
}
