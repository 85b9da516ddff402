// @ts-check
/**
 * "Notify me": the dialog where a seated player chooses how to hear about their
 * turn when the page is closed — Web Push on this device, an e-mail address, and
 * (for the host) one webhook for the whole table. The server keeps the choices;
 * it never shows an address back, only that one is set.
 */

import { request } from "./api.js";
import { h, replace } from "./dom.js";
import { lang, onLanguageChange, t } from "./i18n.js";
import { toast, toastError } from "./toast.js";
import { follow, keptAlerts, rememberDevice, setUpMany } from "./alltables.js";
import { pref, seatStore } from "./tokens.js";

/**
 * What GET /api/rooms/{room}/alerts answers.
 * @typedef {object} AlertSettings
 * @property {string|null} lang
 * @property {number} push          subscriptions of this seat (all devices)
 * @property {boolean} email        an address is set
 * @property {boolean} email_confirmed  its owner confirmed it (turn mails go out only then)
 * @property {boolean} each_turn     one mail per turn, not the daily digest
 * @property {boolean} mail_available
 * @property {boolean} host
 * @property {Record<string, Record<string, boolean>>} [kinds]  per channel set up (push, email): what it carries besides turns
 * @property {{set: boolean, shape: string|null, kinds?: Record<string, boolean>|null}} [webhook]  only for the host
 */

/** The alert kinds a channel may carry besides turns, in the order they are offered. */
export const KIND_CHOICES = ["game_over", "bot_took_seat", "chat"];

/** The application server key as the Push API wants it. @param {string} b64url */
export function keyBytes(b64url) {
  const b64 = b64url.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (b64url.length % 4)) % 4);
  const raw = atob(b64);
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
}

export function pushSupported() {
  return "serviceWorker" in navigator && typeof PushManager !== "undefined" && typeof Notification !== "undefined";
}

/**
 * Why this browser can't subscribe, in words to show: on an iPhone or iPad, Safari
 * has no `PushManager` outside a web app added to the Home Screen, so the way there
 * is what helps; anywhere else push is simply missing. Pure.
 * @param {{userAgent: string, maxTouchPoints: number, standalone: boolean}} device
 * @returns {"alerts.push_home_screen"|"alerts.push_unsupported"}
 */
export function pushMissingReason(device) {
  // iPadOS asks for desktop pages and names itself a Mac; only its touch screen tells
  const apple = /\b(iPhone|iPad|iPod)\b/.test(device.userAgent) || (/\bMacintosh\b/.test(device.userAgent) && device.maxTouchPoints > 1);
  return apple && !device.standalone ? "alerts.push_home_screen" : "alerts.push_unsupported";
}

/** This page's device, for `pushMissingReason`. */
function thisDevice() {
  const standalone = /** @type {{standalone?: boolean}} */ (navigator).standalone === true || matchMedia("(display-mode: standalone)").matches;
  return { userAgent: navigator.userAgent, maxTouchPoints: navigator.maxTouchPoints ?? 0, standalone };
}

export class AlertsPanel {
  /**
   * @param {string} roomId
   * @param {() => string|null} token
   */
  constructor(roomId, token) {
    this.roomId = roomId;
    this.token = token;
    this.base = `/api/rooms/${encodeURIComponent(roomId)}/alerts`;
    /** @type {AlertSettings|null} */
    this.settings = null;
    this.busy = false;
    this.kept = keptAlerts();
    this.following = false; // a hand-over of the kept set-up to new seats is under way
    this.dialog = h("dialog", { id: "alerts-dialog", class: "alerts-dialog", "aria-labelledby": "alerts-title" });
    this.dialog.addEventListener("click", (e) => {
      if (e.target === this.dialog) this.dialog.close();
    });
    document.body.append(this.dialog);
    onLanguageChange(() => {
      if (this.dialog.open) this.render();
      if (this.settings?.lang && this.settings.lang !== lang() && this.token()) {
        this.call("PUT", "/lang", { lang: lang() }).catch(() => {});
      }
    });
  }

  /** Whether a set-up here goes to all my tables (the default) or this one only. */
  get everywhere() {
    return pref("alerts.scope") !== "this";
  }

  /** The seats this browser holds, this table's with the token the page uses. */
  held() {
    const mine = this.token();
    const others = seatStore()
      .list()
      .filter((e) => e.room !== this.roomId)
      .map(({ room, token }) => ({ room, token }));
    return mine ? [{ room: this.roomId, token: mine }, ...others] : others;
  }

