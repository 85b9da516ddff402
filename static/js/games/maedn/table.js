// @ts-check
/**
 * The table: the middle (figures 1–40 as they lie there) and each player's open
 * and finished rows. Highlights come in ready-made: the legal targets of the
 * dice you picked, the figure your chosen move would take, the last move.
 */

import { h } from "../../dom.js";
import { figureCard, figureWords, pawn } from "./cards.js";
import { nameOf } from "./words.js";

/** @typedef {import("../../i18n.js").Translate} Translate */
/** @typedef {import("./plays.js").Target} Target */
/** @typedef {import("./plays.js").View} View */
/** @typedef {import("./lastmove.js").Marks} Marks */
/**
 * @typedef {View & {finished: {figures: number[], stars: number[], points: number}[][], scores: number[],
 *   turn: number|null, target: number, hand_sizes: number[]}} TableView
 */

/**
 * @typedef {object} Highlights
 * @property {Target[]} targets        the legal targets of the dice you picked
 * @property {Target|null} selected    the target you picked
 * @property {Marks|null} last         the last move
 * @property {boolean} fresh           the last move just happened: animate it
 */

/**
 * @typedef {object} TableContext
 * @property {Translate} t
 * @property {string[]} names
 * @property {number|null} you
 * @property {{seat: number, row: number}[][]} holders
 * @property {Highlights} hl
 * @property {(target: Target) => void} onTarget
 */

/** The seats named in a list ("Ben, Carla"). @param {{seat: number}[]} spots @param {TableContext} ctx */
function holderNames(spots, ctx) {
  return [...new Set(spots.map((spot) => spot.seat))].map((seat) => nameOf(ctx.names, seat, ctx.t)).join(", ");
}

/**
 * One place of the middle: its card(s), how many lie there, and who holds the rest.
 * @param {View["middle"][number]} slot
 * @param {TableContext} ctx
 */
function middleSlot(slot, ctx) {
  const { t, hl } = ctx;
  const { figure, count, copies, stars } = slot;
  const spots = ctx.holders[figure] ?? [];
  const words = figureWords(figure, stars, t);
  const holdersText = holderNames(spots, ctx);
  const label =
    count >= copies
      ? t(copies > 1 ? "maedn.slot.both" : "maedn.slot.here", { figure: words })
      : count > 0
        ? t("maedn.slot.one_of_two", { figure: words, holders: holdersText || "?" })
        : spots.length
          ? t("maedn.slot.gone", { figure: words, holders: holdersText })
          : t("maedn.slot.away", { figure: words });
  const taking = hl.selected?.take?.source === "middle" && hl.selected.figure === figure;
  const seats = [...new Set(spots.map((spot) => spot.seat))];
  return h(
    "li",
    {
      class: ["md-slot", copies > 1 && "md-double", count === 0 && "md-gone", count > 0 && count < copies && "md-partial", taking && "md-taking"],
      dataset: { figure, count },
      "aria-label": label,
    },
    h(
      "span",
      { class: "md-stack", "aria-hidden": "true" },
      copies > 1 && count > 1 ? h("span", { class: "md-card md-under" }) : null,
      figureCard(figure, stars),
    ),
    copies > 1 && count > 0 ? h("span", { class: "md-count", "aria-hidden": "true" }, `×${count}`) : null,
    seats.length && count < copies ? h("span", { class: "md-holders", "aria-hidden": "true" }, seats.map((seat) => pawn(seat, nameOf(ctx.names, seat, t)))) : null,
  );
}

/**
 * The middle: four rows of ten, 1 to 40.
 * @param {View} view
 * @param {TableContext} ctx
 */
export function renderMiddle(view, ctx) {
  return h("ol", { class: "md-middle", "aria-label": ctx.t("maedn.middle.label") }, view.middle.map((slot) => middleSlot(slot, ctx)));
}

/**
 * The cards of one open row, with the figure your move would take marked, the
 * last move's figure marked, and the ghost of the figure your move would add.
 * @param {{figures: number[], stars: number[]}} row
 * @param {number} seat
 * @param {number} index
 * @param {TableContext} ctx
 */
function openRow(row, seat, index, ctx) {
  const { t, hl } = ctx;
  const mine = seat === ctx.you;
  const take = hl.selected?.take;
  const takenHere = take && take.from === seat && take.fromRow === index ? hl.selected?.figure : null;
  const lastHere = hl.last && hl.last.seat === seat && hl.last.row === index ? hl.last.figure : null;
  const targets = mine ? hl.targets.filter((target) => target.kind === "extend" && target.row === index) : [];
  const chosen = mine && hl.selected?.kind === "extend" && hl.selected.row === index ? hl.selected : null;
  const cards = row.figures.map((figure, i) =>
    figureCard(
      figure,
      row.stars[i] ?? 0,
      [
        figure === takenHere && (take?.source === "stolen" ? "md-taking md-steal" : "md-taking"),
        figure === lastHere && "md-last",
        figure === lastHere && hl.fresh && "md-pop",
      ].filter((c) => typeof c === "string"),
    ),
  );
  const figuresText = row.figures.map((figure, i) => `${figure}${"★".repeat(row.stars[i] ?? 0)}`).join(", ");
  return h(
    "li",
    {
      class: ["md-row", targets.length && "md-legal", chosen && "md-target-row"],
      dataset: { row: index },
      "aria-label": t("maedn.row.aria", { row: index + 1, figures: figuresText }),
      on: targets.length ? { click: () => ctx.onTarget(chosen ?? targets[0]) } : {},
    },
    h("span", { class: "md-row-no", "aria-hidden": "true" }, String(index + 1)),
    h(
      "span",
      { class: "md-strip", "aria-hidden": "true" },
      cards,
      chosen && chosen.figure != null
        ? figureCard(chosen.figure, chosen.stars, ["md-ghost"])
        : targets.length
          ? h("span", { class: "md-card md-slot-hint" }, "+")
          : null,
    ),
  );
}

