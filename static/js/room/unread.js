// @ts-check
/**
 * Unread chat: messages from others that came in while the chat was not in view (on a
 * phone it is far down the page, or the tab was in the background). The count shows
 * as a badge on the chat heading, as a button in the top bar that scrolls to the chat,
 * and as "(2) …" before the tab's title; seeing the chat clears it.
 *
 * ``UnreadChat`` holds no DOM, so it is tested alone; ``watchChat`` wires it to the page.
 */

import { t } from "../i18n.js";

/** @typedef {{seq: number, kind: string, seat?: number|null}} ChatEvent */

export class UnreadChat {
  constructor() {
    this.count = 0;
    /** @type {number|null} the newest chat seq already counted (null: nothing seen yet) */
    this.last = null;
  }

  /**
   * Count the chat among ``events`` that is new since the last call.
   * The chat already there when the page opens is not unread.
   * @param {ChatEvent[]} events @param {number|null} you @param {boolean} inView
   * @returns {number} the unread count now
   */
  take(events, you, inView) {
    const chats = events.filter((e) => e.kind === "chat");
    const newest = chats.length ? chats[chats.length - 1].seq : 0;
    if (this.last === null) {
      this.last = newest;
      return this.count;
    }
    const since = this.last;
    const fresh = chats.filter((e) => e.seq > since && e.seat !== you);
    this.last = Math.max(since, newest);
    this.count = inView ? 0 : this.count + fresh.length;
    return this.count;
  }

  /** The chat was seen. @returns {boolean} whether that changed the count */
  seen() {
    const had = this.count > 0;
    this.count = 0;
    return had;
  }
}

/** "(2) Blokus · Spieltisch"; the title alone with nothing unread. @param {string} title @param {number} count */
export function titleWithUnread(title, count) {
  return count > 0 ? `(${count}) ${title}` : title;
}

/**
 * Keep the marks in step with ``unread``, and clear them once the chat is in view of a
 * visible tab. ``changed`` is told after each change (the page redraws its title).
 * @param {UnreadChat} unread
 * @param {{list: HTMLElement, badge: HTMLElement, jump: HTMLButtonElement, changed: () => void}} parts
 * @returns {{inView: () => boolean, show: () => void}}
 */
export function watchChat(unread, { list, badge, jump, changed }) {
  let visible = false;
  const inView = () => visible && document.visibilityState === "visible";
  const show = () => {
    const n = unread.count;
    badge.hidden = n === 0;
    badge.textContent = n ? String(n) : "";
    badge.setAttribute("aria-label", t("chat.unread", { n }));
    jump.hidden = n === 0;
    const label = jump.querySelector(".chat-jump-count");
    if (label) label.textContent = String(n);
    jump.setAttribute("aria-label", t("chat.unread", { n }));
    jump.title = t("chat.jump");
  };
  const look = () => {
    if (inView() && unread.seen()) {
      show();
      changed();
    }
  };
  if (typeof IntersectionObserver !== "undefined") {
    new IntersectionObserver(
      (entries) => {
        visible = entries.some((e) => e.isIntersecting);
        look();
      },
      { threshold: 0.01 },
    ).observe(list);
  } else {
    visible = true;
  }
  document.addEventListener("visibilitychange", look);
  jump.addEventListener("click", () => {
    list.scrollIntoView({ block: "center", behavior: "smooth" });
    /** @type {HTMLElement|null} */ (document.getElementById("chat-input"))?.focus({ preventScroll: true });
  });
  show();
  return { inView, show };
}
