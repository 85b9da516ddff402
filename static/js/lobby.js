// @ts-check
/**
 * The start page: pick a game, players, options and bots, give your name, open
 * the table; and the list of tables this browser has seats in.
 */

import * as api from "./api.js";
import { follow, keptAlerts } from "./alltables.js";
import { byId, h } from "./dom.js";
import { bindLanguageSelect, initLanguage, lang, onLanguageChange, t } from "./i18n.js";
import { renderAwayBox } from "./away.js";
import { mergeSeats, renderCarry, seatsFromHash, hashWithoutSeats } from "./devicelink.js";
import { keepMyGamesLive, renderMyGames } from "./mygames.js";
import { startOfflineShell } from "./offline.js";
import { choiceOptions, choiceSelect, levelChoices, standInLevel } from "./room/levels.js";
import { copyText } from "./room/share.js";
import { toast, toastError } from "./toast.js";
import { TURN_CHOICES, turnTimeLabel } from "./timeleft.js";
import { pref, seatStore } from "./tokens.js";

/** @typedef {import("./api.js").GameInfo} GameInfo */
/** @typedef {import("./api.js").GameOption} GameOption */

initLanguage();
bindLanguageSelect(byId("lang"));
startOfflineShell();

const store = seatStore();
const form = /** @type {HTMLFormElement} */ (byId("create-form"));
const nameInput = /** @type {HTMLInputElement} */ (byId("your-name"));
const createBtn = /** @type {HTMLButtonElement} */ (byId("create-btn"));
const turnTime = /** @type {HTMLSelectElement} */ (byId("turn-time"));
const onTimeout = /** @type {HTMLSelectElement} */ (byId("on-timeout"));
const levels = byId("bot-levels");
nameInput.value = pref("name") ?? "";

/** @type {GameInfo[]} */
let games = [];
/** @type {{game: string, players: number, options: Record<string, unknown>, seats: Record<number, string>}} */
const choice = { game: "", players: 2, options: {}, seats: {} };

/** @param {string} key @param {string} fallback */
function tr(key, fallback) {
  const text = t(key);
  return text === key ? fallback : text;
}

/** @param {number[]} counts */
function countsText(counts) {
  if (!counts.length) return "";
  const min = Math.min(...counts);
  const max = Math.max(...counts);
  return min === max ? t("lobby.players_exact", { count: min }) : t("lobby.players_range", { min, max });
}

/** The player counts the current options allow (where the server says an option limits them). */
function allowedCounts() {
  const info = games.find((g) => g.name === choice.game);
  if (!info) return [];
  let counts = info.player_counts;
  for (const opt of info.options) {
    const limited = opt.player_counts?.[String(choice.options[opt.name])];
    if (limited) counts = counts.filter((n) => limited.includes(n));
  }
  return counts;
}

/** @param {string} name */
function selectGame(name) {
  const info = games.find((g) => g.name === name);
  if (!info) return;
  choice.game = name;
  choice.options = Object.fromEntries(info.options.map((o) => [o.name, o.default]));
  choice.seats = {};
  const counts = allowedCounts();
  choice.players = counts.includes(choice.players) ? choice.players : counts[counts.length - 1] ?? info.min_players;
  render();
}

function renderGames() {
  const list = byId("game-list");
  list.replaceChildren(
    ...games.map((g) =>
      h(
        "label",
        { class: ["game-option", g.name === choice.game && "selected"], dataset: { game: g.name } },
        h("input", {
          type: "radio",
          name: "game",
          value: g.name,
          checked: g.name === choice.game,
          on: { change: () => selectGame(g.name) },
        }),
        h(
          "span",
          { class: "game-text" },
          h("span", { class: "game-title" }, tr(`game.${g.name}.title`, g.title)),
          h("span", { class: "game-desc" }, tr(`game.${g.name}.description`, "")),
          h("span", { class: "game-players muted small" }, countsText(g.player_counts)),
        ),
      ),
    ),
  );
}

