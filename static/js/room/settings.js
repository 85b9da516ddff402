// @ts-check
/**
 * The host's settings of a waiting table: how many players, the game's options and
 * the time per move, changed until the game starts. The server checks every value;
 * this only offers the choices the game lists.
 */

import { h } from "../dom.js";
import { TURN_CHOICES, turnTimeLabel } from "../timeleft.js";

/** @typedef {import("../messages.js").StateMessage} StateMessage */
/** @typedef {import("../i18n.js").Translate} Translate */
/** @typedef {import("../api.js").GameInfo} GameInfo */

/**
 * @typedef {object} NewSettings
 * @property {number} players
 * @property {Record<string, unknown>} options
 * @property {number|null} turn_seconds
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
            ...(confirmTouched ? { confirm_moves: confirm.checked } : {}),
          });
        },
      },
    },
    h("h3", { id: "settings-title" }, t("settings.title")),
    h("span", { class: "settings-field" }, h("label", { for: "settings-players" }, t("lobby.players")), players),
    ...options,
    h("span", { class: "settings-field" }, h("label", { for: "settings-time" }, t("lobby.turn_time")), time),
    h("label", { class: "check settings-field" }, confirm, h("span", {}, t("settings.confirm_moves"))),
    h("button", { type: "submit", class: "btn btn-small", id: "settings-save" }, t("settings.save")),
  );
  return form;
}
