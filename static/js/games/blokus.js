// @ts-check
/**
 * The Blokus renderer: board, tray, scores. `mount(root, {onMove, t})` returns
 * `{update(state), destroy()}` like every game's renderer. The browser holds no
 * rules: a placement is legal exactly when it is among the server's `legal_moves`,
 * so the ghost can say so at once, without asking.
 */

import { h, s } from "../dom.js";
import { sendMove } from "./sending.js";
import { pref } from "../tokens.js";
import { seatNames } from "../room/names.js";
import { addStrings } from "../i18n.js";
import { Board } from "./blokus/board.js";
import { Tray } from "./blokus/tray.js";
import strings from "./blokus/strings.js";
import { newCells, scoreGains } from "./blokus/since.js";
import { gainChip, signed } from "./sincemark.js";

export { howToPlay } from "./blokus/help.js";
import { aroundWords, cornersWords, pieceWords, scoresWords } from "./blokus/speech.js";
import { LegalIndex, cellsKey, clampAnchor, flip, normalize, placeAt, rotate, rotateBack } from "./blokus/geometry.js";

addStrings(strings);

/** Zoom steps of the board on a narrow screen (1: the whole board fits the width). */
const ZOOMS = [1, 1.5, 2];

/** @typedef {import("./blokus/geometry.js").Cell} Cell */
/** @typedef {import("../i18n.js").Translate} Translate */
/** @typedef {import("../messages.js").StateMessage} StateMessage */

/**
 * @typedef {object} MountOptions
 * @property {(move: unknown) => Promise<unknown>} onMove  send a move; rejects when refused
 * @property {Translate} t
 * @property {(text: string) => void} [say]  speak through the room's live region
 */

/**
 * The log text of one move (engines/blokus/view.py log_line): "Anna placed F", "Blue is blocked".
 * @param {{seat?: number, colour?: string, piece?: string, blocked?: string[]}} log
 * @param {string[]} names
 * @param {Translate} t
 * @returns {string[]}
 */
export function describeMove(log, names, t) {
  const name = names[log.seat ?? -1] ?? t("seat.numbered", { n: (log.seat ?? 0) + 1 });
  if (!log.piece) return [t("log.move", { name })];
  const lines = [t("blokus.log.placed", { name, piece: log.piece, colour: t(`blokus.colour.${log.colour}`) })];
  for (const colour of log.blocked ?? []) lines.push(t("blokus.log.blocked", { colour: t(`blokus.colour.${colour}`) }));
  return lines;
}

/**
 * Extra lines for the result screen: each colour's own score.
 * @param {any} result
 * @param {string[]} names
 * @param {Translate} t
 * @returns {string[]}
 */
export function resultDetails(result, names, t) {
  return (result?.colours ?? []).map((/** @type {any} */ c) =>
    t(c.owner == null ? "blokus.result.colour_shared" : "blokus.result.colour", {
      colour: t(`blokus.colour.${c.colour}`),
      score: c.score,
      name: c.owner == null ? "" : names[c.owner] ?? "",
    }),
  );
}

/**
 * A colour's chip in the score list, with its symbol (shown when symbols are on).
 * @param {number} index
 * @param {string} name
 */
