// @ts-check
/**
 * The game log in plain words, built from the room's public events. Moves are
 * described by the game's renderer (`describeMove`), so any game plugs in. Pure.
 */

import { formatAway } from "../away.js";
import { botLabel } from "./names.js";

/** @typedef {import("../messages.js").RoomEvent} RoomEvent */
/** @typedef {import("../i18n.js").Translate} Translate */
/** @typedef {(log: any, names: string[], t: Translate) => string|string[]} DescribeMove */

/**
 * @typedef {object} LogLine
 * @property {number} seq
 * @property {string} kind     the event kind (for styling)
 * @property {string} text
 * @property {string} [at]
 */

/**
 * Names of the seats ranked first in a result.
 * @param {{ranks?: number[]}|null|undefined} result
 * @param {string[]} names
 */
export function winners(result, names) {
  const ranks = result?.ranks ?? [];
  return ranks.flatMap((rank, seat) => (rank === 1 ? [names[seat] ?? String(seat + 1)] : []));
}

/**
 * @param {string[]} items
 * @param {string} lang
 */
export function joinNames(items, lang) {
  try {
    return new Intl.ListFormat(lang, { style: "long", type: "conjunction" }).format(items);
  } catch {
    return items.join(", ");
  }
}

/**
 * The lines one event adds to the log (chat goes to the chat panel: none here).
 * @param {RoomEvent} event
 * @param {{names: string[], t: Translate, lang: string, describeMove?: DescribeMove|null}} ctx
 * @returns {LogLine[]}
 */
export function describeEvent(event, { names, t, lang, describeMove }) {
  const who = /** @param {unknown} seat */ (seat) =>
    typeof seat === "number" ? names[seat] ?? t("seat.numbered", { n: seat + 1 }) : "?";
  /** @type {string[]} */
  let texts;
  switch (event.kind) {
    case "room_created":
      texts = [t("log.room_created", { name: event.name ?? who(event.creator_seat) })];
      break;
    case "seat_claimed":
      texts = [t("log.seat_claimed", { name: event.name ?? who(event.seat), n: Number(event.seat) + 1 })];
      break;
    case "seat_bot":
      texts = [
        event.bot
          ? t("log.seat_bot", { n: Number(event.seat) + 1, bot: botLabel(String(event.bot), t) })
          : t("log.seat_freed", { n: Number(event.seat) + 1 }),
      ];
      break;
    case "game_started":
      texts = [t("log.game_started", { n: event.game_no ?? 1 })];
      break;
    case "seat_stand_in": {
      const params = { name: event.name ?? who(event.seat), bot: botLabel(String(event.bot), t) };
      const key =
        event.reason === "timeout" ? (event.once ? "log.stand_in_timeout_once" : "log.stand_in_timeout") : event.reason === "host" ? "log.stand_in_host" : "log.stand_in_left";
      texts = [t(key, params)];
      break;
    }
    case "seat_released":
      texts = [
        event.bot
          ? t("log.seat_released", { n: Number(event.seat) + 1, name: event.name ?? who(event.seat), bot: botLabel(String(event.bot), t) })
          : t("log.seat_emptied", { n: Number(event.seat) + 1, name: event.name ?? who(event.seat) }),
      ];
      break;
    case "seat_vacated":
      texts = [t("log.seat_vacated", { n: Number(event.seat) + 1, name: event.name ?? who(event.seat) })];
      break;
    case "room_settings":
      texts = [t("log.room_settings", { players: Number(event.players) })];
      break;
    case "host_changed":
      texts = [t("log.host_changed", { from: event.from_name ?? who(event.from), name: event.name ?? who(event.seat) })];
      break;
    case "seat_taken_back":
      texts = [t("log.seat_taken_back", { name: event.name ?? who(event.seat) })];
      break;
    case "move": {
      if (event.resigned) {
        texts = [t("log.resigned", { name: who(event.seat) })];
        break;
      }
      // a stand-in's move is the bot's: "Medium bot for Carla placed V5", never "Carla placed V5"
      const seat = event.log?.seat ?? event.seat;
      const movers = names.slice();
      if (event.stand_in && typeof seat === "number") movers[seat] = t("log.stand_in_for", { bot: botLabel(String(event.stand_in), t), name: who(seat) });
      const described = describeMove ? describeMove(event.log ?? {}, movers, t) : null;
      texts = described
        ? Array.isArray(described)
          ? described
          : [described]
        : [t("log.move", { name: movers[seat] ?? who(seat) })];
      break;
    }
    case "undo":
      texts = [t("log.undo", { name: event.name ?? who(event.seat) })];
      break;
    case "undo_request":
      texts = [t("log.undo_request", { name: event.name ?? who(event.seat) })];
      break;
    case "undo_answer":
      texts = [t(event.accept ? "log.undo_accept" : "log.undo_decline", { name: event.name ?? who(event.seat) })];
      break;
    case "abort_vote":
      texts = [t("log.abort_vote", { name: event.name ?? who(event.seat) })];
      break;
    case "seat_away":
      texts = [t("log.seat_away", { name: event.name ?? who(event.seat), date: formatAway(String(event.until), lang) })];
      break;
    case "seat_back":
      texts = [t(event.reason === "expired" ? "log.seat_back_expired" : "log.seat_back", { name: event.name ?? who(event.seat) })];
      break;
    case "game_over": {
      if (event.aborted) {
        texts = [t("log.aborted")];
        break;
      }
      const top = winners(event.result, names);
      texts = [
        top.length === 1
          ? t("log.game_over_winner", { name: top[0] })
          : top.length > 1
            ? t("log.game_over_tie", { names: joinNames(top, lang) })
            : t("log.game_over"),
      ];
      break;
    }
    case "chat":
      return [];
    default:
      texts = [];
  }
  return texts.map((text) => ({ seq: event.seq, kind: event.kind, text, at: event.at }));
}
