// @ts-check
/**
 * The renderer of Mensch ärgere Dich nicht: Das Kartenspiel: the middle, every
 * player's rows, your dice, scores and piles. `mount(root, {onMove, t})` returns
 * `{update(state), destroy()}` like every game's renderer. The browser holds no
 * rules: the dice you may play and where they may go are the server's
 * `legal_moves`; the view only tells which figure a move takes and from whom.
 */

import { h, replace } from "../dom.js";
import { sendMove } from "./sending.js";
import { addStrings } from "../i18n.js";
import { seatNames } from "../room/names.js";
import { dieFace, pawn } from "./maedn/cards.js";
import { renderHand } from "./maedn/hand.js";
import { lastMarks, latestMove } from "./maedn/lastmove.js";
import { diceChoices, holders, isDeadEnd, targetsFor, victimChoices } from "./maedn/plays.js";
import strings from "./maedn/strings.js";

export { howToPlay } from "./maedn/help.js";
import { renderMiddle, renderPlayer } from "./maedn/table.js";
import { describeMove as describe, nameOf } from "./maedn/words.js";
import { playersWords, tableWords } from "./maedn/speech.js";
import { changes } from "./maedn/since.js";
import { flagSince, gainChip, markSince, signed, tellSince } from "./sincemark.js";

addStrings(strings);

/** @typedef {import("../i18n.js").Translate} Translate */
/** @typedef {import("../messages.js").StateMessage} StateMessage */
/** @typedef {import("./maedn/plays.js").Target} Target */
/** @typedef {import("./maedn/plays.js").Move} Move */
/** @typedef {import("./maedn/lastmove.js").LastMove} LastMove */

/**
 * @typedef {object} MountOptions
 * @property {(move: unknown) => Promise<unknown>} onMove  send a move; rejects when refused
 * @property {Translate} t
 * @property {(text: string) => void} [say]  speak through the room's live region
 */

/**
 * The log lines of a move (engines/maedn/log.py): a steal names its victim, a
 * finished row its points.
 * @param {any} log
 * @param {string[]} names
 * @param {Translate} t
 * @returns {string[]}
 */
export function describeMove(log, names, t) {
  return describe(log ?? {}, names, t);
}

/**
 * A die drawn, told once the game is over (the replay's `draws`): "Ben drew a 5."
 * @param {{seat: number, card: number}} draw
 * @param {string[]} names
 * @param {import("../i18n.js").Translate} t
 */
export function describeDraw(draw, names, t) {
  return t("maedn.log.drew", { name: nameOf(names, draw.seat, t), die: draw.card });
}

/**
 * @param {HTMLElement} root
 * @param {MountOptions} options
 */
