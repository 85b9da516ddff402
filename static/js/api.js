// @ts-check
/** HTTP calls to the Spieltisch API. Every failure becomes an `ApiError` with the server's code. */

/** @typedef {import("./messages.js").StateMessage} StateMessage */
/** @typedef {import("./messages.js").RoomInfo} RoomInfo */

/**
 * @typedef {object} GameOption
 * @property {string} name
 * @property {"bool"|"choice"} kind
 * @property {boolean|string} default
 * @property {string[]} [choices]
 * @property {string} [description]
 * @property {Record<string, number[]>} [player_counts]  per choice, where the choice limits them
 */

/**
 * @typedef {object} GameInfo
 * @property {string} name
 * @property {string} title
 * @property {number} min_players
 * @property {number} max_players
 * @property {number[]} player_counts
 * @property {GameOption[]} options
 * @property {{name: string, title: string}[]} bots
 */

/**
 * @typedef {object} CreateRoomBody
 * @property {string} game
 * @property {number} players
 * @property {Record<string, unknown>} options
 * @property {string} name
 * @property {number} [seat]
 * @property {Record<string, string>} [bots]
 * @property {boolean} [start_when_full]
 * @property {boolean} [anyone_can_start]
 * @property {boolean} [shuffle_seats]
 * @property {number|null} [turn_seconds]  time per move; null: no limit
 * @property {"bot_move"|"bot_seat"} [on_timeout]
 * @property {string|null} [stand_in]  the bot that plays for whoever is away; null: the strongest
 */

export class ApiError extends Error {
  /**
   * @param {number} status  HTTP status; 0 when the server could not be reached
   * @param {string} code    the server's stable code ("stale", "seat_taken", …)
   * @param {string} message the server's sentence
   * @param {Record<string, any>} [body]
   */
  constructor(status, code, message, body = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.body = body;
  }
}

/**
 * @param {string} method
 * @param {string} path
 * @param {{token?: string|null, body?: unknown}} [options]
 * @returns {Promise<any>}
 */
export async function request(method, path, { token = null, body } = {}) {
  /** @type {Record<string, string>} */
  const headers = { Accept: "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: "no-store",
    });
  } catch (err) {
    throw new ApiError(0, "network", String(err));
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    const code = data && typeof data.code === "string" ? data.code : `http_${response.status}`;
    const message = data && typeof data.message === "string" ? data.message : response.statusText;
    throw new ApiError(response.status, code, message, data ?? {});
  }
  return data;
}

const room = (/** @type {string} */ id) => `/api/rooms/${encodeURIComponent(id)}`;

/** @returns {Promise<GameInfo[]>} */
export const games = () => request("GET", "/api/games");

/** @type {Promise<GameInfo[]>|null} */
let gamesOnce = null;
/**
 * The engines' list, asked once a page (a failed ask is asked again next time).
 * @returns {Promise<GameInfo[]>}
 */
export function gameList() {
  gamesOnce ??= games().catch((err) => {
    gamesOnce = null;
    throw err;
  });
  return gamesOnce;
}

/** @returns {Promise<{public_url: string|null}>} the address share links use (null: this page's) */
export const siteConfig = () => request("GET", "/api/config");

/**
 * @param {CreateRoomBody} body
 * @returns {Promise<{room: string, seat: number, token: string, url: string, state: StateMessage}>}
 */
export const createRoom = (body) => request("POST", "/api/rooms", { body });

/** @param {string} id @returns {Promise<RoomInfo>} */
export const roomInfo = (id) => request("GET", room(id));

/**
 * @param {string} id @param {number} seat @param {string} name @param {string|null} token
 * @returns {Promise<{seat: number, token: string, state: StateMessage}>}
 */
export const claimSeat = (id, seat, name, token) =>
  request("POST", `${room(id)}/seats/${seat}`, { token, body: { name } });

/** @param {string} id @param {number} seat @param {string|null} bot @param {string|null} token */
export const setBot = (id, seat, bot, token) =>
  request("POST", `${room(id)}/seats/${seat}/bot`, { token, body: { bot } });

/** @param {string} id @param {string|null} token @returns {Promise<StateMessage>} */
export const startGame = (id, token) => request("POST", `${room(id)}/start`, { token, body: {} });

/**
 * The caller's state, its legal moves in the compact form (a list of your tables needs
 * none of them; `legal_compact` is left unread).
 * @param {string} id @param {string|null} token @returns {Promise<StateMessage>}
 */
