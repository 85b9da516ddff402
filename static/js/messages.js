// @ts-check
/**
 * The websocket protocol as the browser sees it: message shapes (JSDoc typedefs),
 * a parser that accepts only well-formed server messages, and what each close
 * code means for reconnecting. Pure: no DOM, no sockets.
 */

/**
 * @typedef {object} Seat
 * @property {number} seat
 * @property {string|null} name
 * @property {"human"|"bot"|"empty"} kind
 * @property {string|null} bot
 * @property {string|null} [stand_in]  a bot playing for the seat's person (or, with kind "empty", for nobody)
 * @property {string|null} [away_until]  the seat's person is away until then (ISO): their clock is paused
 * @property {boolean} [paused]  the seat's clock waits (REST answers only)
 * @property {string|null} [deadline]  REST only: when the seat's time to move runs out
 * @property {number|null} [time_left] REST only: seconds left then
 * @property {boolean} online
 * @property {boolean} to_act
 */

/**
 * @typedef {object} RoomInfo
 * @property {string} id
 * @property {string} game
 * @property {string} title
 * @property {number} players
 * @property {Record<string, unknown>} options
 * @property {{start_when_full?: boolean, anyone_can_start?: boolean, shuffle_seats?: boolean, turn_seconds?: number|null, on_timeout?: string, stand_in?: string|null, confirm_moves?: boolean|null}} rules
 * @property {number} creator_seat  the seat the room was opened from (a shuffle never moves it)
 * @property {number|null} host_seat  the seat the host sits in now: host controls follow this
 * @property {"lobby"|"playing"|"finished"} status
 * @property {number} seq
 * @property {number} game_no
 * @property {boolean} [imported] the table was made from an imported game record
 * @property {boolean} [game_imported] the game now at the table is that record's game
 * @property {boolean} [aborted] the last game was aborted by agreement (it has no result)
 * @property {number[]} [abort_votes] the seats whose people agree to abort the running game
 * @property {{seat: number, ask: boolean}[]} [take_back] who may take back their last move now (`ask`: the others must agree)
 * @property {{seat: number, back_to: number, agreed: number[], waiting: number[]} | null} [undo_request] a take-back waiting for answers
 * @property {Seat[]} seats
 */

/**
 * A public event of the room's log. `kind` is one of room_created, seat_claimed,
 * seat_bot, game_started, move, game_over, chat; the other fields depend on it.
 * @typedef {{seq: number, kind: string, at?: string} & Record<string, any>} RoomEvent
 */

/** @typedef {{scores: number[], ranks: number[]} & Record<string, any>} GameResult */

/**
 * @typedef {object} StateMessage
 * @property {"state"} type
 * @property {number} seq
 * @property {number} game_seq
 * @property {number|null} you
 * @property {RoomInfo} room
 * @property {any} view
 * @property {number[]} to_act
 * @property {any[]} legal_moves   the seat's legal moves (from `legal_compact` when the server sent that)
 * @property {GameResult|null} result
 * @property {RoomEvent[]} events
 * @property {boolean | boolean[]} [confirm]  in a room that confirms moves: which legal moves can't be taken back (one flag for all, or one per move)
 * @property {boolean} [events_truncated]  events before `events_from` were left out: fetch them
 * @property {number} [events_from]        the first seq `events` could start at
 */

/** @typedef {{type: "presence", seq: number, online: boolean[]}} PresenceMessage */
/** @typedef {{type: "ack", id: string|number|null, seq: number}} AckMessage */
/** @typedef {{type: "error", code: string, message: string, id?: string|number|null} & Record<string, any>} ErrorMessage */
/** @typedef {{type: "pong", id: string|number|null}} PongMessage */
/** @typedef {StateMessage|PresenceMessage|AckMessage|ErrorMessage|PongMessage} ServerMessage */

/** @param {unknown} x @returns {x is Record<string, any>} */
const isObject = (x) => typeof x === "object" && x !== null && !Array.isArray(x);
/** @param {unknown} x @returns {x is number} */
const isInt = (x) => typeof x === "number" && Number.isInteger(x);

/**
 * @param {unknown} room
 * @returns {boolean}
 */
function isRoomInfo(room) {
  return (
    isObject(room) &&
    typeof room.id === "string" &&
    typeof room.game === "string" &&
    isInt(room.players) &&
    Array.isArray(room.seats) &&
    room.seats.every((s) => isObject(s) && isInt(s.seat))
  );
}