  /** The seats a set-up for all my tables goes to: held, not switched off (but this one). */
  targets() {
    return this.held().filter((s) => s.room === this.roomId || !this.kept.isOff(s.room));
  }

  /**
   * Set a channel up for all my tables and keep it for tables joined later.
   * @param {"push"|"email"} channel @param {import("./alltables.js").PushSetUp|import("./alltables.js").EmailSetUp} setUp
   */
  async setUpEverywhere(channel, setUp) {
    this.kept.setOff(this.roomId, false);
    const seats = this.targets();
    const answer = await setUpMany(channel, setUp, seats, this.held(), lang());
    const set = answer.seats.filter((s) => s.set).map((s) => s.room);
    this.kept.keep(channel, setUp, seats, lang());
    if (channel === "push") for (const room of set) rememberDevice(room, /** @type {any} */ (setUp).subscription.endpoint);
    await this.call("GET", "");
    return set.length;
  }

  /** Remove a channel from every held table (this device's push, or the address). @param {"push"|"email"} channel */
  async removeEverywhere(channel) {
    const endpoint = this.deviceEndpoint;
    for (const { room, token } of this.held()) {
      const base = `/api/rooms/${encodeURIComponent(room)}/alerts`;
      try {
        if (channel === "email") await request("DELETE", `${base}/email`, { token });
        else if (endpoint) await request("DELETE", `${base}/push`, { token, body: { endpoint } });
      } catch {
        // a table left or gone meanwhile has nothing to remove
      }
      if (channel === "push") rememberDevice(room, null);
    }
    this.kept.keep(channel, null);
    await this.call("GET", "");
  }

  /** Switch this table's own alerts off (and back on) without touching the others. @param {boolean} on */
  async switchTable(on) {
    this.kept.setOff(this.roomId, !on);
    if (on) {
      await follow(this.kept, this.held(), this.roomId);
      await this.call("GET", "");
      return;
    }
    const endpoint = this.deviceEndpoint;
    if (endpoint) await this.call("DELETE", "/push", { endpoint });
    rememberDevice(this.roomId, null);
    await this.call("DELETE", "/email");
  }

  /** Give the kept set-up to tables this browser took a seat at since (call with each state). */
  follow() {
    if (!this.token() || this.following) return;
    this.following = true;
    follow(this.kept, this.held())
      .then((count) => {
        if (count && this.dialog.open) return this.call("GET", "").then(() => this.render());
      })
      .catch(() => {})
      .finally(() => {
        this.following = false;
      });
  }

  /** This device's push endpoint for this room, if it subscribed here. */
  get deviceEndpoint() {
    return pref(`push.${this.roomId}`);
  }

  /**
   * @param {string} method @param {string} path @param {unknown} [body]
   * @returns {Promise<AlertSettings>}
   */
  async call(method, path, body) {
    const settings = await request(method, this.base + path, { token: this.token(), body });
    this.settings = settings;
    return settings;
  }

  async open() {
    try {
      await this.call("GET", "");
    } catch (err) {
      toastError(err);
      return;
    }
    this.render();
    if (!this.dialog.open) this.dialog.showModal();
  }

  /** @param {() => Promise<unknown>} action @param {string} [done] toast key */
  async act(action, done) {
    if (this.busy) return;
    this.busy = true;
    try {
      await action();
      if (done) toast(t(done), { kind: "success", timeout: 2500 });
    } catch (err) {
      toastError(err);
    } finally {
      this.busy = false;
      this.render();
    }
  }