function renderPlayers() {
  const box = byId("player-counts");
  const counts = allowedCounts();
  if (!counts.includes(choice.players) && counts.length) choice.players = counts[counts.length - 1];
  box.replaceChildren(
    ...counts.map((n) =>
      h(
        "label",
        { class: ["seg", n === choice.players && "selected"] },
        h("input", {
          type: "radio",
          name: "players",
          value: String(n),
          checked: n === choice.players,
          "aria-label": t("lobby.players_exact", { count: n }),
          on: {
            change: () => {
              choice.players = n;
              render();
            },
          },
        }),
        h("span", { "aria-hidden": "true" }, String(n)),
      ),
    ),
  );
}

function renderOptions() {
  const info = games.find((g) => g.name === choice.game);
  const box = byId("option-list");
  byId("options").hidden = !info || !info.options.length;
  if (!info) return;
  box.replaceChildren(
    ...info.options.map((opt) => {
      const id = `opt-${opt.name}`;
      const label = tr(`game.${info.name}.option.${opt.name}`, opt.name);
      const help = tr(`game.${info.name}.option.${opt.name}.help`, opt.description ?? "");
      if (opt.kind === "bool") {
        const input = h("input", {
          type: "checkbox",
          id,
          checked: Boolean(choice.options[opt.name]),
          on: {
            change: () => {
              choice.options[opt.name] = input.checked;
              render();
            },
          },
        });
        return h("div", { class: "option" }, h("label", { class: "check" }, input, h("span", {}, label)), help ? h("p", { class: "muted small" }, help) : null);
      }
      const select = h(
        "select",
        {
          id,
          on: {
            change: () => {
              choice.options[opt.name] = select.value;
              render();
            },
          },
        },
        (opt.choices ?? []).map((c) => h("option", { value: c }, tr(`game.${info.name}.option.${opt.name}.${c}`, c))),
      );
      select.value = String(choice.options[opt.name]);
      return h("div", { class: "option" }, h("label", { for: id }, label), select, help ? h("p", { class: "muted small" }, help) : null);
    }),
  );
}

function renderSeatPlan() {
  const info = games.find((g) => g.name === choice.game);
  const list = byId("seat-plan");
  if (!info) return;
  const rows = [h("li", { class: "seat-row you" }, h("span", { class: "seat-no" }, t("seat.numbered", { n: 1 })), h("span", {}, t("lobby.seat_you")))];
  for (let seat = 1; seat < choice.players; seat++) {
    const id = `seat-${seat}`;
    const select = h(
      "select",
      {
        id,
        on: {
          change: () => {
            if (select.value) choice.seats[seat] = select.value;
            else delete choice.seats[seat];
          },
        },
      },
      h("option", { value: "" }, t("lobby.seat_friend")),
      choiceOptions(levelChoices(info.bots, t)),
    );
    select.value = choice.seats[seat] ?? "";
    rows.push(h("li", { class: "seat-row" }, h("label", { class: "seat-no", for: id }, t("seat.numbered", { n: seat + 1 })), select));
  }
  for (const key of Object.keys(choice.seats)) if (Number(key) >= choice.players) delete choice.seats[Number(key)];
  list.replaceChildren(...rows);
  renderLevels(info.bots);
}

/** Time per move: the choices in the page's language; the policy only matters with a limit. */
function renderTurnTime() {
  const chosen = turnTime.value;
  turnTime.replaceChildren(...TURN_CHOICES.map((seconds) => h("option", { value: seconds == null ? "" : String(seconds) }, turnTimeLabel(seconds, t))));
  turnTime.value = chosen;
  byId("on-timeout-row").hidden = !turnTime.value;
}
turnTime.addEventListener("change", renderTurnTime);

/**
 * What each bot level is like, under the seats the host may give to bots.
 * @param {{name: string}[]} bots
 */
function renderLevels(bots) {
  levels.replaceChildren(
    h("summary", {}, t("bot.levels")),
    h(
      "dl",
      {},
      levelChoices(bots, t).flatMap((c) => [h("dt", {}, c.label), h("dd", {}, c.about)]),
    ),
  );
}

/** The bot that plays for whoever is away: the game's bots, its strongest (the first) preselected. */
function renderStandIn() {
  const info = games.find((g) => g.name === choice.game);
  if (!info) return;
  const shown = /** @type {HTMLSelectElement} */ (byId("stand-in"));
  const picker = choiceSelect("stand-in", levelChoices(info.bots, t), standInLevel({ stand_in: shown.value }, info.bots), ["stand-in-help"]);
  shown.replaceWith(picker.select);
  byId("stand-in-about").replaceWith(picker.about);
}

