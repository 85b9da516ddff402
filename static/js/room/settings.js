// @ts-check
/**
 * The host's settings of a waiting table: how many players, the game's options, the
 * time per move and what happens when it is up, and the bot level that plays for
 * whoever is away, changed until the game starts. The server checks every value;
 * this only offers the choices the game lists.
 */

import { h } from "../dom.js";
import { TURN_CHOICES, turnTimeLabel } from "../timeleft.js";
import { choiceSelect, levelChoices, standInLevel } from "./levels.js";

/** @typedef {import("../messages.js").StateMessage} StateMessage */
/** @typedef {import("../i18n.js").Translate} Translate */
/** @typedef {import("../api.js").GameInfo} GameInfo */

/**
 * @typedef {object} NewSettings
 * @property {number} players
 * @property {Record<string, unknown>} options
 * @property {number|null} turn_seconds
 * @property {"bot_move"|"bot_seat"} on_timeout  when the time is up: a bot plays that move, or the seat
 * @property {string} [stand_in]  the bot level that plays for whoever leaves, runs out of time or is handed over
 *   (left out: a game without bots)
 * @property {boolean} [confirm_moves] moves that can't be taken back ask for a second click
 *   (left out: as it was; a table that never chose confirms them when it has a time per move)
 */

/**
 * @param {StateMessage["room"]} room
 * @param {GameInfo} info
 * @param {Translate} t
 * @param {(settings: NewSettings) => void} onSave
 * @returns {HTMLElement}
 */
export function settingsForm(room, info, t, onSave) {
  /** @param {string} key @param {string} fallback */
  const tr = (key, fallback) => {
    const text = t(key);
    return text === key ? fallback : text;
  };
  const players = /** @type {HTMLSelectElement} */ (
    h(
      "select",
      { id: "settings-players" },
      info.player_counts.map((n) => h("option", { value: String(n) }, t("lobby.players_exact", { count: n }))),
    )
  );
  players.value = String(room.players);
  /** @type {Record<string, HTMLInputElement|HTMLSelectElement>} */
  const inputs = {};
  const options = info.options.map((opt) => {
    const id = `settings-opt-${opt.name}`;
    const label = tr(`game.${info.name}.option.${opt.name}`, opt.name);
    const value = room.options?.[opt.name] ?? opt.default;
    if (opt.kind === "bool") {
      const input = /** @type {HTMLInputElement} */ (h("input", { type: "checkbox", id, checked: Boolean(value) }));
      inputs[opt.name] = input;
      return h("label", { class: "check settings-field" }, input, h("span", {}, label));
    }
    const select = /** @type {HTMLSelectElement} */ (
      h(
        "select",
        { id },
        (opt.choices ?? []).map((c) => h("option", { value: c }, tr(`game.${info.name}.option.${opt.name}.${c}`, c))),
      )
    );
    select.value = String(value);
    inputs[opt.name] = select;
    return h("span", { class: "settings-field" }, h("label", { for: id }, label), select);
  });
  const time = /** @type {HTMLSelectElement} */ (
    h(
      "select",
      { id: "settings-time" },
      TURN_CHOICES.map((seconds) => h("option", { value: seconds == null ? "" : String(seconds) }, turnTimeLabel(seconds, t))),
    )
  );
  time.value = room.rules?.turn_seconds ? String(room.rules.turn_seconds) : "";
  const onTimeout = /** @type {HTMLSelectElement} */ (
    h(
      "select",
      { id: "settings-on-timeout" },
      ["bot_move", "bot_seat"].map((policy) => h("option", { value: policy }, t(`lobby.on_timeout.${policy}`))),
    )
  );
  onTimeout.value = room.rules?.on_timeout === "bot_seat" ? "bot_seat" : "bot_move";
  // what happens when the time is up matters only with a time per move
  const onTimeoutField = h("span", { class: "settings-field", hidden: !time.value }, h("label", { for: "settings-on-timeout" }, t("lobby.on_timeout")), onTimeout);
  const standIn = choiceSelect("settings-stand-in", levelChoices(info.bots, t), standInLevel(room.rules, info.bots), ["settings-stand-in-help"]);
  const chosen = room.rules?.confirm_moves;
  const confirm = /** @type {HTMLInputElement} */ (
    h("input", { type: "checkbox", id: "settings-confirm", checked: chosen == null ? Boolean(room.rules?.turn_seconds) : Boolean(chosen) })
  );
  let confirmTouched = false;
  confirm.addEventListener("change", () => {
    confirmTouched = true;
  });
  // not chosen yet: it follows the time per move, as the server's default does
  time.addEventListener("change", () => {
    if (chosen == null && !confirmTouched) confirm.checked = Boolean(time.value);
    onTimeoutField.hidden = !time.value;
  });
  const form = h(
    "form",
    {
      class: "table-settings",
      "aria-labelledby": "settings-title",
      on: {
        submit: (/** @type {Event} */ e) => {
          e.preventDefault();
          onSave({
            players: Number(players.value),
            options: Object.fromEntries(
              Object.entries(inputs).map(([name, input]) => [name, input instanceof HTMLInputElement && input.type === "checkbox" ? input.checked : input.value]),
            ),
            turn_seconds: time.value ? Number(time.value) : null,
            on_timeout: onTimeout.value === "bot_seat" ? "bot_seat" : "bot_move",
            ...(standIn.select.value ? { stand_in: standIn.select.value } : {}),
            ...(confirmTouched ? { confirm_moves: confirm.checked } : {}),
          });
        },
      },
    },
    h("h3", { id: "settings-title" }, t("settings.title")),
    h("span", { class: "settings-field" }, h("label", { for: "settings-players" }, t("lobby.players")), players),
    ...options,
    h("span", { class: "settings-field" }, h("label", { for: "settings-time" }, t("lobby.turn_time")), time),
    onTimeoutField,
    h(
      "div",
      { class: "settings-field settings-stand-in", hidden: !info.bots.length },
      h("label", { for: "settings-stand-in" }, t("lobby.stand_in")),
      standIn.select,
      standIn.about,
      h("p", { id: "settings-stand-in-help", class: "muted small" }, t("lobby.stand_in_help")),
    ),
    h("label", { class: "check settings-field" }, confirm, h("span", {}, t("settings.confirm_moves"))),
    h("button", { type: "submit", class: "btn btn-small", id: "settings-save" }, t("settings.save")),
  );
  return form;
}