function swatch(index, name) {
  return h(
    "span",
    { class: "bk-swatch", "aria-hidden": "true" },
    s(
      "svg",
      { class: `bk-${name}`, viewBox: "0 0 1 1" },
      s("rect", { class: "bk-swatch-fill", width: 1, height: 1, rx: 0.2 }),
      s("use", { href: `#bk-sym-${index % 4}`, class: `bk-sym bk-on-${name}`, width: 1, height: 1 }),
    ),
  );
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
  let legal = new LegalIndex([]);
  let myTurn = false;
  let busy = false;
  /** @type {string[]} */
  let names = [];
  /** @type {{piece: string, shape: Cell[], anchor: Cell|null} | null} */
  let pick = null;
  let lastTap = "";
  /** @type {Board|null} */
  let board = null;
  /** @type {any} the view right after your previous move, while it is your turn (else null) */
  let sinceView = null;

  const status = h("p", { class: "game-status bk-status" });
  const hint = h("p", { class: "bk-hint-text" });
  const boardWrap = h("div", { class: "bk-board-wrap" });
  // phones: the board can be zoomed; the wrap then scrolls (pans) under a finger
  let zoom = ZOOMS.includes(Number(pref("blokus.zoom"))) ? Number(pref("blokus.zoom")) : 1;
  const zoomLabel = h("span", { class: "bk-zoom-level" });
  const zoomBtn = (/** @type {string} */ key, /** @type {string} */ icon, /** @type {number} */ step) =>
    h("button", { type: "button", class: `btn btn-small bk-zoom-${key}`, title: t(`blokus.zoom_${key}`), "aria-label": t(`blokus.zoom_${key}`), on: { click: () => setZoom(step) } }, icon);
  const zoomOut = zoomBtn("out", "−", -1);
  const zoomIn = zoomBtn("in", "+", 1);
  const zoomBox = h("div", { class: "bk-zoom", role: "group", "aria-label": t("blokus.zoom") }, zoomOut, zoomLabel, zoomIn);
  const scores = h("ol", { class: "bk-scores", "aria-label": t("blokus.scores") });
  const trayTitle = h("h3", { class: "game-card-title bk-tray-title" });
  const tray = new Tray(t, (piece) => choose(piece));
  const button = (/** @type {string} */ key, /** @type {string} */ keys, /** @type {string} */ icon, /** @type {() => void} */ fn) =>
    h(
      "button",
      { type: "button", class: `btn bk-${key}`, "aria-keyshortcuts": keys, title: t(`blokus.${key}_title`), on: { click: fn } },
      h("span", { class: "bk-btn-icon", "aria-hidden": "true" }, icon),
      h("span", {}, t(`blokus.${key}`)),
    );
  const rotateBtn = button("rotate", "R", "↻", () => turn(rotate));
  const flipBtn = button("flip", "F", "⇆", () => turn(flip));
  const placeBtn = button("place", "Enter", "✓", () => place());
  placeBtn.classList.add("btn-primary");
  const cancelBtn = button("cancel", "Escape", "✕", () => cancel());
  const controls = h("div", { class: "bk-controls", role: "toolbar", "aria-label": t("blokus.controls") }, rotateBtn, flipBtn, cancelBtn, placeBtn);
  const symbolsBox = h("input", {
    type: "checkbox",
    id: "bk-symbols",
    checked: pref("blokus.symbols") === "1",
    on: {
      change: () => {
        pref("blokus.symbols", symbolsBox.checked ? "1" : "0");
        root.classList.toggle("bk-show-symbols", symbolsBox.checked);
      },
    },
  });
  const keysHelp = h("p", { class: "game-keys bk-keys muted" }, t("blokus.keys_help"), " ", h("span", { class: "game-keys-words" }, t("blokus.keys_words")));
  const trayBox = h("section", { class: "game-card bk-tray-box" }, trayTitle, controls, hint, tray.el);
  const side = h(
    "div",
    { class: "game-side bk-side" },
    h("section", { class: "game-card bk-score-box" }, h("h3", {}, t("blokus.scores")), scores),
    trayBox,
    h("div", { class: "game-prefs bk-prefs" }, h("label", { class: "check" }, symbolsBox, h("span", {}, t("blokus.symbols"))), keysHelp),
  );
  const boardBox = h("div", { class: "bk-board-box" }, zoomBox, boardWrap);
  const container = h("div", { class: "game-view blokus" }, status, h("div", { class: "game-main bk-main" }, boardBox, side));
  root.classList.add("game-root", "bk-root");
  root.classList.toggle("bk-show-symbols", symbolsBox.checked);
  root.replaceChildren(container);

  /** One zoom step in or out (`step` ±1); remembered for the next visit. @param {number} step */
  function setZoom(step) {
    const at = ZOOMS.indexOf(zoom) + step;
    if (at < 0 || at >= ZOOMS.length) return;
    // keep the middle of what is shown in the middle
    const midX = (boardWrap.scrollLeft + boardWrap.clientWidth / 2) / Math.max(boardWrap.scrollWidth, 1);
    const midY = (boardWrap.scrollTop + boardWrap.clientHeight / 2) / Math.max(boardWrap.scrollHeight, 1);
    zoom = ZOOMS[at];
    pref("blokus.zoom", String(zoom));
    showZoom();
    boardWrap.scrollLeft = midX * boardWrap.scrollWidth - boardWrap.clientWidth / 2;
    boardWrap.scrollTop = midY * boardWrap.scrollHeight - boardWrap.clientHeight / 2;
    revealGhost();
  }

  function showZoom() {
    boardWrap.style.setProperty("--bk-zoom", String(zoom));
    boardWrap.classList.toggle("bk-zoomed", zoom > 1);
    zoomLabel.textContent = t("blokus.zoom_level", { zoom: Math.round(zoom * 100) });
    zoomOut.disabled = zoom === ZOOMS[0];
    zoomIn.disabled = zoom === ZOOMS[ZOOMS.length - 1];
  }
  showZoom();

  /** On a phone, scroll the page so the tray (stuck to the bottom) does not cover the board. */
  function keepInReach() {
    if (getComputedStyle(zoomBox).display === "none") return;
    const shown = boardWrap.getBoundingClientRect();
    const overlap = shown.bottom - trayBox.getBoundingClientRect().top;
    const room = shown.top - zoomBox.getBoundingClientRect().height - 8;
    if (overlap > 0 && room > 0) window.scrollBy({ top: Math.min(overlap, room), behavior: "instant" });
  }

  /** When zoomed, scroll the board so the piece being placed is in view. */
  function revealGhost() {
    if (zoom === 1 || !pick?.anchor || !board || !view) return;
    const cell = boardWrap.scrollWidth / view.size;
    const cells = ghostCells() ?? [];
    const rows = cells.map(([r]) => r);
    const cols = cells.map(([, c]) => c);
    const [top, bottom] = [Math.min(...rows) * cell, (Math.max(...rows) + 1) * cell];
    const [left, right] = [Math.min(...cols) * cell, (Math.max(...cols) + 1) * cell];
    const margin = cell;
    if (left - margin < boardWrap.scrollLeft || right + margin > boardWrap.scrollLeft + boardWrap.clientWidth)
      boardWrap.scrollLeft = (left + right) / 2 - boardWrap.clientWidth / 2;
    if (top - margin < boardWrap.scrollTop || bottom + margin > boardWrap.scrollTop + boardWrap.clientHeight)
      boardWrap.scrollTop = (top + bottom) / 2 - boardWrap.clientHeight / 2;
  }

  /** The colour whose pieces the tray shows. */
  function trayColour() {
    if (!view) return null;
    if (myTurn && view.to_move) return view.colours[view.to_move.colour];
    const you = state?.you;
    if (you == null) return view.to_move ? view.colours[view.to_move.colour] : null;
    const mine = view.colours.filter((/** @type {any} */ c) => c.owner === you || c.seat === you);
    return mine.find((/** @type {any} */ c) => !c.out) ?? mine[0] ?? null;
  }

  /** @param {string} piece */
  function choose(piece) {
    if (!view) return;
    if (pick?.piece === piece) {
      cancel();
      return;
    }
    const shape = normalize(view.pieces[piece]);
    pick = { piece, shape, anchor: pick?.anchor ?? null };
    // start where it fits, if it fits anywhere this way round; else where it was, or the middle
    const anchors = myTurn ? legal.anchors(piece, shape) : [];
    const fitting = myTurn ? orientationThatFits(piece, shape) : null;
    if (fitting && !anchors.length) pick.shape = fitting;
    const spots = myTurn ? legal.anchors(piece, pick.shape) : [];
    pick.anchor = spots[0] ?? clampAnchor(pick.shape, pick.anchor ?? [Math.floor(view.size / 2), Math.floor(view.size / 2)], view.size);
    lastTap = "";
    render();
    sayPiece();
    /** @type {HTMLElement} */ (/** @type {unknown} */ (board?.el))?.focus({ preventScroll: true });
    keepInReach();
    revealGhost();
  }

  /** The first orientation of `piece`, from `shape` on, that fits somewhere. @param {string} piece @param {Cell[]} shape */
  function orientationThatFits(piece, shape) {
    const fits = legal.shapesOf(piece);
    let candidate = shape;
    for (let i = 0; i < 8; i++) {
      if (fits.has(cellsKey(candidate))) return candidate;
      candidate = i === 3 ? flip(candidate) : rotate(candidate);
    }
    return null;
  }

  /** @param {(cells: Cell[]) => Cell[]} how */
  function turn(how) {
    if (!pick || !view) return;
    pick.shape = how(pick.shape);
    if (pick.anchor) pick.anchor = clampAnchor(pick.shape, pick.anchor, view.size);
    render();
    sayPiece();
  }

  /** The piece being placed, in words, through the room's live region. */
  function sayPiece() {
    if (!pick || !view) return;
    say(
      pieceWords(
        {
          piece: pick.piece,
          base: normalize(view.pieces[pick.piece]),
          shape: pick.shape,
          cells: ghostCells(),
          fits: ghostLegal(),
          spots: myTurn ? legal.anchors(pick.piece, pick.shape).length : 0,
          myTurn,
        },
        t,
      ),
    );
  }

  /** The square the words about the board are centred on: the piece's, else the middle. @returns {Cell} */
  function focusSquare() {
    const cells = ghostCells();
    if (cells?.length) return cells[0];
    const middle = Math.floor((view?.size ?? 0) / 2);
    return [middle, middle];
  }

  /** @param {number} dr @param {number} dc */
  function nudge(dr, dc) {
    if (!pick || !view) return;
    const at = pick.anchor ?? [Math.floor(view.size / 2), Math.floor(view.size / 2)];
    pick.anchor = clampAnchor(pick.shape, [at[0] + dr, at[1] + dc], view.size);
    render();
    sayPiece();
    revealGhost();
  }

  function cancel() {
    pick = null;
    render();
  }

  function ghostCells() {
    return pick?.anchor ? placeAt(pick.shape, pick.anchor) : null;
  }

  function ghostLegal() {
    const cells = ghostCells();
    return !!(pick && cells && myTurn && legal.has(pick.piece, cells));
  }

  async function place() {
    if (!pick || busy) return;
    const cells = ghostCells();
    if (!cells || !ghostLegal()) {
      hint.textContent = myTurn ? t("blokus.hint.no_fit_here", { piece: pick.piece }) : t("blokus.hint.not_your_turn");
      board?.el.classList.remove("bk-shake");
      void (/** @type {any} */ (board?.el)).getBoundingClientRect();
      board?.el.classList.add("bk-shake");
      return;
    }
    busy = true;
    // refused: the shell shows the server's reason; the piece stays picked
    if (await sendMove(root, onMove, { piece: pick.piece, cells })) pick = null;
    busy = false;
    render();
  }

  /** @param {Cell} cell */
  function hover(cell) {
    if (!pick || !view || busy) return;
    const at = clampAnchor(pick.shape, cell, view.size);
    if (pick.anchor && pick.anchor[0] === at[0] && pick.anchor[1] === at[1]) return;
    pick.anchor = at;
    render();
  }

  /** @param {Cell} cell @param {string} pointer */
  function activate(cell, pointer) {
    if (!pick || !view || busy) return;
    const at = clampAnchor(pick.shape, cell, view.size);
    const key = `${at[0]},${at[1]}`;
    const same = pick.anchor && pick.anchor[0] === at[0] && pick.anchor[1] === at[1];
    pick.anchor = at;
    if (pointer === "touch" && !(same && lastTap === key)) {
      // on touch the first tap shows where it lands; tapping the same spot again places it
      lastTap = key;
      render();
      return;
    }
    lastTap = "";
    render();
    void place();
  }

  /** @param {KeyboardEvent} e */
  function onKey(e) {
    if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
    const target = /** @type {HTMLElement|null} */ (e.target);
    if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
    if (target?.closest?.("dialog[open]")) return;
    const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
    /** @type {Record<string, () => void>} */
    const actions = {
      r: () => turn(e.shiftKey ? rotateBack : rotate),
      f: () => turn(flip),
      ArrowUp: () => nudge(-1, 0),
      w: () => nudge(-1, 0),
      ArrowDown: () => nudge(1, 0),
      s: () => nudge(1, 0),
      ArrowLeft: () => nudge(0, -1),
      a: () => nudge(0, -1),
      ArrowRight: () => nudge(0, 1),
      d: () => nudge(0, 1),
      Escape: () => cancel(),
    };
    if (key === "Enter") {
      // Enter on a button or link does what that control says
      if (!pick || (target && target.closest?.("button, a, summary"))) return;
      e.preventDefault();
      void place();
      return;
    }
    /** @type {Record<string, () => string>} */
    const words = {
      p: () => (pick ? "" : t("blokus.hint.pick")),
      b: () => (view ? aroundWords(view, focusSquare(), t) : ""),
      c: () => (view ? cornersWords(view, t) : ""),
      o: () => (view ? scoresWords(view, names, t) : ""),
    };
    if (words[key] && !e.shiftKey) {
      e.preventDefault();
      const text = words[key]();
      if (text) say(text);
      else sayPiece();
      return;
    }
    const action = actions[key];
    if (!action || !pick) return;
    e.preventDefault();
    action();
  }
  document.addEventListener("keydown", onKey);

  function renderScores() {
    if (!view) return;
    const turnColour = view.to_move?.colour ?? -1;
    const gains = sinceView ? scoreGains(sinceView, view) : [];
    scores.replaceChildren(
      ...view.colours.map((/** @type {any} */ c) => {
        const player = c.owner == null ? t("blokus.shared_colour", { name: names[c.seat] ?? "" }) : names[c.owner] ?? "";
        const mine = state?.you != null && (c.owner === state.you || (c.owner == null && c.seat === state.you));
        return h(
          "li",
          {
            class: ["bk-score", `bk-${c.name}`, c.out && "blocked", c.index === turnColour && "to-move", mine && "mine"],
            dataset: { colour: c.name },
          },
          swatch(c.index, c.name),
          h(
            "span",
            { class: "bk-score-who" },
            h("strong", {}, t(`blokus.colour.${c.name}`)),
            h("span", { class: "muted" }, player),
          ),
          h(
            "span",
            { class: "bk-score-state" },
            c.out
              ? h("span", { class: "badge badge-blocked" }, t("blokus.blocked"))
              : c.index === turnColour
                ? h("span", { class: "badge badge-turn" }, t("blokus.to_move"))
                : null,
            h("span", { class: "muted small" }, t("blokus.pieces_left", { count: c.remaining.length })),
          ),
          h(
            "span",
            { class: "bk-score-num" },
            gains[c.index] ? gainChip(gains[c.index], t("since.points", { delta: signed(gains[c.index]) })) : null,
            h("span", { class: "sr-only" }, t("blokus.score_label", { score: c.score })),
            h("span", { "aria-hidden": "true" }, String(c.score)),
          ),
        );
      }),
    );
  }

  /** Mark the squares covered since your last turn (after the board is drawn afresh). */
  function markSince() {
    board?.markSince(sinceView && view ? newCells(sinceView, view) : [], t("since.new"));
  }

  function render() {
    if (!view || !board) return;
    const colour = trayColour();
    const colourName = colour?.name ?? view.colours[0].name;
    const spectator = state?.you == null;
    // status line
    if (view.over) status.textContent = t("blokus.status.over");
    else if (myTurn) status.textContent = t("blokus.status.your_turn", { colour: t(`blokus.colour.${view.to_move.name}`) });
    else if (view.to_move)
      status.textContent = t("blokus.status.waiting", {
        name: names[view.to_move.seat] ?? "",
        colour: t(`blokus.colour.${view.to_move.name}`),
      });
    status.classList.toggle("your-turn", myTurn);
    // tray
    trayBox.hidden = spectator || view.over || !colour;
    if (colour) {
      trayTitle.textContent = t(myTurn ? "blokus.tray_title_turn" : "blokus.tray_title", { colour: t(`blokus.colour.${colour.name}`) });
      if (pick && !colour.remaining.includes(pick.piece)) pick = null;
      tray.update({
        pieces: colour.remaining,
        shapes: view.pieces,
        colour: colour.name,
        selected: pick?.piece ?? null,
        selectedShape: pick?.shape ?? null,
        usable: myTurn ? (piece) => legal.canPlace(piece) : null,
      });
    }
    // ghost and hints
    const cells = ghostCells();
    const ok = ghostLegal();
    board.showGhost(cells, !pick ? "preview" : !myTurn ? "preview" : ok ? "legal" : "illegal", colourName);
    const anchors = pick && myTurn ? legal.anchors(pick.piece, pick.shape) : [];
    board.showHints(anchors);
    board.setDragging(!!pick);
    for (const btn of [rotateBtn, flipBtn, cancelBtn]) btn.disabled = !pick;
    placeBtn.disabled = !ok || busy;
    if (!pick) hint.textContent = myTurn ? t("blokus.hint.pick") : "";
    else if (!myTurn) hint.textContent = t("blokus.hint.not_your_turn");
    else if (ok) hint.textContent = t("blokus.hint.fits", { piece: pick.piece });
    else if (!anchors.length) hint.textContent = t("blokus.hint.turn_it", { piece: pick.piece });
    else hint.textContent = t("blokus.hint.move_it", { piece: pick.piece, count: anchors.length });
    renderScores();
  }

  return {
    /** @param {StateMessage} next */
    update(next) {
      state = next;
      view = next.view;
      if (!view) return;
      names = seatNames(next.room.seats, t);
      const wasMine = myTurn;
      myTurn = next.you != null && next.to_act.includes(next.you) && next.legal_moves.length > 0;
      legal = new LegalIndex(myTurn ? next.legal_moves : []);
      if (!board || board.size !== view.size) {
        board = new Board(view.size, t, { onHover: hover, onActivate: activate });
        boardWrap.replaceChildren(board.el);
        pick = null;
      }
      if (wasMine !== myTurn && pick && myTurn) {
        // the turn just came: put the picked piece where it fits
        const spots = legal.anchors(pick.piece, pick.shape);
        if (spots.length && !ghostLegal()) pick.anchor = spots[0];
      }
      board.update(view);
      markSince();
      render();
    },
    /** What changed since your last turn, against the view right after it (null: no marks). @param {any} before */
    showSince(before) {
      const next = before && view && before.size === view.size ? before : null;
      if (next === sinceView) return;
      sinceView = next;
      if (!board || !view) return;
      board.update(view);
      markSince();
      render();
    },
    destroy() {
      document.removeEventListener("keydown", onKey);
      root.classList.remove("game-root", "bk-root", "bk-show-symbols", "game-busy");
      root.replaceChildren();
    },
  };
}
