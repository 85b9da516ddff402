// @ts-check
/**
 * Away: "I'm away until …" pauses the clocks of your seats (on the start page, at
 * every table this browser holds a seat in; on a room page, at that table), and
 * "I'm back" runs them again. The server keeps the limits (14 days, then a
 * cooldown); the date picker offers only days it would take.
 */

import * as api from "./api.js";
import { h } from "./dom.js";

/** @typedef {import("./i18n.js").Translate} Translate */

export const MAX_DAYS = 14;
const DAY_MS = 24 * 3600 * 1000;
// the server counts from its own clock: stay a little inside its limit
const MARGIN_MS = 10 * 60 * 1000;

/** A local date as `YYYY-MM-DD` (what a date input holds). Pure. @param {Date} d */
export function dateValue(d) {
  const pad = (/** @type {number} */ n) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/**
 * The moment an away time chosen as a day ends: the end of that local day, but no
 * later than 14 days from `now` (or from `since`, the start of an away time that runs
 * already). Pure.
 * @param {string} day  `YYYY-MM-DD`
 * @param {number} now  ms since the epoch
 * @param {number|null} [since]
 * @returns {Date|null}  null for a day that is no date
 */
export function awayUntil(day, now, since = null) {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return null;
  const end = new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]), 23, 59, 0);
  if (Number.isNaN(end.getTime())) return null;
  const latest = (since ?? now) + MAX_DAYS * DAY_MS - MARGIN_MS;
  return new Date(Math.min(end.getTime(), latest));
}

/**
 * The days the picker offers: from today to 14 days on. Pure.
 * @param {number} now
 * @param {number|null} [since]
 */
export function dayRange(now, since = null) {
  return { min: dateValue(new Date(now)), max: dateValue(new Date((since ?? now) + MAX_DAYS * DAY_MS - MARGIN_MS)) };
}

/**
 * A date and time for people, in the page's language. Pure (but for the locale).
 * @param {string} iso
 * @param {string} lang
 */
export function formatAway(iso, lang) {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return d.toLocaleString(lang, { weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" });
}

/**
 * The words of a refusal the server gave, in the page's language.
 * @param {any} err
 * @param {Translate} t
 * @param {string} lang
 */
function refusal(err, t, lang) {
  if (err?.code === "away_cooldown" && err.body?.again) return t("away.cooldown", { date: formatAway(err.body.again, lang) });
  if (err?.code === "away_too_long") return t("away.too_long", { days: MAX_DAYS });
  return err?.message ?? String(err);
}

/**
 * The form "I'm away until [day] [Pause my clocks]".
 * @param {{t: Translate, id: string, since?: number|null, onAway: (until: Date) => Promise<void>}} ctx
 */
export function awayForm({ t, id, since = null, onAway }) {
  const now = Date.now();
  const range = dayRange(now, since);
  const input = h("input", { id, type: "date", class: "away-date", required: true, min: range.min, max: range.max, value: dateValue(new Date(now + DAY_MS)) });
  const button = h("button", { type: "submit", class: "btn btn-small" }, t("away.submit"));
  return h(
    "form",
    {
      class: "away-form row",
      on: {
        submit: async (/** @type {Event} */ e) => {
          e.preventDefault();
          const until = awayUntil(/** @type {HTMLInputElement} */ (input).value, Date.now(), since);
          if (!until) {
            input.focus();
            return;
          }
          button.setAttribute("disabled", "");
          try {
            await onAway(until);
          } finally {
            button.removeAttribute("disabled");
          }
        },
      },
    },
    h("label", { for: id }, t("away.label")),
    input,
    button,
  );
}

/**
 * The start page's box under "Your tables": away everywhere, or back everywhere.
 * @param {HTMLElement} box
 * @param {{token: string, state: import("./messages.js").StateMessage}[]} held  the tables that answered
 * @param {{t: Translate, lang: string, onDone: () => void, onError: (text: string) => void}} ctx
 */
export function renderAwayBox(box, held, { t, lang, onDone, onError }) {
  const seated = held.filter((x) => x.state.you != null);
  box.hidden = seated.length === 0;
  if (!seated.length) {
    box.replaceChildren();
    return;
  }
  const away = seated.map((x) => x.state.room.seats[/** @type {number} */ (x.state.you)]?.away_until).filter((v) => typeof v === "string");
  const key = JSON.stringify([seated.map((x) => x.token), away]);
  if (box.dataset.key === key) return; // keep what is typed in the form
  box.dataset.key = key;
  const tokens = seated.map((x) => x.token);
  if (away.length) {
    const until = /** @type {string} */ (away.sort().at(-1));
    const back = backButton(t, async () => {
      await api.backEverywhere(tokens);
      onDone();
    }, (err) => onError(refusal(err, t, lang)));
    box.replaceChildren(h("p", { class: "away-status" }, t("away.everywhere_until", { date: formatAway(until, lang) })), back);
    return;
  }
  box.replaceChildren(
    h("p", { class: "muted small" }, t("away.help", { days: MAX_DAYS })),
    awayForm({
      t,
      id: "away-everywhere",
      onAway: async (until) => {
        try {
          await api.awayEverywhere(tokens, until.toISOString());
          onDone();
        } catch (err) {
          onError(refusal(err, t, lang));
        }
      },
    }),
  );
}

/**
 * "I'm back": runs ``back``, and hands what refused it to ``failed``.
 * @param {Translate} t
 * @param {() => Promise<void>} back
 * @param {(err: unknown) => void} failed
 */
function backButton(t, back, failed) {
  const click = async () => {
    try {
      await back();
    } catch (err) {
      failed(err);
    }
  };
  return h("button", { type: "button", class: "btn btn-small away-back", on: { click } }, t("away.back"));
}

/**
 * The room page's own control: away at this table, or back.
 * @param {HTMLElement} box
 * @param {import("./messages.js").StateMessage} state
 * @param {{t: Translate, lang: string, roomId: string, token: string|null, onState: (s: any) => void, onError: (text: string) => void}} ctx
 */
export function renderRoomAway(box, state, { t, lang, roomId, token, onState, onError }) {
  const you = state.you;
  const mine = you != null ? state.room.seats[you] : null;
  const show = !!token && mine != null && state.room.status !== "finished";
  box.hidden = !show;
  const key = show ? `${roomId}|${you}|${mine?.away_until ?? ""}|${state.room.status}|${lang}` : "";
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  if (!show || !token) {
    box.replaceChildren();
    return;
  }
  if (mine?.away_until) {
    const back = backButton(t, async () => onState(await api.backHere(roomId, token)), (err) => onError(refusal(err, t, lang)));
    box.replaceChildren(h("p", { class: "away-status small" }, t("away.here_until", { date: formatAway(mine.away_until, lang) })), back);
    return;
  }
  box.replaceChildren(
    h(
      "details",
      { class: "away-details" },
      h("summary", {}, t("away.open")),
      h("p", { class: "muted small" }, t("away.help_here", { days: MAX_DAYS })),
      awayForm({
        t,
        id: "away-here",
        onAway: async (until) => {
          try {
            onState(await api.awayHere(roomId, token, until.toISOString()));
          } catch (err) {
            onError(refusal(err, t, lang));
          }
        },
      }),
    ),
  );
}
