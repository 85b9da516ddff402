// @ts-check
/**
 * The M renderer: the table inside its 6x6 limit, your hand, the pass and swap
 * buttons, the row-or-column choice, the scoring phase, and everyone's tokens,
 * collections and score. `mount(root, {onMove, t})` returns `{update(state),
 * destroy()}` like every game's renderer. The browser holds no rules: every
 * highlight comes from the server's `legal_moves` (see m/moves.js).
 */

import { h } from "../dom.js";
import { sendMove } from "./sending.js";
import { addStrings } from "../i18n.js";
import { seatNames } from "../room/names.js";
import { pref } from "../tokens.js";
import { CardDrag } from "./m/drag.js";
import { HandView } from "./m/hand.js";
import { LegalMoves } from "./m/moves.js";
import { renderPlayers } from "./m/players.js";
import strings from "./m/strings.js";

export { howToPlay } from "./m/help.js";
import { TableView } from "./m/table.js";
import { cardName, describeMove as describe, statusText } from "./m/words.js";
import { playersWords, tableWords } from "./m/speech.js";
import { changes } from "./m/since.js";
import { gainChip, markSince, signed, tellSince } from "./sincemark.js";

addStrings(strings);

/** @typedef {import("../i18n.js").Translate} Translate */
/** @typedef {import("../messages.js").StateMessage} StateMessage */
/** @typedef {import("./m/layout.js").Cell} Cell */
/** @typedef {import("./m/score.js").Card} Card */

/**
 * @typedef {object} MountOptions
 * @property {(move: unknown) => Promise<unknown>} onMove  send a move; rejects when refused
 * @property {Translate} t
 * @property {(text: string) => void} [say]  speak through the room's live region
 */

/**
 * The log lines of a move (engines/m/view.py log_line): the card placed and the
 * tokens it earned (and from whom), a pass (and that a card was swapped, never
 * which), the line chosen, the card taken, and why the game ended.
 * @param {any} log
 * @param {string[]} names
 * @param {Translate} t
 * @returns {string[]}
 */
export function describeMove(log, names, t) {
  return describe(log ?? {}, names, t);
}

/**
 * A card drawn, told once the game is over (the replay's `draws`): "Ben drew the red 20 cube."
 * @param {{seat: number, card: any}} draw
 * @param {string[]} names
 * @param {import("../i18n.js").Translate} t
 */
export function describeDraw(draw, names, t) {
  return t("m.log.drew", { name: names[draw.seat] ?? t("seat.numbered", { n: draw.seat + 1 }), card: cardName(draw.card, t) });
}


/**
 * @param {HTMLElement} root
 * @param {MountOptions} options
 */
