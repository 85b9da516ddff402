// @ts-check
/**
 * Picking a bot level: the game's levels as choices, each with its name and what it is
 * like in the page's language, and the list that offers them with a line under it
 * saying what the chosen one is like. The start page's stand-in, the host's table
 * settings and the question before a seat goes to a bot all pick this way.
 */

import { h } from "../dom.js";
import { botAbout, botLabel, botLevel } from "./names.js";

/** @typedef {import("../i18n.js").Translate} Translate */
/** @typedef {{value: string, label: string, about?: string}} Pick one choice of a list */

/**
 * The game's bot levels as choices, strongest first as the server lists them. Pure.
 * @param {{name: string}[]} bots
 * @param {Translate} t
 * @returns {Pick[]}
 */
export function levelChoices(bots, t) {
  return bots.map((b) => ({ value: b.name, label: botLabel(b.name, t), about: botAbout(b.name, t) }));
}

/**
 * The level that plays for whoever is away: the room's choice (an old name as the level
 * it stands for), else the game's strongest, the first it lists. Pure.
 * @param {{stand_in?: unknown} | undefined} rules
 * @param {{name: string}[]} bots
 */
export function standInLevel(rules, bots) {
  const chosen = typeof rules?.stand_in === "string" ? botLevel(rules.stand_in) : null;
  return chosen && bots.some((b) => b.name === chosen) ? chosen : (bots[0]?.name ?? "");
}

/**
 * An <option> for each choice, titled with what it is like.
 * @param {Pick[]} choices
 */
export function choiceOptions(choices) {
  return choices.map((c) => h("option", { value: c.value, title: c.about ?? "" }, c.label));
}

/**
 * A list of choices and the line under it that says what the chosen one is like
 * (`{id}-about`, which the list names as its description, with `describedBy` after it).
 * @param {string} id
 * @param {Pick[]} choices
 * @param {string} value  the choice shown first
 * @param {string[]} [describedBy]  more descriptions of the list (a help line)
 * @returns {{select: HTMLSelectElement, about: HTMLElement}}
 */
export function choiceSelect(id, choices, value, describedBy = []) {
  const about = h("p", { id: `${id}-about`, class: "small choice-about" });
  const select = h("select", { id, "aria-describedby": [about.id, ...describedBy].join(" ") }, choiceOptions(choices));
  const explain = () => {
    about.textContent = choices.find((c) => c.value === select.value)?.about ?? "";
  };
  select.value = value;
  select.addEventListener("change", explain);
  explain();
  return { select, about };
}
