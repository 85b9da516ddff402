// @ts-check
/**
 * The other seats' links of a game this browser imported: the importer hands each
 * one to the person who plays that seat. Kept in localStorage beside this browser's
 * own seats until the importer says they are handed out; a link is a key, so it is
 * shown only on the importer's own table page.
 */

const KEY = "spieltisch.handout";

/** @typedef {{seat: number, name: string, token: string}} HandoutSeat */

/** @returns {Record<string, HandoutSeat[]>} */
function load() {
  try {
    const data = JSON.parse(localStorage.getItem(KEY) ?? "{}");
    return data && typeof data === "object" && !Array.isArray(data) ? data : {};
  } catch {
    return {};
  }
}

/** @param {Record<string, HandoutSeat[]>} data */
function save(data) {
  try {
    if (Object.keys(data).length) localStorage.setItem(KEY, JSON.stringify(data));
    else localStorage.removeItem(KEY);
  } catch {
    // storage full or off: the links are shown no more, the seats still play
  }
}

/**
 * Keep the seats of an import that are not the importer's.
 * @param {string} room
 * @param {{seat: number, name: string, token: string}[]} seats  every seat the import answered
 * @param {number} mine  the importer's own seat
 */
export function keepHandout(room, seats, mine) {
  const others = seats.filter((s) => s.seat !== mine && typeof s.token === "string").map(({ seat, name, token }) => ({ seat, name, token }));
  if (!others.length) return;
  save({ ...load(), [room]: others });
}

/** @param {string} room @returns {HandoutSeat[]} */
export function handoutOf(room) {
  const seats = load()[room];
  return Array.isArray(seats) ? seats.filter((s) => s && typeof s.token === "string" && Number.isInteger(s.seat)) : [];
}

/** @param {string} room */
export function forgetHandout(room) {
  const data = load();
  delete data[room];
  save(data);
}