/**
 * The ghost of a new row, when the dice you picked may start one.
 * @param {TableContext} ctx
 */
function newRow(ctx) {
  const { t, hl } = ctx;
  const targets = hl.targets.filter((target) => target.kind === "start");
  if (!targets.length) return null;
  const chosen = hl.selected?.kind === "start" ? hl.selected : null;
  return h(
    "li",
    {
      class: ["md-row", "md-new-row", "md-legal", chosen && "md-target-row"],
      "aria-hidden": "true",
      on: { click: () => ctx.onTarget(chosen ?? targets[0]) },
    },
    h("span", { class: "md-row-no" }, "+"),
    h(
      "span",
      { class: "md-strip" },
      chosen && chosen.figure != null
        ? figureCard(chosen.figure, chosen.stars, ["md-ghost"])
        : h("span", { class: "md-new-label" }, t("maedn.target.new_row")),
    ),
  );
}

/**
 * A short note on the last move where it happened: a row finished, a figure stolen.
 * @param {TableView} view
 * @param {number} seat
 * @param {TableContext} ctx
 */
function lastNote(view, seat, ctx) {
  const last = ctx.hl.last;
  if (!last) return null;
  const { t } = ctx;
  if (last.victim === seat && last.figure != null) {
    return h("p", { class: ["md-note", "md-note-steal", ctx.hl.fresh && "md-pop"], dataset: { figure: last.figure } }, t("maedn.note.stolen", { name: nameOf(ctx.names, last.seat, t), figure: last.figure }));
  }
  if (last.seat === seat && last.finished != null) {
    const row = view.finished[seat][last.finished];
    return row ? h("p", { class: ["md-note", "md-note-finish", ctx.hl.fresh && "md-pop"] }, t("maedn.note.finished", { count: row.points })) : null;
  }
  if (last.seat === seat && last.discard != null) {
    return h("p", { class: ["md-note", ctx.hl.fresh && "md-pop"] }, t("maedn.note.discarded", { die: last.discard }));
  }
  return null;
}

/**
 * One player's place at the table: name, points, open rows, finished rows.
 * @param {TableView} view
 * @param {number} seat
 * @param {TableContext} ctx
 */
export function renderPlayer(view, seat, ctx) {
  const { t, hl } = ctx;
  const name = nameOf(ctx.names, seat, t);
  const mine = seat === ctx.you;
  const rows = view.rows[seat];
  const finished = view.finished[seat];
  const toMove = view.turn === seat;
  const lastFinished = hl.last && hl.last.seat === seat ? hl.last.finished : null;
  return h(
    "article",
    {
      class: ["game-card", "md-player", `md-seat-${seat % 4}`, mine && "mine", toMove && "to-move"],
      dataset: { seat },
      "aria-label": mine ? t("maedn.player.yours") : t("maedn.player.label", { name }),
    },
    h(
      "header",
      { class: "md-player-head" },
      pawn(seat, name),
      h("strong", { class: "md-player-name" }, name),
      mine ? h("span", { class: "tag tag-you" }, t("seat.you")) : null,
      toMove ? h("span", { class: "badge badge-turn" }, t("maedn.to_move")) : null,
      h("span", { class: "md-points" }, t("maedn.points_short", { count: view.scores[seat] })),
    ),
    rows.length || (mine && hl.targets.some((target) => target.kind === "start"))
      ? h(
          "ol",
          { class: "md-rows", "aria-label": t("maedn.rows.label", { name }) },
          rows.map((row, index) => openRow(row, seat, index, ctx)),
          mine ? newRow(ctx) : null,
        )
      : h("p", { class: "md-empty muted small" }, t("maedn.rows.none")),
    finished.length
      ? h(
          "ul",
          { class: "md-finished", "aria-label": t("maedn.finished.label") },
          finished.map((row, index) =>
            h(
              "li",
              {
                class: ["md-fin", index === lastFinished && "md-last", index === lastFinished && hl.fresh && "md-pop"],
                title: row.figures.join(" · "),
                "aria-label": t("maedn.finished.aria", { figures: row.figures.join(", "), count: row.points }),
              },
              h("span", { class: "md-fin-check", "aria-hidden": "true" }, "✓"),
              h("span", { class: "md-fin-range", "aria-hidden": "true" }, `${row.figures[0]}…40`),
              h("strong", { "aria-hidden": "true" }, t("maedn.points_short", { count: row.points })),
            ),
          ),
        )
      : null,
    lastNote(view, seat, ctx),
  );
}
