// @ts-check
/**
 * "Use my tables on another device": one link that carries every seat this browser
 * holds. The seats ride in the URL fragment (`/#tables=…`), which a browser never
 * sends to a server, so no request and no log line ever holds a token; opening the
 * link on the other device merges the seats into its own and drops the fragment.
 */

import { h } from "./dom.js";

/** @typedef {import("./tokens.js").SeatEntry & {room: string}} HeldSeat */
/** @typedef {{room: string, token: string, seat: number, name?: string, game?: string}} CarriedSeat */

const PART = "tables";

/** @param {string} text @returns {string} */
function toBase64Url(text) {
  const bytes = new TextEncoder().encode(text);
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/** @param {string} text @returns {string} */
function fromBase64Url(text) {
  const binary = atob(text.replaceAll("-", "+").replaceAll("_", "/"));
  return new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
}

/**
 * The link that carries the seats. Pure.
 * @param {string} origin
 * @param {HeldSeat[]} seats
 * @returns {string}
 */
export function deviceLink(origin, seats) {
  const carried = seats.map((s) => [s.room, s.token, s.seat, s.name ?? "", s.game ?? ""]);
  return `${origin}/#${PART}=${toBase64Url(JSON.stringify(carried))}`;
}

/**
 * The seats a fragment carries, or null when it carries none (or only nonsense). Pure.
 * @param {string} hash  `location.hash`
 * @returns {CarriedSeat[]|null}
 */
export function seatsFromHash(hash) {
  const value = new URLSearchParams(hash.replace(/^#/, "")).get(PART);
  if (!value) return null;
  let data;
  try {
    data = JSON.parse(fromBase64Url(value));
  } catch {
    return null;
  }
  if (!Array.isArray(data)) return null;
  /** @type {CarriedSeat[]} */
  const seats = [];
  for (const item of data.slice(0, 200)) {
    if (!Array.isArray(item)) continue;
    const [room, token, seat, name, game] = item;
    if (typeof room !== "string" || !room || room.length > 100) continue;
    if (typeof token !== "string" || !token || token.length > 200) continue;
    if (!Number.isInteger(seat) || seat < 0) continue;
    seats.push({ room, token, seat, ...(typeof name === "string" && name ? { name } : {}), ...(typeof game === "string" && game ? { game } : {}) });
  }
  return seats.length ? seats : null;
}

/**
 * The fragment without the seats (so a reload or a bookmark does not hold them). Pure.
 * @param {string} hash
 * @returns {string}
 */
export function hashWithoutSeats(hash) {
  const params = new URLSearchParams(hash.replace(/^#/, ""));
  params.delete(PART);
  const rest = params.toString();
  return rest ? `#${rest}` : "";
}

/**
 * Merge carried seats into this browser's: a table this browser has no seat at is
 * added; one where it holds the same token is left as it is; one where it holds
 * another seat keeps this browser's (never changed behind the person's back).
 * @param {{get(room: string): {token: string}|null, set(room: string, entry: object): void}} store
 * @param {CarriedSeat[]} seats
 * @returns {{added: number, kept: number}}
 */
export function mergeSeats(store, seats) {
  let added = 0;
  let kept = 0;
  for (const { room, ...entry } of seats) {
    const held = store.get(room);
    if (held) {
      if (held.token !== entry.token) kept += 1;
      continue;
    }
    store.set(room, entry);
    added += 1;
  }
  return { added, kept };
}

/**
 * The "Use my tables on another device" box: shown while this browser holds a seat;
 * the link is made only when the person opens the box.
 * @param {HTMLDetailsElement} details
 * @param {HTMLElement} box
 * @param {{list(): HeldSeat[]}} store
 * @param {(key: string, params?: Record<string, unknown>) => string} t
 * @param {(text: string, input: HTMLInputElement) => Promise<boolean>} copy
 * @param {(text: string, kind: string) => void} say
 */
export function renderCarry(details, box, store, t, copy, say) {
  const seats = store.list();
  details.hidden = seats.length === 0;
  const link = details.open && seats.length ? deviceLink(location.origin, seats) : "";
  const shown = /** @type {HTMLInputElement|null} */ (box.querySelector("#carry-link"));
  if (shown && shown.value === link) return; // unchanged: leave a selection alone
  box.replaceChildren();
  if (!link) return;
  const input = /** @type {HTMLInputElement} */ (
    h("input", { id: "carry-link", type: "text", readonly: true, value: link, class: "link-input", spellcheck: "false" })
  );
  input.addEventListener("focus", () => input.select());
  const button = h(
    "button",
    {
      type: "button",
      class: "btn",
      "aria-label": t("share.copy_label", { what: t("carry.label") }),
      on: {
        click: async () => {
          const ok = await copy(input.value, input);
          say(ok ? t("share.copied") : t("share.copy_failed"), ok ? "success" : "error");
        },
      },
    },
    t("share.copy"),
  );
  box.append(h("div", { class: "copy-row" }, h("label", { for: "carry-link", class: "small" }, t("carry.label")), h("div", { class: "row" }, input, button)));
}
