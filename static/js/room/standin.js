// @ts-check
/**
 * Who plays a seat of a running game, and what may change it: leave and take back
 * your own seat, the host hands a seat to a bot or frees it, anyone takes a freed seat.
 */

import { h } from "../dom.js";
import { botLabel } from "./names.js";

/** @typedef {import("../messages.js").Seat} Seat */
/** @typedef {import("../messages.js").StateMessage} StateMessage */
/** @typedef {import("../i18n.js").Translate} Translate */

/**
 * @typedef {object} StandInActions
 * @property {(seat: number) => void} onTake
 * @property {() => void} onLeave
 * @property {(seat: number) => void} onTakeBack
 * @property {(seat: number) => void} onHandOver
 * @property {(seat: number) => void} onFree
 * @property {() => void} onResign
 * @property {() => void} onAbort   propose, or agree, to abort the running game
 */

/**
 * A line under the seat's name when a bot stands in, else null. Pure.
 * @param {Seat} seat
 * @param {Translate} t
 */
export function standInNote(seat, t) {
  if (!seat.stand_in) return null;
  const bot = botLabel(seat.stand_in, t);
  return seat.kind === "empty" ? t("seat.open", { bot }) : t("seat.stand_in", { bot });
}

/**
 * The buttons a viewer gets for one seat of a running game ([] outside a game). Pure
 * but for the DOM it builds.
 * @param {Seat} seat
 * @param {number} i
 * @param {StateMessage} state
 * @param {{t: Translate, name: string} & StandInActions} ctx
 * @returns {HTMLElement[]}
 */
export function standInActions(seat, i, state, { t, name, onTake, onLeave, onTakeBack, onHandOver, onFree, onResign, onAbort }) {
  const { room, you } = state;
  const small = "btn btn-small";
  if (room.status !== "playing") {
    // between games a person who left takes their seat back, or chooses a bot for the next game
    if (i !== you || room.status !== "finished") return [];
    return seat.stand_in
      ? [h("button", { type: "button", class: `${small} btn-primary take-back`, on: { click: () => onTakeBack(i) } }, t("seat.take_back"))]
      : [h("button", { type: "button", class: `${small} btn-ghost leave`, on: { click: onLeave } }, t("seat.leave_next"))];
  }
  if (you == null) {
    if (seat.kind === "empty" && seat.stand_in) {
      return [h("button", { type: "button", class: `${small} btn-primary`, on: { click: () => onTake(i) } }, t("seat.take", { n: i + 1 }))];
    }
    return [];
  }
  if (i === you) {
    const votes = room.abort_votes ?? [];
    const agreed = votes.includes(i);
    return [
      seat.stand_in
        ? h("button", { type: "button", class: `${small} btn-primary take-back`, on: { click: () => onTakeBack(i) } }, t("seat.take_back"))
        : h("button", { type: "button", class: `${small} btn-ghost leave`, on: { click: onLeave } }, t("seat.leave")),
      h("button", { type: "button", class: `${small} btn-ghost resign`, on: { click: onResign } }, t("seat.resign")),
      h(
        "button",
        { type: "button", class: `${small} btn-ghost abort`, disabled: agreed, on: { click: onAbort } },
        t(agreed ? "seat.abort_waiting" : votes.length ? "seat.abort_agree" : "seat.abort_propose", { n: votes.length }),
      ),
    ];
  }
  if (you !== room.host_seat) return [];
  /** @type {HTMLElement[]} */
  const buttons = [];
  if (seat.kind === "human" && !seat.stand_in) {
    buttons.push(
      h(
        "button",
        { type: "button", class: `${small} btn-ghost hand-over`, title: t("seat.hand_over_label", { name }), "aria-label": t("seat.hand_over_label", { name }), on: { click: () => onHandOver(i) } },
        t("seat.hand_over"),
      ),
    );
  }
  if (seat.kind !== "empty") {
    buttons.push(
      h(
        "button",
        { type: "button", class: `${small} btn-ghost free-seat`, title: t("seat.free_label", { name }), "aria-label": t("seat.free_label", { name }), on: { click: () => onFree(i) } },
        t("seat.free_seat"),
      ),
    );
  }
  return buttons;
}
