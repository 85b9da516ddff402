// @ts-check
/**
 * The room's history: every game played at the table with its result, a
 * running tally of wins, a link to each game's replay, and a form to import a
 * game record, or a file in a format some engine reads, as a new table.
 */

import { request, ApiError } from "../api.js";
import { h } from "../dom.js";
import { acceptList, formatLabel, importFormats, importTarget } from "../formats.js";
import { addStrings } from "../i18n.js";
import strings from "../replay/strings.js";
import { joinNames, winners } from "./log.js";
import { botLabel } from "./names.js";
import { keepHandout } from "./handout.js";
import { tallyLine } from "./tally.js";

addStrings(strings);

/**
 * @typedef {object} HistoryGame
 * @property {number} game_no
 * @property {string} status
 * @property {number} steps
 * @property {string[]} names
 * @property {(string|null)[]} [bots] the bot in each seat (null for a person), to name it in the page's language
 * @property {{scores: number[], ranks: number[]}|null} result
 * @property {boolean} [aborted]  ended by agreement, with no result
 * @property {boolean} [imported] made from a game record: its moves (and seed) came from a file
 */
/** @typedef {{games: HistoryGame[], tally: {name: string, wins: number, bot?: string}[]}} History */

/** @param {string} roomId @returns {Promise<History>} */
export const loadHistory = (roomId) => request("GET", `/api/rooms/${encodeURIComponent(roomId)}/games`);

/** @param {string} roomId @param {number} gameNo */
export const replayHref = (roomId, gameNo) => `/r/${encodeURIComponent(roomId)}/games/${gameNo}`;

/**
 * @param {HTMLElement} root
 * @param {string} roomId
 * @param {History} history
 * @param {{t: import("../i18n.js").Translate, lang: string, current?: number}} ctx
 */
export function renderHistory(root, roomId, history, { t, lang, current }) {
  if (!history.games.length) {
    root.replaceChildren(h("p", { class: "muted small" }, t("history.none")));
    return;
  }
  const items = history.games.map((game) => {
    const names = game.names.map((name, i) => (game.bots?.[i] ? botLabel(String(game.bots[i]), t) : name));
    const top = winners(game.result, names);
    const outcome =
      game.status !== "finished"
        ? t("history.running")
        : game.aborted
          ? t("log.aborted")
          : top.length === 1
          ? t("result.winner", { name: top[0] })
          : t("result.tie", { names: joinNames(top, lang) });
    const label = t("history.game", { n: game.game_no });
    return h(
      "li",
      { class: game.game_no === current ? "current" : null, dataset: { game: game.game_no } },
      h("span", {}, h("strong", {}, label), " · ", outcome, ...(game.imported ? [" · ", h("em", { class: "history-imported" }, t("history.imported"))] : [])),
      h("a", { href: replayHref(roomId, game.game_no), class: "btn btn-small btn-ghost" }, t("history.open")),
    );
  });
  root.replaceChildren(
    h("ol", { class: "history-list" }, items),
    h("p", { class: "history-tally" }, `${t("history.tally")}: ${tallyLine(history.tally, t)}`),
  );
}

/**
 * The import's query: the waiting table's time per move, timeout policy and stand-in
 * carry over to the table the import makes. Pure.
 * @param {{turn_seconds?: number|null, on_timeout?: string, stand_in?: string|null} | undefined} rules
 * @returns {string}  "" or "?turn_seconds=…"
 */
export function importQuery(rules) {
  const query = new URLSearchParams();
  if (rules?.turn_seconds) query.set("turn_seconds", String(rules.turn_seconds));
  if (rules?.turn_seconds && rules.on_timeout) query.set("on_timeout", rules.on_timeout);
  if (rules?.stand_in) query.set("stand_in", rules.stand_in);
  const text = query.toString();
  return text ? `?${text}` : "";
}

/**
 * A file picker that imports a record (.json), or a file in any format an engine of
 * `engines` (from `GET /api/games`) reads, as a new table; the new table keeps this
 * table's time rules, and its other seats' links are kept for the importer to hand out.
 * @param {(text: string) => void} onError
 * @param {import("../i18n.js").Translate} t
 * @param {import("../formats.js").EngineFacts[]} [engines]
 * @param {Parameters<typeof importQuery>[0]} [rules]
 */
export function importForm(onError, t, engines = [], rules = undefined) {
  const readable = importFormats(engines);
  const formats = readable.map((entry) => entry.format);
  const input = /** @type {HTMLInputElement} */ (h("input", { type: "file", accept: acceptList(formats) }));
  input.addEventListener("change", async () => {
    const file = input.files?.[0];
    if (!file) return;
    const text = await file.text();
    const target = importTarget(file.name, formats);
    const response = await fetch(`${target.path}${importQuery(rules)}`, {
      method: "POST",
      headers: { "Content-Type": target.type },
      body: text,
    });
    const data = await response.json().catch(() => ({}));
    input.value = "";
    if (!response.ok) {
      onError(String(data.message ?? new ApiError(response.status, "http", response.statusText).message));
      return;
    }
    // the importer plays the first seat; the others' links are theirs to hand out
    const token = data.seats?.[0]?.token;
    if (Array.isArray(data.seats)) keepHandout(String(data.room), data.seats, 0);
    location.assign(`/r/${encodeURIComponent(data.room)}${token ? `#token=${encodeURIComponent(token)}` : ""}`);
  });
  return h(
    "label",
    { class: "history-import small" },
    h("span", {}, t("history.import"), " "),
    input,
    h(
      "span",
      { class: "muted small" },
      " ",
      t("history.import_help"),
      readable.length ? ` ${t("history.import_formats", { formats: readable.map(({ engine, format }) => formatLabel(t, engine, format)).join(", ") })}` : "",
    ),
  );
}
