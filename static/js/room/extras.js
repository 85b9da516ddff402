// @ts-check
/**
 * The room page's replay extras: "since your last turn" (one summary line with
 * the legend of the board's marks, and the log lines of those moves marked), the history of the table's games with a
 * running tally and replay links, the current game's downloads, and importing a
 * record as a new table.
 */

import { gameList } from "../api.js";
import { h } from "../dom.js";
import { downloads, recordOpen } from "../formats.js";
import { importForm, loadHistory, renderHistory, replayHref } from "./history.js";
import { sinceShown, summaryLine } from "./since.js";
import { toast } from "../toast.js";

/** @typedef {import("../messages.js").RoomEvent} RoomEvent */

let historyKey = "";

/**
 * @param {{roomId: string, current: any, events: RoomEvent[], names: string[], game: any,
 *   t: import("../i18n.js").Translate, lang: string, since: HTMLElement, log: HTMLElement,
 *   history: HTMLElement}} ctx
 */
export function renderReplayExtras(ctx) {
  const { current, t } = ctx;
  const room = current.room;
  const you = current.you;
  const myTurn = room.status === "playing" && you != null && current.to_act.includes(you);
  const shown = sinceShown(ctx.events, you, myTurn);
  const moves = shown ?? [];
  ctx.since.hidden = shown == null;
  if (shown != null) {
    const line = summaryLine(moves, {
      names: ctx.names,
      t,
      lang: ctx.lang,
      describeMove: ctx.game?.describeMove ?? null,
    });
    // the board marks the same moves (each renderer's showSince); the legend says how
    const legend = moves.length ? h("span", { class: "since-legend small" }, h("span", { class: "since-legend-corner", "aria-hidden": "true" }), " ", t("since.legend")) : null;
    ctx.since.replaceChildren(line, legend ? " " : "", legend ?? "");
  }
  const marked = new Set(moves.map((event) => String(event.seq)));
  for (const li of ctx.log.querySelectorAll("li")) {
    li.classList.toggle("log-since", marked.has(/** @type {HTMLElement} */ (li).dataset.seq ?? ""));
  }
  const key = `${room.game_no}:${room.status}:${ctx.lang}`;
  if (key !== historyKey) {
    historyKey = key;
    refresh(ctx);
  }
}

/** @param {Parameters<typeof renderReplayExtras>[0]} ctx */
async function refresh(ctx) {
  const { roomId, current, t } = ctx;
  let history = { games: [], tally: [] };
  try {
    history = await loadHistory(roomId);
  } catch {
    // a table without games yet, or offline: the panel just stays short
  }
  /** @type {import("../formats.js").EngineFacts[]} */
  let engines = [];
  try {
    engines = await gameList();
  } catch {
    // offline: no download or import of an engine's own files until the list comes
  }
  const box = h("div", {});
  renderHistory(box, roomId, history, { t, lang: ctx.lang, current: current.room.game_no });
  const links = [];
  const gameNo = current.room.game_no;
  if (gameNo > 0) {
    const base = `/api/rooms/${encodeURIComponent(roomId)}/games/${gameNo}`;
    links.push(h("a", { href: replayHref(roomId, gameNo), class: "btn btn-small", id: "open-replay" }, t("history.open")));
    if (recordOpen(engines, current.room.game, current.room.status === "finished")) {
      for (const link of downloads(engines, current.room.game, base, t)) {
        links.push(" ", h("a", { href: link.href, download: "", class: "btn btn-small" }, link.label));
      }
    }
  }
  ctx.history.replaceChildren(
    box,
    links.length ? h("p", { class: "history-downloads" }, links) : "",
    importForm((text) => toast(text, { kind: "error" }), t, engines, current.room.rules),
  );
}
