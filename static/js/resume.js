// @ts-check
/**
 * Which seat token the room page says hello with. A token from a resume link
 * (`/r/ROOM#token=…`) is only tried: it becomes the token this browser keeps for
 * the room once the server accepts it, and a refusal leaves the kept one alone.
 * Pure, so it can be unit-tested.
 */

/**
 * @typedef {object} TokenChoice
 * @property {string|null} token  the token to say hello with (null: watch)
 * @property {string|null} kept   the token this browser keeps for the room
 * @property {boolean} trial      `token` came from a link and is not accepted yet
 */

/**
 * @param {string|null} fromLink  the token in the address's fragment, if any
 * @param {string|null} kept      the token stored for this room, if any
 * @returns {TokenChoice}
 */
export function chooseToken(fromLink, kept) {
  if (fromLink && fromLink !== kept) return { token: fromLink, kept, trial: true };
  return { token: kept, kept, trial: false };
}

/**
 * The server accepted `choice.token` (it answered with a seat): keep it from now on.
 * @param {TokenChoice} choice
 * @returns {TokenChoice}
 */
export function accepted(choice) {
  return { token: choice.token, kept: choice.token, trial: false };
}

/**
 * The server refused `choice.token` (close code 4401). A link's token falls back
 * to the kept one, which stays stored; a kept token the server refuses is
 * forgotten. `message` is the i18n key that tells the person what happened.
 * @param {TokenChoice} choice
 * @returns {{choice: TokenChoice, forget: boolean, message: string}}
 */
export function refused(choice) {
  if (choice.trial) {
    return {
      choice: { token: choice.kept, kept: choice.kept, trial: false },
      forget: false,
      message: choice.kept ? "net.link_refused_kept" : "net.link_refused",
    };
  }
  return { choice: { token: null, kept: null, trial: false }, forget: true, message: "net.bad_token" };
}