/**
 * The legal moves a compact form stands for (the hello asks for it: `legal_form:
 * "compact"`). Blokus' form "shapes" lists each piece orientation's cells once, counted
 * from its top-left corner, with the board index `row * size + col` of every corner
 * where it fits; the moves come out in the server's order. `null` for a form this
 * browser does not know or a malformed one.
 * @param {unknown} compact
 * @returns {any[]|null}
 */
export function expandCompact(compact) {
  if (!isObject(compact) || compact.form !== "shapes") return null;
  const size = compact.size;
  if (!isInt(size) || size < 1 || !Array.isArray(compact.shapes)) return null;
  const moves = [];
  for (const group of compact.shapes) {
    if (!isObject(group) || typeof group.piece !== "string") return null;
    const cells = group.cells;
    if (!Array.isArray(cells) || !cells.every((c) => Array.isArray(c) && c.length === 2 && isInt(c[0]) && isInt(c[1]))) return null;
    if (!Array.isArray(group.at) || !group.at.every(isInt)) return null;
    for (const at of group.at) {
      const top = Math.floor(at / size);
      const left = at % size;
      moves.push({ piece: group.piece, cells: cells.map(([r, c]) => [top + r, left + c]) });
    }
  }
  return moves;
}

/**
 * Parse one websocket frame from the server; `null` for anything that is not a
 * well-formed message of a known type (the caller ignores it).
 * @param {string} text
 * @returns {ServerMessage|null}
 */
export function parseServerMessage(text) {
  let data;
  try {
    data = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isObject(data)) return null;
  switch (data.type) {
    case "state":
      if (
        !isInt(data.seq) ||
        !isRoomInfo(data.room) ||
        !Array.isArray(data.to_act) ||
        !Array.isArray(data.events) ||
        !data.events.every((e) => isObject(e) && isInt(e.seq) && typeof e.kind === "string")
      ) {
        return null;
      }
      {
        const { legal_compact: compact, ...rest } = data;
        const legal = compact === undefined ? rest.legal_moves : expandCompact(compact);
        return /** @type {StateMessage} */ ({
          game_seq: 0,
          you: null,
          view: null,
          result: null,
          ...rest,
          legal_moves: Array.isArray(legal) ? legal : [],
        });
      }
    case "presence":
      if (!isInt(data.seq) || !Array.isArray(data.online)) return null;
      return /** @type {PresenceMessage} */ (data);
    case "ack":
      if (!isInt(data.seq)) return null;
      return /** @type {AckMessage} */ (data);
    case "error":
      if (typeof data.code !== "string") return null;
      return /** @type {ErrorMessage} */ ({ message: "", ...data });
    case "pong":
      return /** @type {PongMessage} */ (data);
    default:
      return null;
  }
}

/**
 * What a closed socket means for the client.
 * @typedef {object} ClosePlan
 * @property {"reconnect"|"drop_token"|"give_up"} action
 * @property {number} minDelay  wait at least this long (ms) before the next try
 * @property {string} reason    an i18n key describing why
 */

/**
 * Close codes (app/live/hub.py): 1012 server restart, 4401 bad token, 4404 no room,
 * 4400 protocol, 1008 abuse; anything else is a dropped connection.
 * @param {number} code
 * @returns {ClosePlan}
 */
export function closePlan(code) {
  switch (code) {
    case 1012:
      return { action: "reconnect", minDelay: 300, reason: "net.restart" };
    case 4401:
      return { action: "drop_token", minDelay: 0, reason: "net.bad_token" };
    case 4404:
      return { action: "give_up", minDelay: 0, reason: "net.no_room" };
    case 4400:
      return { action: "reconnect", minDelay: 2000, reason: "net.protocol" };
    case 1008:
      return { action: "reconnect", minDelay: 10000, reason: "net.abuse" };
    default:
      return { action: "reconnect", minDelay: 0, reason: "net.dropped" };
  }
}

/**
 * Merge new events into a seq-ordered list, dropping ones already present
 * (a reconnect may resend a few).
 * @param {RoomEvent[]} known  sorted by seq
 * @param {RoomEvent[]} incoming
 * @returns {RoomEvent[]}
 */
export function mergeEvents(known, incoming) {
  if (!incoming.length) return known;
  const bySeq = new Map(known.map((e) => [e.seq, e]));
  for (const event of incoming) bySeq.set(event.seq, event);
  return [...bySeq.values()].sort((a, b) => a.seq - b.seq);
}
