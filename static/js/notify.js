// @ts-check
/**
 * Telling a player it is their turn: the tab title, the favicon and (only when
 * the player allowed it, asked by a button) a browser notification.
 */

import { t } from "./i18n.js";

const ICON = "/static/favicon.svg";
const ICON_TURN = "/static/favicon-turn.svg";

/** @param {string} href */
function setFavicon(href) {
  /** @type {HTMLLinkElement|null} */
  let link = document.querySelector('link[rel="icon"]');
  if (!link) {
    link = document.createElement("link");
    link.rel = "icon";
    link.type = "image/svg+xml";
    document.head.append(link);
  }
  if (link.getAttribute("href") !== href) link.href = href;
}

/** Whether this browser can show notifications at all. */
export function notificationsSupported() {
  return typeof Notification !== "undefined";
}

/** @returns {NotificationPermission|"unsupported"} */
export function notificationPermission() {
  return notificationsSupported() ? Notification.permission : "unsupported";
}

/** Ask for permission (call from a click only). @returns {Promise<NotificationPermission|"unsupported">} */
export async function askNotifications() {
  if (!notificationsSupported()) return "unsupported";
  try {
    return await Notification.requestPermission();
  } catch {
    return Notification.permission;
  }
}

export class TurnSignal {
  /**
   * @param {() => string} baseTitle  the page title when it is not your turn
   * @param {(title: string) => string} [decorate]  what else the title says (unread chat)
   */
  constructor(baseTitle, decorate = (title) => title) {
    this.baseTitle = baseTitle;
    this.decorate = decorate;
    this.myTurn = false;
    /** @type {Notification|null} */
    this.shown = null;
  }

  /**
   * Call with every state: signals once when the turn becomes yours.
   * @param {boolean} myTurn
   * @param {string} body  e.g. "Blokus: place a blue piece"
   */
  update(myTurn, body) {
    const became = myTurn && !this.myTurn;
    this.myTurn = myTurn;
    this.refresh();
    if (became && document.hidden && notificationPermission() === "granted") {
      try {
        this.shown?.close();
        this.shown = new Notification(t("turn.notification_title"), { body, icon: ICON_TURN, tag: "spieltisch-turn" });
        this.shown.onclick = () => {
          window.focus();
          this.shown?.close();
        };
      } catch {
        // some browsers only notify from a service worker: the title and icon still say it
      }
    }
    if (!myTurn) this.shown?.close();
  }

  /** Re-apply title and icon (also after a language change). */
  refresh() {
    document.title = this.decorate(this.myTurn ? `● ${t("turn.title_prefix")} · ${this.baseTitle()}` : this.baseTitle());
    setFavicon(this.myTurn ? ICON_TURN : ICON);
  }
}
