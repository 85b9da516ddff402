// @ts-check
/** The chat panel: text only, always as text nodes. */

import { h } from "../dom.js";

/** @typedef {import("../messages.js").RoomEvent} RoomEvent */
/** @typedef {import("../i18n.js").Translate} Translate */

/**
 * @param {string|undefined} at  ISO time
 * @param {string} lang
 */
export function clock(at, lang) {
  if (!at) return "";
  const date = new Date(at);
  if (Number.isNaN(date.getTime())) return "";
  return date.toLocaleTimeString(lang, { hour: "2-digit", minute: "2-digit" });
}

/**
 * @param {HTMLOListElement} list
 * @param {RoomEvent[]} events  all known events; chat ones are shown
 * @param {{you: number|null, lang: string}} ctx
 */
export function renderChat(list, events, { you, lang }) {
  const chats = events.filter((e) => e.kind === "chat");
  const shown = Number(list.dataset.last ?? -1);
  const fresh = chats.filter((e) => e.seq > shown);
  if (!fresh.length) return;
  const stick = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
  for (const e of fresh) {
    list.append(
      h(
        "li",
        { class: ["chat-line", e.seat === you && "mine"], dataset: { seq: e.seq } },
        h("span", { class: "chat-who" }, String(e.name ?? "")),
        h("span", { class: "chat-text" }, String(e.text ?? "")),
        h("time", { class: "chat-time muted", datetime: e.at ?? "" }, clock(e.at, lang)),
      ),
    );
  }
  list.dataset.last = String(chats[chats.length - 1].seq);
  if (stick) list.scrollTop = list.scrollHeight;
}
