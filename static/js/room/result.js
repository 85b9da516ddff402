// @ts-check
/** The result screen: ranks and scores per seat, the game's own details, and a rematch button. */

import { h, replace } from "../dom.js";
import { joinNames, winners } from "./log.js";

/** @typedef {import("../messages.js").StateMessage} StateMessage */
/** @typedef {import("../i18n.js").Translate} Translate */

/**
 * @param {HTMLElement} box
 * @param {StateMessage} state
 * @param {object} ctx
 * @param {Translate} ctx.t
 * @param {string} ctx.lang
 * @param {string[]} ctx.names
 * @param {boolean} ctx.canRematch
 * @param {string[]} ctx.details   lines from the renderer's resultDetails, if any
 * @param {() => void} ctx.onRematch
 * @param {() => void} ctx.onClose
 */
export function renderResult(box, state, { t, lang, names, canRematch, details, onRematch, onClose }) {
  const result = state.result;
  if (!result) {
    box.hidden = true;
    return;
  }
  const headline = resultHeadline(state, names, t, lang);
  const you = state.you;
  const order = result.scores.map((_, seat) => seat).sort((a, b) => result.ranks[a] - result.ranks[b] || a - b);
  replace(
    box,
    h("p", { class: "result-kicker" }, t("result.game_over")),
    h("h2", { id: "result-title", tabindex: "-1" }, headline),
    h(
      "table",
      { class: "result-table" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("result.rank")), h("th", { scope: "col" }, t("result.player")), h("th", { scope: "col", class: "num" }, t("result.score")))),
      h(
        "tbody",
        {},
        order.map((seat) =>
          h(
            "tr",
            { class: [result.ranks[seat] === 1 && "winner", seat === you && "you"], dataset: { seat } },
            h("td", {}, result.ranks[seat] === 1 ? h("span", { class: "medal", "aria-hidden": "true" }, "★ ") : null, String(result.ranks[seat])),
            h("td", {}, names[seat] ?? String(seat + 1), seat === you ? h("span", { class: "tag tag-you" }, t("seat.you")) : null),
            h("td", { class: "num" }, String(result.scores[seat])),
          ),
        ),
      ),
    ),
    details.length ? h("ul", { class: "result-details muted" }, details.map((line) => h("li", {}, line))) : null,
    h(
      "div",
      { class: "result-actions" },
      canRematch
        ? h("button", { type: "button", class: "btn btn-primary", id: "rematch", on: { click: onRematch } }, t("result.rematch"))
        : h("p", { class: "muted rematch-note" }, rematchNote(state, names, t)),
      h("button", { type: "button", class: "btn btn-ghost", on: { click: onClose } }, t("result.show_board")),
    ),
  );
  box.setAttribute("role", "region");
  box.setAttribute("aria-labelledby", "result-title");
  box.hidden = false;
}

/**
 * The result in one line: you won, who won, or who tied. Pure.
 * @param {StateMessage} state
 * @param {string[]} names
 * @param {Translate} t
 * @param {string} lang
 */
export function resultHeadline(state, names, t, lang) {
  const result = state.result;
  if (!result) return "";
  const top = winners(result, names);
  const you = state.you;
  return you != null && result.ranks[you] === 1 && top.length === 1
    ? t("result.you_win")
    : top.length === 1
      ? t("result.winner", { name: top[0] })
      : t("result.tie", { names: joinNames(top, lang) });
}

/**
 * Who may start the next game, for someone who may not: the host by name, or every
 * seated player when the room lets anyone start. Pure.
 * @param {StateMessage} state
 * @param {string[]} names
 * @param {Translate} t
 */
export function rematchNote(state, names, t) {
  if (state.room.rules?.anyone_can_start) return t("result.wait_rematch_anyone");
  const host = state.room.host_seat;
  return t("result.wait_rematch", { name: host == null ? "" : names[host] ?? "" });
}

/**
 * The bar that stays above the board once the result screen is closed: open the
 * result again, and start the next game (or read who may).
 * @param {HTMLElement} box
 * @param {StateMessage} state
 * @param {object} ctx
 * @param {Translate} ctx.t
 * @param {string[]} ctx.names
 * @param {boolean} ctx.canRematch
 * @param {() => void} ctx.onRematch
 * @param {() => void} ctx.onShowResult
 */
export function renderRematchBar(box, state, { t, names, canRematch, onRematch, onShowResult }) {
  replace(
    box,
    h("p", { class: "rematch-bar-text" }, h("strong", {}, t(state.room.aborted ? "log.aborted" : "result.game_over")), " ", canRematch ? null : h("span", { class: "muted rematch-note" }, rematchNote(state, names, t))),
    h(
      "div",
      { class: "rematch-bar-actions" },
      state.result ? h("button", { type: "button", class: "btn btn-ghost btn-small", id: "show-result", on: { click: onShowResult } }, t("result.show_result")) : null,
      canRematch ? h("button", { type: "button", class: "btn btn-primary btn-small", id: "rematch-bar-start", on: { click: onRematch } }, t("result.rematch")) : null,
    ),
  );
  box.hidden = false;
}