export function mount(root, { onMove, t, say = () => {} }) {
  /** @type {StateMessage|null} */
  let state = null;
  /** @type {any} */
  let view = null;
  /** @type {string[]} */
  let names = [];
  /** @type {Move[]} */
  let legal = [];
  let myTurn = false;
  let busy = false;
  /** @type {{die: number|null, key: string|null}} */
  let pick = { die: null, key: null };
  /** @type {string|null} */
  let selectedKey = null;
  /** @type {LastMove|null} */
  let last = null;
  let animatedSeq = -1;
  /** Bumped by every state from the server: every part of the table is redrawn once after it. */
  let version = 0;
  /** @type {any} the view right after your previous move, while it is your turn (else null) */
  let sinceView = null;
  /** @type {WeakMap<HTMLElement, string>} */
  const shown = new WeakMap();

  const status = h("p", { class: "game-status md-status" });
  const lastLine = h("p", { class: "md-lastline" });
  const middle = h("div", { class: "md-middle-wrap" });
  const legend = h("p", { class: "md-legend muted small" });
  const middleBox = h("section", { class: "game-card md-box md-middle-box" }, h("h3", {}, t("maedn.middle.title")), middle, legend);
  const mineBox = h("section", { class: "md-mine-box" });
  const othersTitle = h("h3", { class: "game-heading md-others-title" });
  const others = h("div", { class: "md-others-list" });
  const othersBox = h("section", { class: "md-others" }, othersTitle, others);
  const handTitle = h("h3", { class: "game-card-title md-hand-title" });
  const hand = h("div", { class: "game-busy-fade md-hand" });
  const handBox = h("section", { class: "game-card md-box md-hand-box" }, handTitle, hand);
  const scoreTarget = h("p", { class: "md-target-line muted small" });
  const scores = h("ol", { class: "md-scores", "aria-label": t("maedn.scores.title") });
  const scoreBox = h("section", { class: "game-card md-box md-score-box" }, h("h3", {}, t("maedn.scores.title")), scoreTarget, scores);
  const piles = h("div", { class: "md-piles" });
  const pileBox = h("section", { class: "game-card md-box md-pile-box" }, h("h3", {}, t("maedn.piles.title")), piles);
  const keysWords = h("p", { class: "game-keys md-keys muted" }, t("maedn.keys_words"));
  const container = h(
    "div",
    { class: "game-view maedn" },
    status,
    lastLine,
    h(
      "div",
      { class: "game-main md-main" },
      // wide: the middle and your rows on the left; your dice and the others' rows on the
      // right, so a 2-3 player table shows every row without scrolling
      h("div", { class: "md-col md-col-table" }, middleBox, mineBox),
      h("div", { class: "md-col md-col-side" }, handBox, othersBox, scoreBox, pileBox, keysWords),
    ),
  );
  root.classList.add("game-root", "md-root");
  root.replaceChildren(container);

  function you() {
    return state?.you ?? null;
  }

  function choices() {
    return myTurn ? diceChoices(legal) : [];
  }

  /** @returns {Target[]} */
  function targets() {
    if (!view || !pick.key || !myTurn || you() == null) return [];
    return targetsFor(view, /** @type {number} */ (you()), legal, pick.key);
  }

  function selected() {
    return targets().find((target) => target.key === selectedKey) ?? null;
  }

  /** @param {string} key @param {number|null} die */
  function chooseDice(key, die) {
    if (busy || !myTurn) return;
    if (pick.key !== key) selectedKey = null;
    pick = { die, key };
    render();
  }

  /** @param {Target} target */
  function chooseTarget(target) {
    if (busy || !myTurn) return;
    if (pick.key == null) return;
    selectedKey = target.key;
    render();
  }

  function clear() {
    pick = { die: null, key: null };
    selectedKey = null;
    render();
  }

  async function play() {
    const target = selected();
    if (!target || busy) return;
    busy = true;
    render();
    // refused: the shell shows the server's reason; the choice stays as it was
    if (await sendMove(root, onMove, target.move)) {
      pick = { die: null, key: null };
      selectedKey = null;
    }
    busy = false;
    render();
  }

  /** @param {KeyboardEvent} e */
  function onKey(e) {
    if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
    const target = /** @type {HTMLElement|null} */ (e.target);
    if (target?.closest?.("dialog[open]")) return;
    if (target && /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName)) return;
    const letter = e.key.toLowerCase();
    if (view && (letter === "t" || letter === "o")) {
      e.preventDefault();
      say(letter === "t" ? tableWords(view, names, you(), t) : playersWords(view, names, you(), t));
      return;
    }
    if (e.key !== "Escape" || !pick.key) return;
    e.preventDefault();
    clear();
  }
  document.addEventListener("keydown", onKey);

  function renderStatus() {
    if (view.over) {
      status.textContent =
        view.end === "stalled"
          ? t("maedn.status.stalled", { rounds: Math.round(view.quiet.limit / view.players) })
          : t("maedn.status.won", { name: nameOf(names, view.winner, t), score: view.scores[view.winner] ?? 0 });
    } else if (myTurn) {
      status.textContent = isDeadEnd(legal) ? t("maedn.status.dead_end") : t("maedn.status.your_turn");
    } else {
      status.textContent = t("maedn.status.waiting", { name: nameOf(names, view.turn, t) });
    }
    status.classList.toggle("your-turn", myTurn);
    const lines = last ? describe(last.log, names, t) : [];
    lastLine.hidden = !lines.length;
    lastLine.className = `md-lastline${last?.log.taken_from === "stolen" ? " md-steal" : ""}${last?.log.finished ? " md-finish" : ""}`;
    lastLine.replaceChildren(h("span", { class: "md-lastline-kicker" }, t("maedn.last_move")), " ", lines.join(" "));
  }

  /**
   * Replace `el`'s children with `build()` unless the state and `key` are what it last showed.
   * @param {HTMLElement} el
   * @param {string} key
   * @param {() => import("../dom.js").Child | import("../dom.js").Child[]} build
   */
  function fill(el, key, build) {
    const stamp = `${version}|${key}`;
    if (shown.get(el) === stamp) return;
    shown.set(el, stamp);
    replace(el, build());
  }

  function scoreItems() {
    scoreTarget.textContent = t("maedn.scores.target", { target: view.target });
    return view.scores.map((/** @type {number} */ score, /** @type {number} */ seat) => {
        const name = nameOf(names, seat, t);
        const mine = seat === you();
        const share = Math.min(100, Math.round((score / view.target) * 100));
        return h(
          "li",
          { class: ["md-score", `md-seat-${seat % 4}`, view.turn === seat && "to-move", mine && "mine"], dataset: { seat } },
          pawn(seat, name),
          h(
            "span",
            { class: "md-score-who" },
            h("strong", {}, name, mine ? h("span", { class: "tag tag-you" }, t("seat.you")) : null),
            h("span", { class: "muted small" }, t("maedn.hand_size", { count: view.hand_sizes[seat] })),
          ),
          h(
            "span",
            { class: "md-score-num" },
            h("span", { class: "sr-only" }, t("maedn.score_label", { score, target: view.target })),
            h("strong", { "aria-hidden": "true" }, String(score)),
            h("span", { class: "muted", "aria-hidden": "true" }, `/${view.target}`),
          ),
          h("span", { class: "md-bar", "aria-hidden": "true" }, h("span", { style: { width: `${share}%` } })),
        );
      });
  }

  function pileItems() {
    const top = view.discard_pile.top;
    return [
      h(
        "div",
        { class: "md-pile" },
        h("span", { class: "md-pile-back", "aria-hidden": "true" }),
        h("span", {}, t("maedn.piles.draw", { count: view.draw_pile })),
      ),
      h(
        "div",
        { class: "md-pile" },
        top != null ? h("span", { class: "md-pile-top", "aria-hidden": "true" }, dieFace(top)) : h("span", { class: "md-pile-empty", "aria-hidden": "true" }),
        h("span", {}, top != null ? t("maedn.piles.discard_top", { count: view.discard_pile.size, die: top }) : t("maedn.piles.discard", { count: view.discard_pile.size })),
      ),
      view.quiet.turns >= view.quiet.limit / 2 ? h("p", { class: "muted small" }, t("maedn.quiet", { turns: view.quiet.turns, limit: view.quiet.limit })) : null,
    ];
  }

  function render() {
    if (!view) return;
    const active = /** @type {HTMLElement|null} */ (document.activeElement);
    const focusKey = active && root.contains(active) ? active.dataset.key ?? null : null;
    const seat = you();
    const list = targets();
    const chosen = list.find((target) => target.key === selectedKey) ?? null;
    const marks = lastMarks(view, last);
    const fresh = !!last && last.seq !== animatedSeq;
    const ctx = {
      t,
      names,
      you: seat,
      holders: holders(view),
      hl: { targets: list, selected: chosen, last: marks, fresh },
      onTarget: chooseTarget,
    };
    renderStatus();
    // rebuild a part only when what it shows changed: a die click touches your hand and rows
    const take = chosen?.take ?? null;
    fill(middle, `${take?.source === "middle" ? chosen?.figure : ""}`, () => renderMiddle(view, ctx));
    legend.textContent = t(view.middle.some((/** @type {{copies: number}} */ slot) => slot.copies > 1) ? "maedn.middle.legend" : "maedn.middle.legend_single");
    mineBox.hidden = seat == null;
    fill(mineBox, `${seat}|${pick.key}|${selectedKey}`, () => (seat == null ? null : renderPlayer(view, seat, ctx)));
    othersTitle.textContent = seat == null ? t("maedn.players.title") : t("maedn.others.title");
    /** @type {number[]} */
    const seats = view.scores.map((/** @type {number} */ _, /** @type {number} */ i) => i);
    // the others in playing order, starting with whoever plays after you
    const order = seat == null ? seats : [...seats.slice(seat + 1), ...seats.slice(0, seat)];
    const robbed = take?.source === "stolen" ? `${take.from}:${take.fromRow}:${chosen?.figure}` : "";
    fill(others, robbed, () => order.map((other) => renderPlayer(view, other, ctx)));
    handBox.hidden = seat == null || view.over;
    if (seat != null && !view.over) {
      handTitle.textContent = myTurn ? t("maedn.hand.title_turn") : t("maedn.hand.title");
      replace(
        hand,
        renderHand(
          {
            hand: view.hand ?? [],
            choices: choices(),
            myTurn,
            deadEnd: myTurn && isDeadEnd(legal),
            busy,
            pick,
            targets: list,
            selected: chosen,
            victims: victimChoices(list),
            names,
          },
          { onDice: chooseDice, onTarget: chooseTarget, onPlay: () => void play(), onClear: clear },
          t,
        ),
      );
    }
    fill(scores, "", () => scoreItems());
    fill(piles, "", () => pileItems());
    animatedSeq = last?.seq ?? -1;
    showChanges();
    if (focusKey) {
      const again = /** @type {HTMLElement|null} */ (root.querySelector(`[data-key="${CSS.escape(focusKey)}"]`));
      if (again && !(/** @type {HTMLButtonElement} */ (again).disabled)) again.focus({ preventScroll: true });
    }
  }

  /**
   * Mark what changed since your last turn: figures that came into a player's rows,
   * rows finished, figures taken away, points. Idempotent: parts not rebuilt keep
   * their marks and get no second one.
   */
  function showChanges() {
    if (!sinceView || !view) return;
    const since = changes(sinceView, view);
    for (const player of root.querySelectorAll("article.md-player[data-seat]")) {
      const seat = Number(/** @type {HTMLElement} */ (player).dataset.seat);
      const fresh = new Map(since.figures[seat] ?? []);
      for (const row of player.querySelectorAll("li.md-row:not(.md-new-row)")) {
        /** @type {number[]} */
        const marked = [];
        for (const card of row.querySelectorAll(".md-strip > .md-card[data-figure]:not(.md-ghost)")) {
          const figure = Number(/** @type {HTMLElement} */ (card).dataset.figure);
          if (!fresh.get(figure)) continue;
          fresh.set(figure, (fresh.get(figure) ?? 0) - 1);
          flagSince(card);
          marked.push(figure);
        }
        if (marked.length) tellSince(row, t("since.new_cards", { cards: marked.join(", ") }));
      }
      const done = [...player.querySelectorAll("li.md-fin")];
      for (const row of done.slice(done.length - (since.finished[seat] ?? 0))) markSince(row, t("since.new"));
      const lost = [...(since.lost[seat] ?? [])];
      // the last move's steal has its own note here: the summary names only the others
      const stolen = /** @type {HTMLElement | null} */ (player.querySelector(".md-note-steal[data-figure]"));
      if (stolen) {
        const at = lost.indexOf(Number(stolen.dataset.figure));
        if (at >= 0) lost.splice(at, 1);
      }
      if (lost.length && !player.querySelector(".md-note-since")) {
        player.append(h("p", { class: "md-note md-note-since" }, t("since.lost", { figures: lost.join(", ") })));
      }
      const points = since.points[seat] ?? 0;
      const head = player.querySelector(".md-player-head");
      if (points && head && !head.querySelector(".since-gain")) head.append(gainChip(points, t("since.points", { delta: signed(points) })));
    }
    for (const item of scores.querySelectorAll("li.md-score[data-seat]")) {
      const points = since.points[Number(/** @type {HTMLElement} */ (item).dataset.seat)] ?? 0;
      const num = item.querySelector(".md-score-num");
      if (points && num && !item.querySelector(".since-gain")) num.before(gainChip(points, t("since.points", { delta: signed(points) })));
    }
  }

  return {
    /** What changed since your last turn, against the view right after it (null: no marks). @param {any} before */
    showSince(before) {
      if (before === sinceView) return;
      sinceView = before;
      version += 1; // every part is drawn afresh, so marks that no longer hold go
      render();
    },
    /** @param {StateMessage} next */
    update(next) {
      state = next;
      view = next.view;
      version += 1;
      last = latestMove(next.events ?? [], last);
      if (!view) return;
      names = seatNames(next.room.seats, t);
      myTurn = next.you != null && next.to_act.includes(next.you) && next.legal_moves.length > 0;
      legal = myTurn ? /** @type {Move[]} */ (next.legal_moves) : [];
      // keep a choice only while it is still on offer
      if (pick.key && !choices().some((choice) => choice.key === pick.key)) {
        pick = { die: null, key: null };
      }
      if (pick.die != null && view.hand?.[pick.die] == null) pick = { die: null, key: null };
      if (selectedKey && !targets().some((target) => target.key === selectedKey)) selectedKey = null;
      render();
    },
    destroy() {
      document.removeEventListener("keydown", onKey);
      root.classList.remove("game-root", "md-root", "game-busy");
      root.replaceChildren();
    },
  };
}
