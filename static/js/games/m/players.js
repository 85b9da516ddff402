// @ts-check
/**
 * Everyone at the table: hand size, tokens, the collection face up and grouped
 * by colour, and the score it would give now (which two colours count, token
 * points, the total) — all as the server's view has it.
 */

import { h } from "../../dom.js";
import { cardBack, cardFace, tokenIcon } from "./card.js";
import { groupByColour, scoreTerms, signed } from "./score.js";
import { cardName, colourName, nameOf } from "./words.js";

/** @typedef {import("../../i18n.js").Translate} Translate */
/** @typedef {import("./score.js").Breakdown} Breakdown */

/**
 * What a seat is doing now, as a badge text (null: nothing).
 * @param {any} view
 * @param {number} seat
 * @param {Translate} t
 */
function doing(view, seat, t) {
  if (view.phase === "over" || !view.to_act?.includes(seat)) return null;
  return t(view.phase === "take" ? "m.badge.takes" : view.phase === "line" ? "m.badge.chooses" : "m.badge.to_move");
}

/**
 * The score terms as small chips: tokens, then each colour with its sign.
 * @param {Breakdown} score
 * @param {Translate} t
 */
function terms(score, t) {
  return h(
    "div",
    { class: "mm-terms" },
    scoreTerms(score).map((term) =>
      term.kind === "tokens"
        ? h(
            "span",
            { class: "mm-term mm-term-tokens", title: t("m.term_tokens_title", { count: term.tokens, points: term.points }) },
            tokenIcon(),
            h("span", {}, t("m.term_tokens", { points: term.points })),
          )
        : h(
            "span",
            {
              class: ["mm-term", `mm-c-${term.colour}`, term.counts ? "counts" : "against"],
              title: t(term.counts ? "m.term_counts_title" : "m.term_against_title", {
                colour: colourName(term.colour, t),
                value: Math.abs(term.points),
              }),
            },
            h("span", { class: "mm-swatch", "aria-hidden": "true" }, t(`m.initial.${term.colour}`)),
            h("span", {}, `${colourName(term.colour, t)} ${signed(term.points)}`),
          ),
    ),
  );
}

/**
 * A collection, face up, one group per colour.
 * @param {any[]} cards
 * @param {Translate} t
 */
function collection(cards, t) {
  if (!cards.length) return h("p", { class: "mm-empty muted small" }, t("m.no_collection"));
  return h(
    "div",
    { class: "mm-collection" },
    groupByColour(cards).map((g) =>
      h(
        "div",
        {
          class: ["mm-group", `mm-c-${g.colour}`],
          role: "img",
          "aria-label": t("m.group_label", { colour: colourName(g.colour, t), total: g.total, cards: g.cards.map((c) => cardName(c, t)).join(", ") }),
        },
        g.cards.map((c) => cardFace(c, t, "mm-mini")),
      ),
    ),
  );
}

/**
 * @param {HTMLElement} list  the <ol>
 * @param {object} p
 * @param {any} p.view
 * @param {string[]} p.names
 * @param {number|null} p.you
 * @param {Translate} p.t
 */
export function renderPlayers(list, { view, names, you, t }) {
  const n = view.players;
  list.replaceChildren(
    ...Array.from({ length: n }, (_, seat) => {
      const score = /** @type {Breakdown} */ (view.scores[seat]);
      const badge = doing(view, seat, t);
      const placer = view.phase === "take" && view.scoring?.placer === seat;
      return h(
        "li",
        { class: ["mm-player", seat === you && "mine", badge && "acting"], dataset: { seat } },
        h(
          "div",
          { class: "mm-player-head" },
          h(
            "span",
            { class: "mm-player-who" },
            h("strong", { class: "mm-player-name" }, nameOf(names, seat, t)),
            seat === you ? h("span", { class: "tag tag-you" }, t("seat.you")) : null,
            badge ? h("span", { class: "badge badge-turn" }, badge) : null,
            placer ? h("span", { class: "badge mm-badge-placer", title: t("m.badge.placer_title") }, t("m.badge.placer")) : null,
          ),
          h("span", { class: "mm-total" }, h("span", { class: "sr-only" }, t("m.total_label", { total: score.total })), h("span", { "aria-hidden": "true" }, String(score.total))),
        ),
        h(
          "div",
          { class: "mm-player-stats muted small" },
          h("span", { class: "mm-stat" }, cardBack("mm-stat-icon"), t("m.hand_size", { count: view.hand_sizes[seat] })),
          h("span", { class: "mm-stat" }, tokenIcon("mm-stat-icon"), t("m.tokens", { count: view.tokens[seat] })),
        ),
        terms(score, t),
        collection(view.collections[seat] ?? [], t),
      );
    }),
  );
}