  async enablePush() {
    if (!pushSupported()) throw new Error(t("alerts.push_unsupported"));
    const permission = await Notification.requestPermission();
    if (permission !== "granted") throw new Error(t("turn.notify_denied"));
    const registration = await navigator.serviceWorker.register("/sw.js", { scope: "/" });
    const ready = await navigator.serviceWorker.ready;
    const manager = (ready ?? registration).pushManager;
    const { key } = await request("GET", `${this.base}/vapid-key`);
    let subscription = await manager.getSubscription();
    if (!subscription) {
      subscription = await manager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key) });
    }
    const json = subscription.toJSON();
    if (this.everywhere && json.endpoint && json.keys) {
      const keys = { p256dh: json.keys.p256dh, auth: json.keys.auth };
      await this.setUpEverywhere("push", { subscription: { endpoint: json.endpoint, keys } });
      return;
    }
    await this.call("POST", "/push", { endpoint: json.endpoint, keys: json.keys, lang: lang() });
    pref(`push.${this.roomId}`, json.endpoint ?? null);
  }

  async disablePush() {
    if (this.everywhere && this.kept.read().push) return this.removeEverywhere("push");
    const endpoint = this.deviceEndpoint;
    if (endpoint) await this.call("DELETE", "/push", { endpoint });
    pref(`push.${this.roomId}`, null);
  }

  /**
   * The switches for what one channel carries besides turn alerts.
   * @param {"push"|"email"|"webhook"} channel @param {Record<string, boolean>|null|undefined} chosen
   */
  kinds(channel, chosen) {
    if (!chosen) return null;
    return h(
      "fieldset",
      { class: "alerts-kinds", id: `alerts-kinds-${channel}` },
      h("legend", { class: "small" }, t("alerts.kinds_legend")),
      KIND_CHOICES.filter((kind) => kind in chosen).map((kind) => {
        const id = `alerts-kind-${channel}-${kind}`;
        const box = h("input", {
          type: "checkbox",
          id,
          checked: chosen[kind],
          on: {
            change: (/** @type {Event} */ e) => {
              const on = /** @type {HTMLInputElement} */ (e.target).checked;
              this.act(() => this.call("PUT", "/kinds", { channel, kinds: { [kind]: on } }), "alerts.kinds_saved");
            },
          },
        });
        return h("label", { class: "alerts-kind small", for: id }, box, " ", t(`alerts.kind_${kind}`));
      }),
    );
  }

  /** "All my tables" or "this table only": where the next set-up in this dialog goes. */
  scope() {
    const radio = (/** @type {"all"|"this"} */ value) =>
      h(
        "label",
        { class: "alerts-kind small", for: `alerts-scope-${value}` },
        h("input", {
          type: "radio",
          name: "alerts-scope",
          id: `alerts-scope-${value}`,
          value,
          checked: (value === "all") === this.everywhere,
          on: { change: () => pref("alerts.scope", value) },
        }),
        " ",
        t(`alerts.scope_${value}`),
      );
    return h("fieldset", { class: "alerts-kinds", id: "alerts-scope" }, h("legend", { class: "small" }, t("alerts.scope_legend")), radio("all"), radio("this"));
  }

  /** This table's own switch: off here stays off, whatever is set up for all tables. */
  tableSwitch() {
    const off = this.kept.isOff(this.roomId);
    const box = h("input", {
      type: "checkbox",
      id: "alerts-table-on",
      checked: !off,
      on: {
        change: (/** @type {Event} */ e) => {
          const on = /** @type {HTMLInputElement} */ (e.target).checked;
          this.act(() => this.switchTable(on), on ? "alerts.table_on_saved" : "alerts.table_off_saved");
        },
      },
    });
    return h(
      "div",
      { class: "alerts-table" },
      h("label", { class: "alerts-kind", for: "alerts-table-on" }, box, " ", t("alerts.table_on")),
      off ? h("p", { class: "muted small", id: "alerts-table-off" }, t("alerts.table_off_note")) : null,
    );
  }

  render() {
    const s = this.settings;
    if (!s) return;
    const onHere = !!this.deviceEndpoint && s.push > 0;
    const push = h(
      "section",
      { class: "alerts-channel", "aria-labelledby": "alerts-push-title" },
      h("h3", { id: "alerts-push-title" }, t("alerts.push_title")),
      h("p", { class: "muted small", id: "alerts-push-status" }, onHere ? t("alerts.push_on") : t("alerts.push_off")),
      pushSupported()
        ? h(
            "button",
            {
              type: "button",
              id: "alerts-push",
              class: onHere ? "btn" : "btn btn-primary",
              on: { click: () => this.act(() => (onHere ? this.disablePush() : this.enablePush()), onHere ? "alerts.push_removed" : "alerts.push_saved") },
            },
            onHere ? t("alerts.push_disable") : t("alerts.push_enable"),
          )
        : h("p", { class: "small", id: "alerts-push-missing" }, t(pushMissingReason(thisDevice()))),
      this.kinds("push", s.kinds?.push),
    );
    const address = h("input", {
      id: "alerts-email",
      type: "email",
      autocomplete: "email",
      maxlength: 254,
      required: true,
      placeholder: s.email ? t("alerts.email_placeholder_set") : "name@example.org",
    });
    const eachTurn = /** @type {HTMLInputElement} */ (h("input", { type: "checkbox", id: "alerts-each-turn", checked: s.each_turn }));
    const keptMail = this.kept.read().email;
    if (keptMail && this.everywhere) {
      eachTurn.addEventListener("change", () =>
        this.act(() => this.setUpEverywhere("email", { ...keptMail, each_turn: eachTurn.checked }), "alerts.kinds_saved"),
      );
    }
    const mail = s.mail_available
      ? h(
          "section",
          { class: "alerts-channel", "aria-labelledby": "alerts-email-title" },
          h("h3", { id: "alerts-email-title" }, t("alerts.email_title")),
          h(
            "p",
            { class: "muted small", id: "alerts-email-status", "aria-live": "polite" },
            s.email ? t(s.email_confirmed ? "alerts.email_on" : "alerts.email_pending") : t("alerts.email_help"),
          ),
          h(
            "form",
            {
              class: "row",
              on: {
                submit: (/** @type {SubmitEvent} */ e) => {
                  e.preventDefault();
                  const chosen = { address: address.value.trim(), each_turn: eachTurn.checked };
                  this.act(
                    () => (this.everywhere ? this.setUpEverywhere("email", chosen) : this.call("PUT", "/email", { ...chosen, lang: lang() })),
                    "alerts.email_saved",
                  );
                },
              },
            },
            h("label", { for: "alerts-email", class: "sr-only" }, t("alerts.email_label")),
            address,
            h("button", { type: "submit", class: "btn" }, t("alerts.save")),
          ),
          h("label", { class: "alerts-kind small", for: "alerts-each-turn" }, eachTurn, " ", t("alerts.each_turn")),
          s.email
            ? h(
                "button",
                {
                  type: "button",
                  id: "alerts-email-remove",
                  class: "btn btn-ghost btn-small",
                  on: {
                    click: () =>
                      this.act(() => (this.everywhere && this.kept.read().email ? this.removeEverywhere("email") : this.call("DELETE", "/email")), "alerts.email_removed"),
                  },
                },
                t("alerts.remove"),
              )
            : null,
          this.kinds("email", s.kinds?.email),
        )
      : null;
    let hook = null;
    if (s.host && s.webhook) {
      const url = h("input", { id: "alerts-webhook", type: "url", maxlength: 2000, required: true, placeholder: "https://…" });
      const shape = h(
        "select",
        { id: "alerts-webhook-shape" },
        ["discord", "slack", "json"].map((v) => h("option", { value: v, selected: s.webhook?.shape === v }, t(`alerts.shape_${v}`))),
      );
      hook = h(
        "section",
        { class: "alerts-channel", "aria-labelledby": "alerts-webhook-title" },
        h("h3", { id: "alerts-webhook-title" }, t("alerts.webhook_title")),
        h(
          "p",
          { class: "muted small", id: "alerts-webhook-status" },
          s.webhook.set ? t("alerts.webhook_on", { shape: t(`alerts.shape_${s.webhook.shape}`) }) : t("alerts.webhook_help"),
        ),
        h(
          "form",
          {
            class: "alerts-webhook-form",
            on: {
              submit: (/** @type {SubmitEvent} */ e) => {
                e.preventDefault();
                this.act(() => this.call("PUT", "/webhook", { url: url.value.trim(), shape: shape.value, lang: lang() }), "alerts.webhook_saved");
              },
            },
          },
          h("label", { for: "alerts-webhook", class: "small" }, t("alerts.webhook_label")),
          url,
          h("label", { for: "alerts-webhook-shape", class: "small" }, t("alerts.webhook_shape")),
          shape,
          h("button", { type: "submit", class: "btn" }, t("alerts.save")),
        ),
        s.webhook.set
          ? h(
              "button",
              {
                type: "button",
                id: "alerts-webhook-remove",
                class: "btn btn-ghost btn-small",
                on: { click: () => this.act(() => this.call("DELETE", "/webhook"), "alerts.webhook_removed") },
              },
              t("alerts.remove"),
            )
          : null,
        this.kinds("webhook", s.webhook.kinds),
      );
    }
    replace(
      this.dialog,
      h(
        "div",
        { class: "alerts-body" },
        h("h2", { id: "alerts-title" }, t("alerts.title")),
        h("p", { class: "muted small" }, t("alerts.lead")),
        this.scope(),
        this.tableSwitch(),
        push,
        mail,
        hook,
        h(
          "form",
          { method: "dialog", class: "alerts-close" },
          h("button", { type: "submit", class: "btn", id: "alerts-close" }, t("alerts.close")),
        ),
      ),
    );
  }
}
