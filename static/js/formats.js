// @ts-check
/**
 * What a game's record may become, as the engines say in `GET /api/games`: whether a
 * running game's record may be had yet (`hidden_information`), the file formats of
 * an engine's own beside the JSON record (`record_formats`), and which import route
 * a chosen file goes to. The page knows no game: it draws a download button for each
 * format listed and reads every listed suffix. Pure, so it is tested without a page.
 */

/** @typedef {{name: string, title: string, media_type: string, suffix: string}} RecordFormat */
/** @typedef {{name: string, hidden_information?: boolean, record_formats?: RecordFormat[]}} EngineFacts */
/** @typedef {import("./i18n.js").Translate} Translate */

/**
 * The formats `engine` writes, in the server's order.
 * @param {EngineFacts[]} games
 * @param {string} engine
 * @returns {RecordFormat[]}
 */
export function formatsOf(games, engine) {
  return games.find((game) => game.name === engine)?.record_formats ?? [];
}

/**
 * Whether a game's record may be downloaded now: once it is over, or while it runs
 * when its engine hides nothing. An engine the list does not name counts as hiding.
 * @param {EngineFacts[]} games
 * @param {string} engine
 * @param {boolean} over
 */
export function recordOpen(games, engine, over) {
  return over || games.find((game) => game.name === engine)?.hidden_information === false;
}

/**
 * Every format some engine reads, each once, with the engine that has it.
 * @param {EngineFacts[]} games
 * @returns {{engine: string, format: RecordFormat}[]}
 */
export function importFormats(games) {
  /** @type {Map<string, {engine: string, format: RecordFormat}>} */
  const found = new Map();
  for (const game of games) {
    for (const format of game.record_formats ?? []) {
      if (!found.has(format.name)) found.set(format.name, { engine: game.name, format });
    }
  }
  return [...found.values()];
}

/**
 * Where a chosen file is sent: the route of the format whose suffix its name ends in,
 * else the JSON record's.
 * @param {string} fileName
 * @param {RecordFormat[]} formats
 * @returns {{path: string, type: string}}
 */
export function importTarget(fileName, formats) {
  const lower = fileName.toLowerCase();
  const format = formats.find((f) => f.suffix && lower.endsWith(f.suffix.toLowerCase()));
  if (!format) return { path: "/api/records", type: "application/json" };
  return { path: `/api/records/${encodeURIComponent(format.name)}`, type: format.media_type };
}

/**
 * The file picker's `accept`: the JSON record and every format's suffix.
 * @param {RecordFormat[]} formats
 */
export function acceptList(formats) {
  return [".json", ...formats.map((f) => f.suffix), "application/json"].join(",");
}

/**
 * A format's name for people: the page's words for it (`game.<engine>.format.<name>`),
 * else the engine's own title.
 * @param {Translate} t
 * @param {string} engine
 * @param {RecordFormat} format
 */
export function formatLabel(t, engine, format) {
  const key = `game.${engine}.format.${format.name}`;
  const text = t(key);
  return text === key ? format.title : text;
}

/**
 * The download links of one game: the JSON record, then each format of its engine.
 * @param {EngineFacts[]} games
 * @param {string} engine
 * @param {string} base  the game's API path, `/api/rooms/{room}/games/{n}`
 * @param {Translate} t
 * @returns {{href: string, id: string, label: string}[]}
 */
export function downloads(games, engine, base, t) {
  return [
    { href: `${base}/record`, id: "download-json", label: t("replay.download_json") },
    ...formatsOf(games, engine).map((format) => ({
      href: `${base}/record.${encodeURIComponent(format.name)}`,
      id: `download-${format.name}`,
      label: formatLabel(t, engine, format),
    })),
  ];
}
