// @ts-check
/**
 * The seat list: who sits where, online or not, whose turn; take a free seat, or stand
 * up from yours at a waiting table; for the host, bots in free seats, freeing a waiting
 * table's seats and handing the host's role to another person.
 */

import { formatAway } from "../away.js";
import { h } from "../dom.js";
import { choiceOptions, levelChoices } from "./levels.js";
import { seatNames } from "./names.js";
import { standInActions, standInNote } from "./standin.js";

/** @typedef {import("../messages.js").StateMessage} StateMessage */
/** @typedef {import("../i18n.js").Translate} Translate */

/**
 * @typedef {object} SeatActions
 * @property {(seat: number) => void} onTake       show the form to take a free seat
 * @property {(seat: number, bot: string|null) => void} onSetBot
 * @property {(seat: number) => void} onMakeHost   the host hands the role to this seat's person
 * @property {() => void} onStandUp   give up your own seat at a waiting table
 * @property {(seat: number) => string|null} [clockText]  time left for a seat to move
 */

/**
 * @param {HTMLElement} list
 * @param {StateMessage} state
 * @param {{t: Translate, lang?: string, bots: {name: string, title: string}[]} & SeatActions & import("./standin.js").StandInActions} ctx
 */
export function renderSeats(list, state, ctx) {
  const { t, bots, onTake, onSetBot, onMakeHost, onStandUp, onFree, clockText } = ctx;
  const { room, you } = state;
  const canChange = room.status !== "playing";
  const isHost = you != null && you === room.host_seat;
  const names = seatNames(room.seats, t);
  list.replaceChildren(
    ...room.seats.map((seat, i) => {
      const name = names[i];
      const tags = [];
      if (i === you) tags.push(h("span", { class: "tag tag-you" }, t("seat.you")));
      if (i === room.host_seat) tags.push(h("span", { class: "tag tag-host" }, t("seat.host")));
      if (seat.kind === "bot") tags.push(h("span", { class: "tag tag-bot" }, t("seat.bot")));
      if (seat.kind === "human" && seat.stand_in) tags.push(h("span", { class: "tag tag-away" }, t("seat.away")));
      const note = standInNote(seat, t);
      // the person declared themself away: their clock waits until then
      const away = seat.kind === "human" && seat.away_until ? t("away.seat_until", { date: formatAway(seat.away_until, ctx.lang ?? "en") }) : null;
      const clock = seat.to_act ? clockText?.(i) ?? null : null;
      /** @type {HTMLElement|null} */
      let action = null;
      if (canChange && seat.kind === "empty" && you == null) {
        action = h("button", { type: "button", class: "btn btn-small btn-primary", on: { click: () => onTake(i) } }, t("seat.take", { n: i + 1 }));
      }
      if (canChange && isHost && seat.kind !== "human") {
        const select = h(
          "select",
          {
            class: "bot-select",
            "aria-label": t("seat.bot_select", { n: i + 1 }),
            on: { change: () => onSetBot(i, select.value || null) },
          },
          h("option", { value: "" }, t("seat.bot_none")),
          choiceOptions(levelChoices(bots, t)),
        );
        select.value = seat.bot ?? "";
        action = h("span", { class: "seat-actions" }, action, select);
      }
      /** @type {HTMLElement[]} */
      const waiting = [];
      if (canChange && i === you && !isHost) {
        waiting.push(h("button", { type: "button", class: "btn btn-small btn-ghost stand-up", on: { click: onStandUp } }, t("seat.stand_up")));
      }
      if (canChange && isHost && i !== you && (seat.kind === "human" || (seat.kind === "empty" && seat.stand_in))) {
        const label = t("seat.free_label", { name });
        waiting.push(h("button", { type: "button", class: "btn btn-small btn-ghost free-seat", title: label, "aria-label": label, on: { click: () => onFree(i) } }, t("seat.free_seat")));
      }
      const running = standInActions(seat, i, state, { ...ctx, name });
      if (isHost && i !== you && seat.kind === "human") running.push(makeHostButton(i, name, t, onMakeHost));
      if (running.length) action = h("span", { class: "seat-actions seat-actions-running" }, ...waiting, ...running);
      else if (waiting.length) action = h("span", { class: "seat-actions" }, action, ...waiting);
      const online = seat.kind === "empty" ? null : seat.online;
      return h(
        "li",
        {
          class: ["seat", `seat-${seat.kind}`, seat.to_act && "to-act", i === you && "you"],
          dataset: { seat: i },
        },
        h("span", {
          class: ["online-dot", online ? "on" : "off"],
          role: "img",
          "aria-label": online === null ? t("seat.free") : online ? t("seat.online") : t("seat.offline"),
          title: online === null ? t("seat.free") : online ? t("seat.online") : t("seat.offline"),
        }),
        h(
          "span",
          { class: "seat-main" },
          h("span", { class: ["seat-name", seat.kind === "empty" && "muted"] }, seat.kind === "empty" ? t("seat.free_numbered", { n: i + 1 }) : name),
          tags,
          note ? h("span", { class: "seat-note muted small" }, note) : null,
          away ? h("span", { class: "seat-away-until small" }, away) : null,
        ),
        seat.to_act
          ? h(
              "span",
              { class: "turn-marker" },
              h("span", { "aria-hidden": "true" }, "▶ "),
              t("seat.to_act"),
              clock ? h("span", { class: "seat-clock", title: t("clock.label") }, ` · ${clock}`) : null,
            )
          : null,
        action,
      );
    }),
  );
}

/**
 * The host's button that makes the person in seat `i` host instead.
 * @param {number} i
 * @param {string} name
 * @param {Translate} t
 * @param {(seat: number) => void} onMakeHost
 */
function makeHostButton(i, name, t, onMakeHost) {
  const label = t("seat.make_host_label", { name });
  return h("button", { type: "button", class: "btn btn-small btn-ghost make-host", title: label, "aria-label": label, on: { click: () => onMakeHost(i) } }, t("seat.make_host"));
}

/**
 * The form to take seat `seat`.
 * @param {HTMLElement} box
 * @param {number|null} seat   null: no form
 * @param {{t: Translate, name: string, onSubmit: (seat: number, name: string) => void, onCancel: () => void}} ctx
 */
export function renderClaimForm(box, seat, { t, name, onSubmit, onCancel }) {
  if (seat === null) {
    box.replaceChildren();
    return;
  }
  const input = h("input", { id: "claim-name", type: "text", maxlength: "40", required: true, autocomplete: "nickname", value: name });
  const form = h(
    "form",
    {
      class: "claim-form",
      on: {
        submit: (/** @type {Event} */ e) => {
          e.preventDefault();
          const value = input.value.trim();
          if (!value) {
            input.focus();
            return;
          }
          onSubmit(seat, value);
        },
      },
    },
    h("label", { for: "claim-name" }, t("seat.claim_label", { n: seat + 1 })),
    h("div", { class: "row" }, input, h("button", { type: "submit", class: "btn btn-primary" }, t("seat.claim_submit")), h("button", { type: "button", class: "btn btn-ghost", on: { click: onCancel } }, t("common.cancel"))),
  );
  box.replaceChildren(form);
  input.focus();
}
