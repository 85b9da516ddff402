// @ts-check
/**
 * Moves in words: the log line of a move everyone saw, and the preview of a
 * move you are about to make. Pure: the translation function comes in.
 * Rows are numbered from 1 on screen (the engine counts from 0).
 */

/** @typedef {import("../../i18n.js").Translate} Translate */
/** @typedef {import("./lastmove.js").MoveLog} MoveLog */
/** @typedef {import("./plays.js").Target} Target */

/**
 * A seat's name, or "Seat 2".
 * @param {string[]} names
 * @param {number|null|undefined} seat
 * @param {Translate} t
 */
export function nameOf(names, seat, t) {
  if (seat == null) return "?";
  return names[seat] ?? t("seat.numbered", { n: seat + 1 });
}

/**
 * "a 5" or "2 + 6": the dice that start a row.
 * @param {number[]} dice
 * @param {Translate} t
 */
export function diceText(dice, t) {
  return dice.length === 2 ? t("maedn.dice.two", { a: dice[0], b: dice[1] }) : t("maedn.dice.one", { die: dice[0] });
}

/**
 * The log lines of one move (engines/maedn/log.py): what was played, where the
 * figure came from (a steal names its victim), a row that emptied, a row finished.
 * @param {MoveLog} log
 * @param {string[]} names
 * @param {Translate} t
 * @returns {string[]}
 */
export function describeMove(log, names, t) {
  const name = nameOf(names, log.seat, t);
  const lines = log.type === "discard" ? [t("maedn.log.discard", { name, die: log.die ?? "?" })] : playLines(log, names, t);
  if (log.end?.reason === "stalled") lines.push(t("maedn.log.stalled"));
  return lines;
}

/**
 * The lines of a start or extend.
 * @param {MoveLog} log
 * @param {string[]} names
 * @param {Translate} t
 */
function playLines(log, names, t) {
  const name = nameOf(names, log.seat, t);
  if (log.figure == null || !log.taken_from) return [t("log.move", { name })];
  const params = {
    name,
    figure: log.figure,
    dice: diceText(log.dice ?? [], t),
    die: (log.dice ?? [])[0] ?? "?",
    row: (log.row ?? 0) + 1,
    from_row: (log.from_row ?? 0) + 1,
    victim: nameOf(names, log.from_seat, t),
  };
  const kind = log.type === "start" ? "start" : "extend";
  const lines = [t(`maedn.log.${kind}.${log.taken_from}`, params)];
  if (log.row_vanished && log.from_seat != null) {
    lines.push(t("maedn.log.row_gone", { name: nameOf(names, log.from_seat, t), row: params.from_row }));
  }
  if (log.finished) {
    lines.push(t("maedn.log.finished", { name, count: log.finished.figures.length, points: log.finished.points, score: log.score ?? 0 }));
  }
  return lines;
}

/**
 * Where a target puts the figure, in a few words: "New row", "Row 2: 9 + 3".
 * @param {Target} target
 * @param {Translate} t
 */
export function targetWhere(target, t) {
  if (target.kind === "discard") return t("maedn.target.discard", { die: target.dice[0] });
  if (target.kind === "start") return t("maedn.target.new_row");
  return t("maedn.target.row", { row: (target.row ?? 0) + 1, last: target.last ?? "?", die: target.dice[0] });
}

/**
 * Where the figure comes from, in a few words: "from the middle", "steal from Ben".
 * @param {Target} target
 * @param {string[]} names
 * @param {Translate} t
 */
export function takeShort(target, names, t) {
  const take = target.take;
  if (!take) return "";
  if (take.source === "middle") return t("maedn.take.middle");
  if (take.source === "own_row") return t("maedn.take.own_row", { row: (take.fromRow ?? 0) + 1 });
  return t("maedn.take.stolen", { name: nameOf(names, take.from, t) });
}

/**
 * The full preview of a target, in sentences, before you confirm it.
 * @param {Target} target
 * @param {string[]} names
 * @param {Translate} t
 * @returns {string[]}
 */
export function previewLines(target, names, t) {
  if (target.kind === "discard") return [t("maedn.preview.discard", { die: target.dice[0] })];
  const take = target.take;
  if (!take || target.figure == null) return [];
  const figure = target.figure;
  const row = (take.fromRow ?? 0) + 1;
  const name = nameOf(names, take.from, t);
  const lines = [
    take.source === "middle"
      ? t("maedn.preview.middle", { figure })
      : take.source === "own_row"
        ? t("maedn.preview.own_row", { figure, row })
        : t("maedn.preview.stolen", { figure, name, row }),
  ];
  if (take.vanishes) lines.push(take.source === "own_row" ? t("maedn.preview.vanish_own", { row }) : t("maedn.preview.vanish", { name, row }));
  if (target.finishes) lines.push(t("maedn.preview.finish"));
  return lines;
}

/**
 * The accessible name of a target button: where, then what it takes.
 * @param {Target} target
 * @param {string[]} names
 * @param {Translate} t
 */
export function targetLabel(target, names, t) {
  const where =
    target.kind === "start"
      ? t("maedn.target.aria_start", { dice: diceText(target.dice, t) })
      : target.kind === "extend"
        ? t("maedn.target.aria_extend", { die: target.dice[0], row: (target.row ?? 0) + 1, last: target.last ?? "?" })
        : t("maedn.target.discard", { die: target.dice[0] });
  const preview = previewLines(target, names, t).join(" ");
  return preview ? t("maedn.target.aria", { where, preview }) : where;
}
