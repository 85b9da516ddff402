// @ts-check
/**
 * "Your tables" on the start page: the rooms this browser holds seats in, and whose
 * turn it is; without a network, the last state this browser kept of each (offline).
 */

import * as api from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { lastStates } from "./laststate.js";
import { seatNames } from "./room/names.js";
import { formatLeft, orderTables } from "./timeleft.js";

/** @typedef {import("./messages.js").StateMessage} StateMessage */
/** @typedef {import("./tokens.js").SeatStore} SeatStore */

/**
 * One line about where a room stands, from the player's point of view. Pure.
 * @param {StateMessage} state
 * @param {(key: string, params?: Record<string, unknown>) => string} tr
 * @returns {{text: string, kind: "turn"|"wait"|"lobby"|"over"}}
 */
export function roomSummary(state, tr) {
  const { room, you } = state;
  const names = seatNames(room.seats, tr);
  if (room.status === "lobby") {
    const taken = room.seats.filter((s) => s.kind !== "empty").length;
    return { text: tr("mygames.lobby", { taken, total: room.players }), kind: "lobby" };
  }
  if (room.status === "finished") {
    const rank = you != null ? state.result?.ranks?.[you] : undefined;
    return { text: rank ? tr("mygames.finished_rank", { rank, total: room.players }) : tr("mygames.finished"), kind: "over" };
  }
  if (you != null && state.to_act.includes(you)) return { text: tr("mygames.your_turn"), kind: "turn" };
  const waiting = state.to_act.map((seat) => names[seat]).filter(Boolean);
  return { text: tr("mygames.waiting", { name: waiting.join(", ") || "…" }), kind: "wait" };
}

/**
 * Seconds left for what the table waits for: your own move on your turn, else the
 * most urgent seat's; null when no clock runs. Pure.
 * @param {StateMessage} state
 * @param {"turn"|"wait"|"lobby"|"over"} kind
 * @returns {number|null}
 */
export function tableTimeLeft(state, kind) {
  const seats = state.room.seats;
  const lefts =
    kind === "turn" && state.you != null
      ? [seats[state.you]?.time_left]
      : kind === "wait"
        ? state.to_act.map((seat) => seats[seat]?.time_left)
        : [];
  const known = lefts.filter((v) => typeof v === "number").map(Number);
  return known.length ? Math.min(...known) : null;
}

/** the newest render of each list: an older one that finishes late leaves it alone */
const renders = new WeakMap();

/**
 * @param {HTMLElement} list
 * @param {HTMLElement} empty
 * @param {SeatStore} store
 * @param {{quiet?: boolean}} [how]  quiet: a refresh, shown once every table answered
 *   (no "Looking…" flashing over what is on the screen)
 * @returns {Promise<{token: string, state: StateMessage}[]>}  the tables that answered
 */
export async function renderMyGames(list, empty, store, { quiet = false } = {}) {
  const generation = (renders.get(list) ?? 0) + 1;
  renders.set(list, generation);
  const kept = lastStates();
  const entries = store.list().slice(0, 30);
  empty.hidden = entries.length > 0;
  /** @type {{item: HTMLElement, kind: string, left: number|null, order: number}[]} */
  const rows = [];
  /** @type {Promise<void>[]} */
  const loading = [];
  /** @type {{token: string, state: StateMessage}[]} */
  const held = [];
  const items = entries.map((entry, order) => {
    const status = h("span", { class: "mg-status muted" }, t("mygames.loading"));
    const forget = h(
      "button",
      {
        type: "button",
        class: "btn btn-ghost btn-small",
        "aria-label": t("mygames.forget_label"),
        title: t("mygames.forget_label"),
        on: {
          click: () => {
            if (!confirm(t("mygames.forget_confirm"))) return;
            store.remove(entry.room);
            kept.remove(entry.room);
            void renderMyGames(list, empty, store);
          },
        },
      },
      t("mygames.forget"),
    );
    const title = h("span", { class: "mg-title" }, t(`game.${entry.game}.title`) === `game.${entry.game}.title` ? entry.game ?? "?" : t(`game.${entry.game}.title`));
    const who = h("span", { class: "mg-players muted small" }, "");
    const link = h("a", { class: "mg-link", href: `/r/${encodeURIComponent(entry.room)}` }, title, who, status);
    const item = h("li", { class: "mg-item", dataset: { room: entry.room } }, link, forget);
    /** @type {{item: HTMLElement, kind: string, left: number|null, order: number}} */
    const row = { item, kind: "error", left: null, order };
    rows.push(row);
    /** @param {StateMessage} state @param {boolean} offline  the state is the one kept here */
    const show = (state, offline) => {
      const summary = roomSummary(state, t);
      // a kept state's clock stopped when it was kept: its time left would mislead
      const left = offline ? null : tableTimeLeft(state, summary.kind);
      Object.assign(row, { kind: summary.kind, left });
      const text = left == null ? summary.text : t("mygames.time_left", { status: summary.text, left: formatLeft(left, t) });
      status.textContent = offline ? t("mygames.offline", { status: text }) : text;
      if (left != null) item.dataset.left = String(left);
      status.className = `mg-status mg-${summary.kind}`;
      item.classList.add(`mg-item-${summary.kind}`);
      item.classList.toggle("mg-item-offline", offline);
      title.textContent = t(`game.${state.room.game}.title`) === `game.${state.room.game}.title` ? state.room.title : t(`game.${state.room.game}.title`);
      who.textContent = seatNames(state.room.seats, t).join(" · ");
    };
    const load = api
      .roomState(entry.room, entry.token)
      .then((state) => {
        show(state, false);
        held.push({ token: entry.token, state });
        if (state.you != null && state.you !== entry.seat) store.set(entry.room, { token: entry.token, seat: state.you });
      })
      .catch((/** @type {any} */ err) => {
        const last = err?.status === 0 ? kept.get(entry.room) : null;
        if (last) {
          show(last, true);
          return;
        }
        status.textContent = err?.status === 404 ? t("mygames.gone") : err?.status === 401 ? t("mygames.bad_token") : t("mygames.unreachable");
        status.className = "mg-status mg-error";
      });
    loading.push(load);
    return item;
  });
  if (!quiet) list.replaceChildren(...items);
  await Promise.all(loading);
  // your turn first, the most urgent first; a list re-rendered meanwhile is left alone
  if (renders.get(list) === generation) list.replaceChildren(...orderTables(rows).map((r) => r.item));
  return held;
}

/**
 * Keep "Your tables" current while the page is open: every `every` ms while it is in
 * view, at once when it comes back into view, and when another tab of this browser
 * takes or forgets a seat.
 * @param {HTMLElement} list
 * @param {HTMLElement} empty
 * @param {SeatStore} store
 * @param {(held: {token: string, state: StateMessage}[]) => void} [after]  called after
 *   each refresh with the tables that answered (the page's other boxes)
 * @param {number} [every]
 */
export function keepMyGamesLive(list, empty, store, after = () => {}, every = 30_000) {
  const refresh = () => void renderMyGames(list, empty, store, { quiet: true }).then(after);
  setInterval(() => {
    if (document.visibilityState === "visible") refresh();
  }, every);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") refresh();
  });
  window.addEventListener("storage", (event) => {
    if (event.key === null || event.key === "spieltisch.rooms") refresh();
  });
}
