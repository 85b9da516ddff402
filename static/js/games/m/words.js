// @ts-check
/**
 * M in words: card names, the log lines of moves (engines/m/view.py log_line),
 * the status line. Pure: the translation function comes in.
 */

/** @typedef {import("../../i18n.js").Translate} Translate */
/** @typedef {import("./score.js").Card} Card */
/** @typedef {import("./moves.js").LegalMoves} LegalMoves */
/** @typedef {import("./layout.js").Cell} Cell */
/**
 * What a card placed on an open cell would bring the seat looking (the view's `pays`).
 * @typedef {{at: Cell, owed: number, earned: number, paid_by: {seat: number, tokens: number}[], lost: number}} Pay
 */

/**
 * A seat's name, or "Seat 2".
 * @param {string[]} names
 * @param {number|null|undefined} seat
 * @param {Translate} t
 */
export function nameOf(names, seat, t) {
  if (seat == null) return "?";
  return names[seat] ?? t("seat.numbered", { n: seat + 1 });
}

/**
 * "red 20 cube", "red 0": a card's name inside a sentence.
 * @param {Card|null|undefined} card
 * @param {Translate} t
 */
export function cardName(card, t) {
  if (!card) return "?";
  const colour = t(`m.adj.${card.colour}`);
  return card.symbol
    ? t("m.card", { colour, value: card.value, symbol: t(`m.symbol.${card.symbol}`) })
    : t("m.card_blank", { colour, value: card.value });
}

/**
 * "Red", "Braun": a colour's name on its own.
 * @param {string} colour
 * @param {Translate} t
 */
export function colourName(colour, t) {
  return t(`m.colour.${colour}`);
}

/**
 * "row" or "column" in the page's language.
 * @param {string|null|undefined} line
 * @param {Translate} t
 */
export function lineName(line, t) {
  return t(line === "col" ? "m.line.col" : "m.line.row");
}

/**
 * Who pays a placement's tokens: "Ben", or "Ben (1), Cleo (1)" when several do.
 * @param {{seat: number, tokens: number}[]|undefined} paid  a `paid_by` list
 * @param {string[]} names
 * @param {Translate} t
 */
export function payersWords(paid, names, t) {
  const payers = paid ?? [];
  if (payers.length === 1) return nameOf(names, payers[0].seat, t);
  return payers.map((p) => t("m.log.payer", { name: nameOf(names, p.seat, t), count: p.tokens })).join(", ");
}

/**
 * What a placement would pay: "you get 2 tokens from Ben", "no tokens, 1 unpaid".
 * @param {Pay} pay  an entry of the view's `pays`
 * @param {string[]} names
 * @param {Translate} t
 * @returns {string}
 */
export function payWords(pay, names, t) {
  const got = pay.earned > 0 ? t("m.say.pays", { count: pay.earned, from: payersWords(pay.paid_by, names, t) }) : t("m.say.pays_none");
  return pay.lost > 0 ? t("m.say.unpaid", { pays: got, count: pay.lost }) : got;
}

/**
 * The log lines of one move. A swap never says which card went under the pile
 * (the log does not know either).
 * @param {any} log
 * @param {string[]} names
 * @param {Translate} t
 * @returns {string[]}
 */
export function describeMove(log, names, t) {
  const name = nameOf(names, log?.seat, t);
  /** @type {string[]} */
  const lines = [];
  switch (log?.type) {
    case "place": {
      lines.push(t("m.log.placed", { name, card: cardName(log.card, t) }));
      const tokens = log.tokens ?? {};
      if (tokens.earned > 0) lines.push(t("m.log.earned", { name, count: tokens.earned, from: payersWords(tokens.paid_by, names, t) }));
      if (tokens.lost > 0) lines.push(t("m.log.lost", { count: tokens.lost }));
      if (log.scoring === "row" || log.scoring === "col") lines.push(t("m.log.scoring", { line: lineName(log.scoring, t) }));
      else if (log.scoring === "choose") lines.push(t("m.log.scoring_choose", { name }));
      break;
    }
    case "pass":
      lines.push(log.gave ? t("m.log.passed_gave", { name, to: nameOf(names, log.gave.seat, t) }) : t("m.log.passed", { name }));
      if (log.swapped) lines.push(t("m.log.swapped", { name }));
      break;
    case "line":
      lines.push(t("m.log.line", { name, line: lineName(log.line, t) }));
      break;
    case "take":
      lines.push(t("m.log.took", { name, card: cardName(log.card, t) }));
      if (log.phase_over && !log.ended) lines.push(t("m.log.scoring_over"));
      break;
    default:
      lines.push(t("log.move", { name }));
  }
  if (log?.ended) lines.push(endReason(log.ended, t));
  return lines;
}

/**
 * Why the game ended, as a sentence.
 * @param {string|null|undefined} reason  final_scoring | hands_empty | all_passed | jammed | guard
 *   (stalled: games of rules version 1)
 * @param {Translate} t
 */
export function endReason(reason, t) {
  const known = ["final_scoring", "hands_empty", "all_passed", "jammed", "guard", "stalled"];
  return t(`m.ended.${known.includes(String(reason)) ? reason : "other"}`);
}

/**
 * The status line: whose turn it is and what they do.
 * @param {any} view
 * @param {number|null} you
 * @param {string[]} names
 * @param {LegalMoves} moves  your legal moves (empty when it is not your turn)
 * @param {Translate} t
 */
export function statusText(view, you, names, moves, t) {
  if (view.phase === "over") return endReason(view.ended, t);
  const actor = view.to_act?.[0];
  const mine = you != null && actor === you && moves.any;
  const name = nameOf(names, actor, t);
  if (view.phase === "line") return mine ? t("m.status.line_you") : t("m.status.line", { name });
  if (view.phase === "take") {
    const line = lineName(view.scoring?.line, t);
    return mine ? t("m.status.take_you", { line }) : t("m.status.take", { line, name });
  }
  if (!mine) return t("m.status.play", { name });
  if (!moves.canPlace) return t("m.status.play_you_stuck");
  return moves.canPass ? t("m.status.play_you") : t("m.status.play_you_place");
}
