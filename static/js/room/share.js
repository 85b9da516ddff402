// @ts-check
/** The share link (watch or take a seat) and the personal resume link (carries your token). */

import { h, replace } from "../dom.js";
import { resumeLink, shareLink } from "../tokens.js";
import { toast } from "../toast.js";
import { forgetHandout, handoutOf } from "./handout.js";

/** @typedef {import("../i18n.js").Translate} Translate */

/**
 * Copy text, with a fallback for pages served over plain http (no Clipboard API there).
 * @param {string} text
 * @param {HTMLInputElement} input
 */
export async function copyText(text, input) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    input.select();
    try {
      return document.execCommand("copy");
    } catch {
      return false;
    }
  }
}

/**
 * @param {string} id
 * @param {string} label
 * @param {string} value
 * @param {Translate} t
 * @param {string} copied  toast text
 */
function copyRow(id, label, value, t, copied) {
  const input = h("input", { id, type: "text", readonly: true, value, class: "link-input", spellcheck: "false" });
  input.addEventListener("focus", () => input.select());
  return h(
    "div",
    { class: "copy-row" },
    h("label", { for: id, class: "small" }, label),
    h(
      "div",
      { class: "row" },
      input,
      h(
        "button",
        {
          type: "button",
          class: "btn",
          "aria-label": t("share.copy_label", { what: label }),
          on: {
            click: async () => {
              const ok = await copyText(value, input);
              toast(ok ? copied : t("share.copy_failed"), { kind: ok ? "success" : "error", timeout: 2500 });
            },
          },
        },
        t("share.copy"),
      ),
    ),
  );
}

/**
 * @param {HTMLElement} box
 * @param {{room: string, token: string|null, seated: boolean, t: Translate, origin?: string|null}} ctx
 *   `origin`: the site's public address (PUBLIC_URL) when the server has one
 */
export function renderShare(box, { room, token, seated, t, origin: publicUrl = null }) {
  const origin = publicUrl || location.origin;
  const handout = seated ? handoutOf(room) : [];
  const key = `${room}|${token}|${seated}|${origin}|${t("share.copy")}|${handout.length}`;
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  replace(
    box,
    copyRow("share-link", t("share.link_label"), shareLink(origin, room), t, t("share.copied")),
    h("p", { class: "muted small" }, t("share.hint")),
    seated && token
      ? h(
          "details",
          { class: "resume" },
          h("summary", {}, t("share.resume_title")),
          h("p", { class: "small" }, t("share.resume_text")),
          copyRow("resume-link", t("share.resume_label"), resumeLink(origin, room, token), t, t("share.resume_copied")),
        )
      : null,
    handout.length ? handoutBox(box, room, handout, origin, t) : null,
  );
}

/**
 * The links of an imported game's other seats, for the importer to hand out.
 * @param {HTMLElement} box
 * @param {string} room
 * @param {import("./handout.js").HandoutSeat[]} seats
 * @param {string} origin
 * @param {Translate} t
 */
function handoutBox(box, room, seats, origin, t) {
  return h(
    "section",
    { class: "handout", "aria-labelledby": "handout-title" },
    h("h3", { id: "handout-title" }, t("share.handout_title")),
    h("p", { class: "small" }, t("share.handout_text")),
    seats.map((s) =>
      copyRow(`handout-${s.seat}`, t("share.handout_label", { name: s.name, n: s.seat + 1 }), resumeLink(origin, room, s.token), t, t("share.handout_copied", { name: s.name })),
    ),
    h(
      "button",
      {
        type: "button",
        class: "btn btn-small btn-ghost",
        on: {
          click: () => {
            forgetHandout(room);
            delete box.dataset.key;
            box.querySelector(".handout")?.remove();
          },
        },
      },
      t("share.handout_done"),
    ),
  );
}