export function mount(root, { onMove, t, say = () => {} }) {
  /** @type {any} */
  let view = null;
  /** @type {number|null} */
  let you = null;
  /** @type {string[]} */
  let names = [];
  let moves = new LegalMoves([]);
  /** @type {string|null} the hand card being placed */
  let picked = null;
  let busy = false;
  /** @type {any} the view right after your previous move, while it is your turn (else null) */
  let sinceView = null;

  const status = h("p", { class: "game-status mm-status" });
  const lineText = h("p", { class: "mm-choice-text" });
  const lineButton = (/** @type {"row"|"col"} */ line, /** @type {string} */ icon) =>
    h(
      "button",
      {
        type: "button",
        class: "btn btn-primary mm-line-btn",
        dataset: { line },
        on: {
          click: () => send({ type: "line", line }),
          mouseenter: () => table.preview(line),
          mouseleave: () => table.preview(null),
          focus: () => table.preview(line),
          blur: () => table.preview(null),
        },
      },
      h("span", { class: `mm-line-icon mm-line-icon-${line}`, "aria-hidden": "true" }, icon),
      h("span", {}, t(`m.choose_${line}`)),
    );
  const rowBtn = lineButton("row", "\u2194");
  const colBtn = lineButton("col", "\u2195");
  const lineBar = h("div", { class: "mm-choice", role: "group", "aria-label": t("m.choice_label") }, lineText, h("div", { class: "mm-choice-buttons" }, rowBtn, colBtn));

  const table = new TableView(t, {
    onPlace: (cell) => place(picked, cell),
    onTake: (card) => send({ type: "take", card }),
  });
  const drag = new CardDrag({
    onStart: (card) => {
      if (picked !== card) {
        picked = card;
        render();
      }
    },
    onDrop: (card, cell) => place(card, cell),
  });
  const hand = new HandView(
    t,
    {
      onPick: (card, byKeyboard) => pick(card, byKeyboard),
      onPass: () => send({ type: "pass" }),
      onSwap: (card) => send({ type: "pass", swap: card }),
    },
    drag,
  );
  const players = h("ol", { class: "mm-players", "aria-label": t("m.players_title") });
  const initialsBox = h("input", {
    type: "checkbox",
    id: "mm-initials",
    checked: pref("m.initials") === "1",
    on: {
      change: () => {
        pref("m.initials", initialsBox.checked ? "1" : "0");
        root.classList.toggle("mm-show-initials", initialsBox.checked);
      },
    },
  });
  const side = h(
    "div",
    { class: "game-side mm-side" },
    hand.el,
    h("section", { class: "game-card mm-players-box" }, h("h3", {}, t("m.players_title")), players),
    h(
      "div",
      { class: "game-prefs mm-prefs" },
      h("label", { class: "check" }, initialsBox, h("span", {}, t("m.initials"))),
      h("p", { class: "game-keys mm-keys muted" }, t("m.keys_help"), " ", h("span", { class: "game-keys-words" }, t("m.keys_words"))),
    ),
  );
  const container = h("div", { class: "game-view mm" }, status, lineBar, h("div", { class: "game-main mm-main" }, table.el, side));
  root.classList.add("game-root", "mm-root");
  root.classList.toggle("mm-show-initials", initialsBox.checked);
  root.replaceChildren(container);

  /** Whether it is your turn to place or pass. */
  const playing = () => view?.phase === "play" && (moves.canPlace || moves.canPass);

  /** @param {string} card @param {boolean} byKeyboard */
  function pick(card, byKeyboard) {
    if (busy) return;
    picked = picked === card ? null : card;
    render();
    if (picked && byKeyboard && playing()) table.firstButton()?.focus();
  }

  /** @param {string|null} card @param {Cell} cell */
  function place(card, cell) {
    if (!card || !moves.allows(card, cell)) return;
    void send({ type: "place", card, at: cell });
  }

  /** @param {unknown} move */
  async function send(move) {
    if (busy) return;
    busy = true;
    render();
    // refused: the shell shows the server's reason; the picked card stays picked
    if (await sendMove(root, onMove, move)) picked = null;
    busy = false;
    render();
  }

  /** @param {KeyboardEvent} e */
  function onKey(e) {
    if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
    const target = /** @type {HTMLElement|null} */ (e.target);
    if (target?.closest?.("dialog[open], input, textarea, select")) return;
    const letter = e.key.toLowerCase();
    if (view && (letter === "t" || letter === "o")) {
      e.preventDefault();
      const card = view.hand?.find((/** @type {Card} */ c) => c.id === picked) ?? null;
      say(letter === "t" ? tableWords(view, card, playing() && card ? moves.cellsFor(card.id) : [], t, names) : playersWords(view, names, you, t));
      return;
    }
    if (e.key !== "Escape" || !picked) return;
    const inTable = target instanceof HTMLElement && table.el.contains(target);
    const card = picked;
    picked = null;
    render();
    if (inTable) /** @type {HTMLElement|null} */ (hand.cards.querySelector(`[data-card="${card}"]`))?.focus();
  }
  document.addEventListener("keydown", onKey);

  /** The words under your hand. */
  function hint() {
    if (view.phase === "over") return "";
    const card = view.hand?.find((/** @type {Card} */ c) => c.id === picked) ?? null;
    if (playing()) {
      if (!card) return moves.canPlace ? t("m.hint.pick") : t("m.hint.stuck");
      const count = moves.cellsFor(card.id).length;
      return count ? t("m.hint.fits", { card: cardName(card, t), count }) : t("m.hint.nofit", { card: cardName(card, t) });
    }
    if (moves.takes.size) return t("m.hint.take");
    if (moves.lines.length) return t("m.hint.line");
    return t("m.hint.wait");
  }

  function render() {
    if (!view) return;
    const mine = moves.any;
    if (picked && !view.hand?.some((/** @type {Card} */ c) => c.id === picked)) picked = null;
    const card = view.hand?.find((/** @type {Card} */ c) => c.id === picked) ?? null;

    status.textContent = statusText(view, you, names, moves, t);
    status.classList.toggle("your-turn", mine);
    container.dataset.phase = view.phase;
    container.dataset.toAct = (view.to_act ?? []).join(",");
    container.dataset.mine = mine ? "1" : "0";
    container.classList.toggle("mm-spectator", you == null);

    // the row-or-column choice
    lineBar.hidden = moves.lines.length === 0;
    lineText.textContent = t("m.choice_you");
    rowBtn.hidden = !moves.lines.includes("row");
    colBtn.hidden = !moves.lines.includes("col");
    rowBtn.disabled = colBtn.disabled = busy;
    if (lineBar.hidden) table.preview(null);

    table.update({
      view,
      picked: playing() && !busy ? card : null,
      targets: playing() && card && !busy ? moves.cellsFor(card.id) : [],
      takes: busy ? new Set() : moves.takes,
      names,
    });

    hand.el.hidden = you == null || !view.hand;
    if (view.hand) {
      hand.update({ hand: view.hand, picked, moves, playing: playing(), busy, hint: hint() });
    }
    renderPlayers(players, { view, names, you, t });
    showChanges();
  }

  /** Mark what changed since your last turn: cards laid and taken, tokens and points. */
  function showChanges() {
    if (!sinceView || !view) return;
    const since = changes(sinceView, view);
    const isNew = t("since.new");
    for (const face of table.el.querySelectorAll(".mm-cell svg.mm-card[data-card]")) {
      const id = /** @type {SVGElement} */ (face).dataset.card ?? "";
      const cell = face.closest(".mm-cell");
      if (cell && since.placed.has(id)) markSince(cell, isNew);
    }
    for (const group of players.querySelectorAll(".mm-group")) {
      const fresh = [...group.querySelectorAll("svg.mm-card[data-card]")].filter((face) => since.taken.has(/** @type {SVGElement} */ (face).dataset.card ?? ""));
      if (!fresh.length) continue;
      for (const face of fresh) face.classList.add("since");
      const cards = view.collections.flat().filter((/** @type {Card} */ c) => fresh.some((face) => /** @type {SVGElement} */ (face).dataset.card === c.id));
      // the cards wear the mark to see (game.css); the group's label says it
      tellSince(group, t("since.new_cards", { cards: cards.map((/** @type {Card} */ c) => cardName(c, t)).join(", ") }));
    }
    for (const item of players.querySelectorAll("li.mm-player")) {
      const seat = Number(/** @type {HTMLElement} */ (item).dataset.seat);
      const points = since.points[seat] ?? 0;
      const tokens = since.tokens[seat] ?? 0;
      if (points) item.querySelector(".mm-total")?.before(gainChip(points, t("since.points", { delta: signed(points) })));
      if (tokens) item.querySelector(".mm-player-stats")?.append(gainChip(tokens, t("since.tokens", { delta: signed(tokens) })));
    }
  }

  return {
    /** @param {StateMessage} next */
    update(next) {
      view = next.view;
      if (!view) return;
      you = next.you;
      names = seatNames(next.room.seats, t);
      const acting = you != null && next.to_act.includes(you);
      moves = new LegalMoves(acting ? next.legal_moves : []);
      container.dataset.seq = String(next.seq);
      render();
    },
    /** What changed since your last turn, against the view right after it (null: no marks). @param {any} before */
    showSince(before) {
      if (before === sinceView) return;
      sinceView = before;
      render();
    },
    destroy() {
      document.removeEventListener("keydown", onKey);
      drag.end();
      root.classList.remove("game-root", "mm-root", "mm-show-initials", "game-busy");
      root.replaceChildren();
    },
  };
}