export const roomState = (id, token) => request("GET", `${room(id)}/state?legal_form=compact`, { token });

/** @param {string} id @param {string|null} token @param {number} seq @param {unknown} move @returns {Promise<StateMessage>} */
export const playMove = (id, token, seq, move) =>
  request("POST", `${room(id)}/moves`, { token, body: { seq, move } });

/** @param {string} id @param {string|null} token @param {string} text */
export const chat = (id, token, text) => request("POST", `${room(id)}/chat`, { token, body: { text } });

/** @param {string} id @param {string|null} token @param {string|null} [bot] the bot to play for you; null: the room's stand-in @returns {Promise<StateMessage>} */
export const leaveGame = (id, token, bot = null) => request("POST", `${room(id)}/leave`, { token, body: { bot } });

/** @param {string} id @param {number} seat @param {string|null} token @returns {Promise<StateMessage>} */
export const takeBack = (id, seat, token) => request("POST", `${room(id)}/seats/${seat}/take-back`, { token });

/** @param {string} id @param {number} seat @param {string|null} token @param {string|null} [bot] null: the room's stand-in @returns {Promise<RoomInfo>} */
export const handOver = (id, seat, token, bot = null) => request("POST", `${room(id)}/seats/${seat}/hand-over`, { token, body: { bot } });

/** The host makes the person in `seat` host. @param {string} id @param {number} seat @param {string|null} token @returns {Promise<RoomInfo>} */
export const makeHost = (id, seat, token) => request("POST", `${room(id)}/host`, { token, body: { seat } });

/** @param {string} id @param {number} seat @param {string|null} token @returns {Promise<RoomInfo>} */
export const freeSeat = (id, seat, token) => request("POST", `${room(id)}/seats/${seat}/free`, { token });

/** Resign the running game. @param {string} id @param {string|null} token @param {number} seq @returns {Promise<StateMessage>} */
export const resign = (id, token, seq) => request("POST", `${room(id)}/resign`, { token, body: { seq } });

/** Propose, or agree, to abort the running game. @param {string} id @param {string|null} token @returns {Promise<StateMessage>} */
export const abortGame = (id, token) => request("POST", `${room(id)}/abort`, { token });
/** Take back my last move (`ask`: ask the others if someone has moved since). @param {string} id @param {string|null} token @param {boolean} ask @param {number} seq */
export const undoMove = (id, token, ask, seq) => request("POST", `${room(id)}/undo`, { token, body: { ask, seq } });
/** @param {string} id @param {string|null} token */
export const acceptUndo = (id, token) => request("POST", `${room(id)}/undo/accept`, { token });
/** @param {string} id @param {string|null} token */
export const declineUndo = (id, token) => request("POST", `${room(id)}/undo/decline`, { token });

/** Give up your seat at a waiting table; answers the spectator's state. @param {string} id @param {string|null} token @returns {Promise<StateMessage>} */
export const standUp = (id, token) => request("POST", `${room(id)}/stand-up`, { token });

/**
 * The host changes a waiting table's settings.
 * @param {string} id @param {{players?: number, options?: Record<string, unknown>, turn_seconds?: number|null}} body @param {string|null} token
 * @returns {Promise<RoomInfo>}
 */
export const changeSettings = (id, body, token) => request("POST", `${room(id)}/settings`, { token, body });

/**
 * @typedef {object} Deadlines
 * @property {number} seq
 * @property {number|null} turn_seconds
 * @property {"bot_move"|"bot_seat"} on_timeout
 * @property {{seat: number, due: string|null, left: number, paused?: boolean}[]} deadlines
 */

/** @param {string} id @returns {Promise<Deadlines>} */
export const deadlines = (id) => request("GET", `${room(id)}/deadlines`);

/** Away at this table until `until` (ISO); your clock here waits. */
export const awayHere = (/** @type {string} */ id, /** @type {string} */ token, /** @type {string} */ until) =>
  request("POST", `${room(id)}/away`, { token, body: { until } });

/** Back at this table: your clock runs again with the time it had left. */
export const backHere = (/** @type {string} */ id, /** @type {string} */ token) => request("DELETE", `${room(id)}/away`, { token });

/** Away at every table of `tokens` (in the body, never the URL). */
export const awayEverywhere = (/** @type {string[]} */ tokens, /** @type {string} */ until) => request("POST", "/api/away", { body: { tokens, until } });

/** Back at every table of `tokens`. */
export const backEverywhere = (/** @type {string[]} */ tokens) => request("DELETE", "/api/away", { body: { tokens } });