function render() {
  renderTurnTime();
  renderStandIn();
  renderGames();
  renderPlayers();
  renderOptions();
  renderSeatPlan();
}

form.addEventListener("submit", async (e) => {
  e.preventDefault();
  const name = nameInput.value.trim();
  if (!name) {
    nameInput.focus();
    nameInput.setAttribute("aria-invalid", "true");
    toastError({ code: "bad_name" });
    return;
  }
  nameInput.removeAttribute("aria-invalid");
  createBtn.disabled = true;
  try {
    const bots = Object.fromEntries(Object.entries(choice.seats).filter(([seat]) => Number(seat) < choice.players));
    const created = await api.createRoom({
      game: choice.game,
      players: choice.players,
      options: choice.options,
      name,
      seat: 0,
      bots,
      start_when_full: /** @type {HTMLInputElement} */ (byId("start-when-full")).checked,
      anyone_can_start: /** @type {HTMLInputElement} */ (byId("anyone-can-start")).checked,
      shuffle_seats: /** @type {HTMLInputElement} */ (byId("shuffle-seats")).checked,
      turn_seconds: turnTime.value ? Number(turnTime.value) : null,
      on_timeout: onTimeout.value === "bot_seat" ? "bot_seat" : "bot_move",
      stand_in: /** @type {HTMLSelectElement} */ (byId("stand-in")).value || null,
    });
    pref("name", name);
    store.set(created.room, { token: created.token, seat: created.seat, name, game: choice.game });
    location.assign(`/r/${encodeURIComponent(created.room)}`);
  } catch (err) {
    toastError(err);
    createBtn.disabled = false;
  }
});

async function init() {
  try {
    games = await api.games();
  } catch (err) {
    toastError(err);
    return;
  }
  if (games.length) selectGame(games[0].name);
}

onLanguageChange(() => {
  render();
  byId("away-box").dataset.key = "";
  void renderMyGames(byId("my-games-list"), byId("my-games-empty"), store).then(showTables);
});

renderTurnTime();
const carry = /** @type {HTMLDetailsElement} */ (byId("carry"));
const showCarry = () => renderCarry(carry, byId("carry-box"), store, t, copyText, (text, kind) => toast(text, { kind, timeout: 2500 }));
carry.addEventListener("toggle", showCarry);
/** After "Your tables" answered: the device link, and the away box for every seat held. */
const showTables = (/** @type {{token: string, state: import("./messages.js").StateMessage}[]} */ held) => {
  showCarry();
  renderAwayBox(byId("away-box"), held, {
    t,
    lang: lang(),
    onDone: () => void renderMyGames(byId("my-games-list"), byId("my-games-empty"), store, { quiet: true }).then(showTables),
    onError: (text) => toast(text, { kind: "error" }),
  });
};

/** Seats carried over from another device (`/#tables=…`): merged, and the fragment dropped. */
function takeCarried() {
  const carried = seatsFromHash(location.hash);
  if (!carried) return false;
  history.replaceState(history.state, "", location.pathname + location.search + hashWithoutSeats(location.hash));
  const { added, kept } = mergeSeats(store, carried);
  if (added) toast(t("carry.merged", { n: added }), { kind: "success" });
  // "Notify me" for all my tables, if this device set it up, reaches the tables carried here
  if (added) void follow(keptAlerts(), store.list().map(({ room, token }) => ({ room, token })));
  if (kept) toast(t("carry.kept", { n: kept }));
  if (!added && !kept) toast(t("carry.none"));
  return true;
}
takeCarried();
// the link opened in a tab that already shows this page: only the fragment changes
window.addEventListener("hashchange", () => {
  if (takeCarried()) void renderMyGames(byId("my-games-list"), byId("my-games-empty"), store).then(showTables);
});

void init();
void renderMyGames(byId("my-games-list"), byId("my-games-empty"), store).then(showTables);
keepMyGamesLive(byId("my-games-list"), byId("my-games-empty"), store, showTables);
