// @ts-check
/**
 * Your hand and what to do with it: your two dice (and both together, when
 * they may start a row), the places the chosen dice can go, what each would
 * take and from whom, and the button that plays it. Every choice offered comes
 * from the server's legal moves.
 */

import { h } from "../../dom.js";
import { dieFace, figureCard } from "./cards.js";
import { diceKey } from "./plays.js";
import { previewLines, takeShort, targetLabel, targetWhere } from "./words.js";

/** @typedef {import("../../i18n.js").Translate} Translate */
/** @typedef {import("./plays.js").Choice} Choice */
/** @typedef {import("./plays.js").Target} Target */

/**
 * @typedef {object} HandState
 * @property {number[]} hand             your dice, ascending
 * @property {Choice[]} choices          the legal dice choices (empty when it is not your turn)
 * @property {boolean} myTurn
 * @property {boolean} deadEnd           only discards are legal
 * @property {boolean} busy              a move is on its way
 * @property {{die: number|null, key: string|null}} pick   the die button pressed, the dice key chosen
 * @property {Target[]} targets          the chosen dice's targets
 * @property {Target|null} selected
 * @property {number[]} victims          figures two players hold among the targets
 * @property {string[]} names
 */

/**
 * @typedef {object} HandActions
 * @property {(key: string, die: number|null) => void} onDice   die: which of your two dice (null: both)
 * @property {(target: Target) => void} onTarget
 * @property {() => void} onPlay
 * @property {() => void} onClear
 */

/**
 * @param {HandState} st
 * @param {HandActions} act
 * @param {Translate} t
 */
export function renderHand(st, act, t) {
  const usable = new Map(st.choices.map((choice) => [choice.key, choice]));
  const dice = st.hand.map((face, index) => {
    const key = diceKey([face]);
    const ok = st.myTurn && usable.has(key);
    const pressed = st.pick.die === index;
    return h(
      "button",
      {
        type: "button",
        class: ["md-die", pressed && "selected", st.deadEnd && "md-discard"],
        dataset: { key: `die:${index}`, die: face },
        "aria-pressed": pressed ? "true" : "false",
        "aria-label": t(!st.myTurn ? "maedn.die.label_wait" : ok ? (st.deadEnd ? "maedn.die.label_discard" : "maedn.die.label") : "maedn.die.label_unusable", { die: face }),
        disabled: !ok || st.busy,
        on: { click: () => act.onDice(key, index) },
      },
      dieFace(face),
      h("span", { class: "md-die-num", "aria-hidden": "true" }, String(face)),
    );
  });
  const pair = st.choices.find((choice) => choice.dice.length === 2);
  const both = pair
    ? h(
        "button",
        {
          type: "button",
          class: ["md-both", st.pick.key === pair.key && st.pick.die == null && "selected"],
          dataset: { key: "both", dice: pair.key },
          "aria-pressed": st.pick.key === pair.key && st.pick.die == null ? "true" : "false",
          "aria-label": t("maedn.both.label", { a: pair.dice[0], b: pair.dice[1], sum: pair.sum }),
          disabled: st.busy,
          on: { click: () => act.onDice(pair.key, null) },
        },
        h("span", { class: "md-both-top", "aria-hidden": "true" }, t("maedn.both")),
        " ",
        h("span", { class: "md-both-sum", "aria-hidden": "true" }, `${pair.dice[0]} + ${pair.dice[1]} = ${pair.sum}`),
      )
    : null;

  const hint = !st.myTurn
    ? t("maedn.hint.wait")
    : !st.pick.key
      ? t(st.deadEnd ? "maedn.hint.dead_end" : "maedn.hint.pick_die")
      : st.victims.length && !st.selected
        ? t("maedn.hint.choose_victim", { figure: st.victims.join(", ") })
        : !st.selected
          ? t("maedn.hint.pick_target", { count: st.targets.length })
          : t(st.deadEnd ? "maedn.hint.confirm_discard" : "maedn.hint.confirm");

  const targets = st.pick.key
    ? h(
        "div",
        { class: "md-targets", role: "group", "aria-label": t("maedn.targets.label") },
        st.targets.map((target) => {
          const selected = st.selected?.key === target.key;
          return h(
            "button",
            {
              type: "button",
              class: ["md-target", selected && "selected", target.take?.source === "stolen" && "md-steal", target.finishes && "md-finishes"],
              dataset: { key: `target:${target.key}`, target: target.key, figure: target.figure ?? "" },
              "aria-pressed": selected ? "true" : "false",
              disabled: st.busy,
              on: { click: () => act.onTarget(target) },
            },
            // named by what it shows, then the whole move in words: a voice-control
            // user says what they see (WCAG 2.5.3)
            target.figure != null ? figureCard(target.figure, target.stars, ["md-mini"]) : h("span", { class: "md-target-die", "aria-hidden": "true" }, dieFace(target.dice[0])),
            " ",
            h(
              "span",
              { class: "md-target-text" },
              h("span", { class: "md-target-where" }, targetWhere(target, t)),
              " ",
              h("span", { class: "md-target-take" }, target.finishes ? `${takeShort(target, st.names, t)} · ${t("maedn.take.finish")}` : takeShort(target, st.names, t)),
            ),
            h("span", { class: "sr-only" }, `: ${targetLabel(target, st.names, t)}`),
          );
        }),
      )
    : null;

  const preview = st.selected ? previewLines(st.selected, st.names, t) : [];
  return [
    h("div", { class: "md-dice", role: "group", "aria-label": t("maedn.dice.label") }, dice, both),
    h("p", { class: "md-hint" }, hint),
    targets,
    st.myTurn
      ? h(
          "div",
          { class: ["md-preview", st.selected?.take?.source === "stolen" && "md-steal"] },
          preview.map((line) => h("p", {}, line)),
        )
      : null,
    st.myTurn
      ? h(
          "div",
          { class: "md-actions" },
          h("button", { type: "button", class: "btn md-clear", dataset: { key: "clear" }, "aria-keyshortcuts": "Escape", disabled: !st.pick.key || st.busy, on: { click: act.onClear } }, t("maedn.clear")),
          h(
            "button",
            { type: "button", class: "btn btn-primary md-play", dataset: { key: "play" }, disabled: !st.selected || st.busy, on: { click: act.onPlay } },
            st.deadEnd ? t("maedn.discard") : t("maedn.play"),
          ),
        )
      : null,
  ];
}
