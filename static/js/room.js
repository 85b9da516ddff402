// @ts-check
/**
 * The room page (/r/{room}): seats, share link, board, log, chat, result. It
 * knows no game: the renderer `games/<game>.js` is loaded by the room's game
 * name and draws the board; its `describeMove` words the log.
 */

import { AlertsPanel } from "./alerts.js";
import * as api from "./api.js";
import { byId, h, replace } from "./dom.js";
import { bindLanguageSelect, initLanguage, lang, onLanguageChange, t } from "./i18n.js";
import { mergeEvents } from "./messages.js";
import { RoomSocket } from "./net.js";
import { TurnSignal } from "./notify.js";
import { toast, toastError } from "./toast.js";
import { accepted, chooseToken, refused } from "./resume.js";
import { hashWithoutToken, pref, seatStore, tokenFromHash } from "./tokens.js";
import { renderChat } from "./room/chat.js";
import { UnreadChat, titleWithUnread, watchChat } from "./room/unread.js";
import { renderReplayExtras } from "./room/extras.js";
import { SinceBoard } from "./room/sinceboard.js";
import { describeEvent } from "./room/log.js";
import { seatNames } from "./room/names.js";
import { levelChoices, standInLevel } from "./room/levels.js";
import { resultHeadline, renderRematchBar, renderResult } from "./room/result.js";
import { Announcer } from "./room/announce.js";
import { renderClaimForm, renderSeats } from "./room/seats.js";
import { renderShare } from "./room/share.js";
import { settingsForm } from "./room/settings.js";
import { renderUndo } from "./room/undo.js";
import { askToConfirm, needsConfirm } from "./room/confirmmove.js";
import { closeOnBackdrop, openHelp } from "./room/help.js";
import { TurnSound } from "./sound.js";
import { RoomClocks } from "./room/clocks.js";
import { renderRoomAway } from "./away.js";
import { confirmChoice, confirmDialog } from "./room/confirm.js";
import { turnTimeLabel } from "./timeleft.js";
import { keepFocus } from "./games/sending.js";
import { lastStates } from "./laststate.js";
import { startOfflineShell } from "./offline.js";

/** @typedef {import("./messages.js").StateMessage} StateMessage */
/** @typedef {import("./messages.js").RoomEvent} RoomEvent */
/**
 * A mounted renderer. `showSince(before)` marks on the board what differs from
 * `before`, the seat's view right after its previous move (null: no marks).
 * @typedef {{update: (state: StateMessage) => void, destroy: () => void, showSince?: (before: any) => void}} Renderer
 */
/**
 * What a game's renderer module exports.
 * @typedef {object} GameModule
 * @property {(root: HTMLElement, options: {onMove: (move: unknown) => Promise<unknown>, t: typeof t, say: (text: string) => void}) => Renderer} mount
 * @property {import("./room/log.js").DescribeMove} [describeMove]
 * @property {(result: any, names: string[], tr: typeof t) => string[]} [resultDetails]
 * @property {(room: import("./messages.js").StateMessage["room"], tr: typeof t) => string[]} [howToPlay]
 */

initLanguage();
bindLanguageSelect(byId("lang"));
startOfflineShell();

const roomId = decodeURIComponent(location.pathname.replace(/\/+$/, "").split("/").pop() ?? "");
const seats = seatStore();
const kept = lastStates();

// a resume link: try its token, take it out of the address bar (and so out of history);
// it replaces the stored token only once the server accepts it (see resume.js)
const fromHash = tokenFromHash(location.hash);
if (fromHash) {
  history.replaceState(history.state, "", location.pathname + location.search + hashWithoutToken(location.hash));
}
let choice = chooseToken(fromHash, seats.get(roomId)?.token ?? null);
let token = choice.token;
/** @type {StateMessage|null} */
let current = null;
/** @type {RoomEvent[]} */
let events = [];
/** @type {GameModule|null} */
let game = null;
let gameName = "";
/** @type {Renderer|null} */
let renderer = null;
/** @type {number|null} */
let claiming = null;
let resultClosedFor = -1;
let resultFocusedFor = -1;
/** whether the keyboard was last inside the board (a redraw may take the focused control away) */
let boardHadFocus = false;
/** @type {import("./api.js").GameInfo[]} */
let games = [];
let queue = Promise.resolve();
/** @type {string|null} the server's PUBLIC_URL: share and resume links use it when set */
let publicUrl = null;
/** the state shown is the one this browser kept, not yet one from the server (offline) */
let offline = false;

const el = {
  title: byId("room-title"),
  sub: byId("room-sub"),
  conn: byId("conn"),
  notify: /** @type {HTMLButtonElement} */ (byId("notify-btn")),
  helpBtn: /** @type {HTMLButtonElement} */ (byId("help-btn")),
  help: /** @type {HTMLDialogElement} */ (byId("help")),
  soundBtn: /** @type {HTMLButtonElement} */ (byId("sound-btn")),
  gone: byId("gone"),
  lobby: byId("lobby"),
  result: byId("result"),
  rematchBar: byId("rematch-bar"),
  board: byId("board-root"),
  seats: byId("seats"),
  seatForm: byId("seat-form"),
  share: byId("share"),
  log: /** @type {HTMLOListElement} */ (byId("log")),
  chatList: /** @type {HTMLOListElement} */ (byId("chat-list")),
  chatForm: /** @type {HTMLFormElement} */ (byId("chat-form")),
  chatInput: /** @type {HTMLInputElement} */ (byId("chat-input")),
  chatNote: byId("chat-note"),
  imported: byId("imported-note"),
  offline: byId("offline-note"),
  undo: byId("undo-bar"),
  confirm: byId("confirm-bar"),
};
const announcer = new Announcer(byId("announce"));

const gameTitle = () => (current ? titleOf(current.room.game, current.room.title) : "");
/** @param {string} name @param {string} fallback */
function titleOf(name, fallback) {
  const key = `game.${name}.title`;
  const text = t(key);
  return text === key ? fallback : text;
}
const sound = new TurnSound({ store: pref });
const clocks = new RoomClocks(roomId, () => renderSeatList());
const sinceBoard = new SinceBoard(roomId);
const unread = new UnreadChat();
const signal = new TurnSignal(
  () => (current ? `${gameTitle()} · Spieltisch` : "Spieltisch"),
  (title) => titleWithUnread(title, unread.count),
);
const chatMarks = watchChat(unread, {
  list: el.chatList,
  badge: byId("chat-unread"),
  jump: /** @type {HTMLButtonElement} */ (byId("chat-jump")),
  changed: () => signal.refresh(),
});

const socket = new RoomSocket(roomId, token, {
  onState: (msg) => {
    queue = queue.then(() => receive(msg)).catch((err) => console.error(err));
  },
  onPresence: (msg) => {
    if (!current) return;
    msg.online.forEach((on, i) => {
      const seat = current?.room.seats[i];
      if (seat) seat.online = on;
    });
    renderSeatList();
  },
  onStatus: (status, reason) => showConnection(status, reason),
  onError: (msg) => toastError(msg),
  onBadToken: () => {
    const next = refused(choice);
    if (next.forget) {
      seats.remove(roomId);
      kept.remove(roomId);
    }
    choice = next.choice;
    token = choice.token;
    toast(t(next.message), { kind: "error" });
    return token;
  },
  onEvents: (missed) => {
    queue = queue.then(() => {
      events = mergeEvents(events, missed);
      // older events came in after newer ones: the log and the chat are drawn afresh
      el.log.replaceChildren();
      el.chatList.replaceChildren();
      delete el.chatList.dataset.last;
      render();
    });
  },
});

/** @param {import("./net.js").Status} status @param {string} [reason] */
function showConnection(status, reason) {
  if (status === "reconnecting") showKept();
  el.conn.className = `conn conn-${status}`;
  const text = /** @type {HTMLElement} */ (el.conn.querySelector(".conn-text"));
  text.textContent = t(`net.${status}`);
  el.conn.title = reason ? t(reason) : "";
  el.conn.dataset.status = status;
  if (status === "gone") {
    // the table is no more: nothing kept of it is worth showing again
    kept.remove(roomId);
    offline = false;
    el.offline.hidden = true;
    el.gone.hidden = false;
    el.lobby.hidden = true;
    el.result.hidden = true;
    el.rematchBar.hidden = true;
    el.board.replaceChildren();
  }
}

/** Load the room's renderer once (by its game name). @param {string} name */
async function loadGame(name) {
  if (gameName === name) return; // loaded, or known to be missing
  gameName = name;
  try {
    game = /** @type {GameModule} */ (await import(`./games/${encodeURIComponent(name)}.js`));
  } catch (err) {
    console.error(err);
    game = null;
    toast(t("room.no_renderer", { game: name }), { kind: "error" });
    return;
  }
  const css = `/static/css/games/${encodeURIComponent(name)}.css`;
  if (!document.querySelector(`link[href="${css}"]`)) {
    document.head.append(h("link", { rel: "stylesheet", href: css }));
  }
}

/**
 * No server to be heard (offline, or it does not answer): show the last state this
 * browser kept of its seat here, marked as offline, until the socket brings a fresh one.
 */
function showKept() {
  if (current) return;
  const msg = kept.get(roomId);
  if (!msg) return;
  queue = queue
    .then(async () => {
      if (current) return;
      await loadGame(msg.room.game);
      if (current) return;
      events = mergeEvents(events, msg.events);
      current = msg;
      offline = true;
      render();
    })
    .catch((err) => console.error(err));
}

/** @param {StateMessage} msg */
async function receive(msg) {
  events = mergeEvents(events, msg.events);
  await loadGame(msg.room.game);
  current = msg;
  offline = false;
  if (msg.you != null && token && token === choice.token) {
    if (choice.trial) choice = accepted(choice);
    seats.set(roomId, { token, seat: msg.you, game: msg.room.game, name: msg.room.seats[msg.you]?.name ?? "" });
    alertsPanel.follow(); // "Notify me" for all my tables reaches a seat taken since
    kept.save(roomId, msg, events);
  }
  render();
}

/** Show a state that came back from a REST call (it carries no events). @param {StateMessage} msg */
function adopt(msg) {
  if (current && msg.seq < current.seq) return;
  queue = queue.then(() => receive({ ...msg, events: [] }));
}

function names() {
  return current ? seatNames(current.room.seats, t) : [];
}

function canStart() {
  if (!current || current.you == null) return false;
  return current.you === current.room.host_seat || !!current.room.rules?.anyone_can_start;
}

function render() {
  if (!current) return;
  const { room, you } = current;
  el.title.textContent = gameTitle();
  const status = t(`room.status.${room.status}`, { n: room.game_no });
  el.sub.textContent = room.rules?.turn_seconds ? `${status} · ${turnTimeLabel(room.rules.turn_seconds, t)}` : status;
  clocks.update(current);
  // made from a game record: whoever imported it chose its moves and its shuffle
  el.imported.hidden = !room.imported;
  el.imported.textContent = room.imported ? t(room.game_imported ? "room.imported_game" : "room.imported_table") : "";
  el.offline.hidden = !offline;
  el.offline.textContent = offline ? t("offline.room") : "";
  renderSeatList();
  renderClaimForm(el.seatForm, claiming, {
    t,
    name: pref("name") ?? "",
    onSubmit: claim,
    onCancel: () => {
      claiming = null;
      render();
    },
  });
  renderShare(el.share, { room: roomId, token, seated: you != null, t, origin: publicUrl });
  renderLobby();
  renderUndo(el.undo, current, { t, names: names(), onTakeBack: (ask) => void undoMove(ask), onAccept: () => void answerUndo(true), onDecline: () => void answerUndo(false) });
  renderBoard();
  const lines = renderLog();
  renderReplayExtras({ roomId, current, events, names: names(), game, t, lang: lang(), since: byId("since"), log: el.log, history: byId("history") });
  renderChat(el.chatList, events, { you, lang: lang() });
  unread.take(events, you, chatMarks.inView());
  chatMarks.show();
  el.chatInput.disabled = you == null;
  el.chatNote.hidden = you != null;
  el.chatNote.textContent = t("chat.sit_to_chat");
  const results = room.status === "finished" && current.result && resultClosedFor !== room.game_no;
  if (results) {
    renderResult(el.result, current, {
      t,
      lang: lang(),
      names: names(),
      canRematch: canStart(),
      details: game?.resultDetails?.(current.result, names(), t) ?? [],
      onRematch: start,
      onClose: () => {
        resultClosedFor = room.game_no;
        render();
      },
    });
  } else el.result.hidden = true;
  const over = room.status === "finished" && (current.result || room.aborted);
  announcer.update(lines, over ? `${t("result.game_over")} ${room.aborted ? t("log.aborted") : resultHeadline(current, names(), t, lang())}` : room.status === "playing" ? boardStatus() : el.sub.textContent ?? "");
  if (results && resultFocusedFor !== room.game_no) {
    // the game just ended (or the page opened on its result): the keyboard starts at the result
    resultFocusedFor = room.game_no;
    /** @type {HTMLElement|null} */ (el.result.querySelector("#result-title"))?.focus();
  }
  if (over && !results) {
    renderRematchBar(el.rematchBar, current, {
      t,
      names: names(),
      canRematch: canStart(),
      onRematch: start,
      onShowResult: () => {
        resultClosedFor = -1;
        render();
      },
    });
  } else el.rematchBar.hidden = true;
  const myTurn = room.status === "playing" && you != null && current.to_act.includes(you);
  signal.update(myTurn, t("turn.notification_body", { game: gameTitle() }));
  sound.update(myTurn);
  renderSoundButton();
  el.helpBtn.hidden = !game?.howToPlay;
  document.body.classList.toggle("my-turn", myTurn);
  renderNotifyButton();
}

function renderSeatList() {
  if (!current) return;
  const room = current.room;
  renderRoomAway(byId("room-away"), current, { t, lang: lang(), roomId, token, onState: adopt, onError: (text) => toast(text, { kind: "error" }) });
  renderSeats(el.seats, current, {
    t,
    lang: lang(),
    bots: games.find((g) => g.name === room.game)?.bots ?? [],
    onTake: (seat) => {
      claiming = seat;
      render();
    },
    onSetBot: async (seat, bot) => {
      try {
        await api.setBot(roomId, seat, bot, token);
      } catch (err) {
        toastError(err);
        render();
      }
    },
    clockText: (seat) => clocks.text(seat, t),
    onLeave: () => void leave(),
    onTakeBack: (seat) => void takeBack(seat),
    onHandOver: (seat) => void handOver(seat),
    onFree: (seat) => void freeSeat(seat),
    onMakeHost: (seat) => void makeHost(seat),
    onStandUp: () => void standUp(),
    onResign: () => void resign(),
    onAbort: () => void abortVote(),
  });
}

/**
 * The bots a person may pick to play a seat, the room's stand-in chosen first.
 * @param {string} label
 * @returns {import("./room/confirm.js").Choice}
 */
function botChoice(label) {
  const room = current?.room;
  const bots = games.find((g) => g.name === room?.game)?.bots ?? [];
  return { label, value: standInLevel(room?.rules, bots), options: levelChoices(bots, t) };
}

async function resign() {
  const ok = await confirmDialog({ title: t("seat.resign_title"), text: t("seat.resign_text"), confirm: t("seat.resign_confirm"), cancel: t("common.cancel") });
  if (!ok || !current) return;
  try {
    adopt(await api.resign(roomId, token, current.seq));
  } catch (err) {
    toastError(err);
  }
}

async function abortVote() {
  const first = !(current?.room.abort_votes ?? []).length;
  const ok = await confirmDialog({
    title: t(first ? "seat.abort_propose_title" : "seat.abort_agree_title"),
    text: t("seat.abort_text"),
    confirm: t(first ? "seat.abort_propose" : "seat.abort_agree"),
    cancel: t("common.cancel"),
  });
  if (!ok) return;
  try {
    adopt(await api.abortGame(roomId, token));
  } catch (err) {
    toastError(err);
  }
}

/** Take back my last move, or ask the others to. @param {boolean} ask */
async function undoMove(ask) {
  if (!current) return;
  try {
    adopt(await api.undoMove(roomId, token, ask, current.seq));
  } catch (err) {
    toastError(err);
  }
}

/** Agree to the take-back asked for, or decline it (the asker: withdraw it). @param {boolean} yes */
async function answerUndo(yes) {
  try {
    adopt(await (yes ? api.acceptUndo(roomId, token) : api.declineUndo(roomId, token)));
  } catch (err) {
    toastError(err);
  }
}

async function standUp() {
  const ok = await confirmDialog({ title: t("seat.stand_up_title"), text: t("seat.stand_up_text"), confirm: t("seat.stand_up_confirm"), cancel: t("common.cancel") });
  if (!ok) return;
  try {
    const msg = await api.standUp(roomId, token);
    // the token holds nothing here any more: watch as a spectator, free to sit down again
    seats.remove(roomId);
    token = null;
    choice = { token: null, kept: null, trial: false };
    socket.setToken(null);
    adopt(msg);
    toast(t("seat.stood_up"), { kind: "success", timeout: 2500 });
  } catch (err) {
    toastError(err);
  }
}

/** @param {import("./room/settings.js").NewSettings} body */
async function saveSettings(body) {
  try {
    await api.changeSettings(roomId, body, token);
    toast(t("settings.saved"), { kind: "success", timeout: 2500 });
  } catch (err) {
    toastError(err);
  }
}

async function leave() {
  const between = current?.room.status !== "playing";
  const words = { title: t(between ? "seat.leave_next_title" : "seat.leave_title"), text: t(between ? "seat.leave_next_text" : "seat.leave_text"), confirm: t("seat.leave_confirm"), cancel: t("common.cancel") };
  const bot = await confirmChoice(words, botChoice(t("seat.stand_in_choice")));
  if (bot === null) return;
  try {
    adopt(await api.leaveGame(roomId, token, bot || null));
    toast(t("seat.left"), { kind: "success", timeout: 2500 });
  } catch (err) {
    toastError(err);
  }
}

/** @param {number} seat */
async function takeBack(seat) {
  try {
    adopt(await api.takeBack(roomId, seat, token));
    toast(t("seat.taken_back"), { kind: "success", timeout: 2500 });
  } catch (err) {
    toastError(err);
  }
}

/** @param {number} seat */
async function handOver(seat) {
  const name = names()[seat] ?? "";
  const words = {
    title: t("seat.hand_over_title", { name }),
    text: t("seat.hand_over_text", { name }),
    confirm: t("seat.hand_over_confirm"),
    cancel: t("common.cancel"),
  };
  const bot = await confirmChoice(words, botChoice(t("seat.hand_over_choice", { name })));
  if (bot === null) return;
  try {
    await api.handOver(roomId, seat, token, bot || null);
  } catch (err) {
    toastError(err);
  }
}

/** @param {number} seat */
async function freeSeat(seat) {
  const name = names()[seat] ?? "";
  const ok = await confirmDialog({
    title: t("seat.free_title", { name }),
    text: t(current?.room.status === "playing" ? "seat.free_text" : "seat.free_waiting_text", { name }),
    confirm: t("seat.free_confirm"),
    cancel: t("common.cancel"),
  });
  if (!ok) return;
  try {
    await api.freeSeat(roomId, seat, token);
  } catch (err) {
    toastError(err);
  }
}

/** @param {number} seat */
async function makeHost(seat) {
  const name = names()[seat] ?? "";
  const ok = await confirmDialog({
    title: t("seat.make_host_title", { name }),
    text: t("seat.make_host_text", { name }),
    confirm: t("seat.make_host_confirm"),
    cancel: t("common.cancel"),
  });
  if (!ok) return;
  try {
    await api.makeHost(roomId, seat, token);
    toast(t("seat.made_host", { name }), { kind: "success", timeout: 2500 });
  } catch (err) {
    toastError(err);
  }
}

function renderLobby() {
  if (!current) return;
  const { room, you } = current;
  if (room.status !== "lobby") {
    el.lobby.hidden = true;
    return;
  }
  const taken = room.seats.filter((s) => s.kind !== "empty").length;
  const full = taken === room.players;
  const host = room.host_seat == null ? "" : names()[room.host_seat] ?? "";
  const info = games.find((g) => g.name === room.game);
  el.lobby.hidden = false;
  replace(
    el.lobby,
    h("h2", {}, t("lobby_room.title")),
    h("p", {}, t("lobby_room.seated", { taken, total: room.players })),
    you == null
      ? full
        ? h("p", { class: "muted" }, t("lobby_room.watching"))
        : h("div", { class: "lobby-actions" }, h("p", { class: "muted" }, t("lobby_room.take_seat")), h("a", { class: "btn btn-small", href: "#seats-title", id: "to-seats" }, t("lobby_room.to_seats")))
      : canStart()
        ? h(
            "div",
            { class: "lobby-actions" },
            h("button", { type: "button", id: "start", class: "btn btn-primary btn-large", disabled: !full, on: { click: start } }, t("lobby_room.start")),
            full ? null : h("p", { class: "muted small" }, t("lobby_room.need_players")),
          )
        : h("p", { class: "muted" }, t("lobby_room.wait_host", { name: host })),
    info && you != null && you === room.host_seat ? hostSettings(room, info) : null,
  );
}

/** @type {{key: string, form: HTMLElement}|null} the host's settings form, kept while it is filled in */
let settingsShown = null;

/**
 * The host's settings form, built anew only when the settings or the language change
 * (a push for anything else leaves what the host is choosing alone).
 * @param {StateMessage["room"]} room @param {import("./api.js").GameInfo} info
 */
function hostSettings(room, info) {
  const key = JSON.stringify([room.players, room.options, room.rules, lang()]);
  if (settingsShown?.key !== key) settingsShown = { key, form: settingsForm(room, info, t, saveSettings) };
  return settingsShown.form;
}

function renderBoard() {
  if (!current || !game) return;
  if (!current.view) {
    renderer?.destroy();
    renderer = null;
    return;
  }
  if (!renderer) renderer = game.mount(el.board, { onMove: move, t, say: (text) => announcer.say(text) });
  renderer.update(current);
  // your turn: what changed since your previous move, marked on the board
  renderer.showSince?.(sinceBoard.before(current, events, token, (before) => renderer?.showSince?.(before)));
  if (boardHadFocus) keepFocus(el.board);
}

/** The board's status line: whose turn it is, in the game's words. */
function boardStatus() {
  return el.board.querySelector(".game-status")?.textContent?.trim() ?? "";
}

/** @returns {import("./room/log.js").LogLine[]} every line of the log */
function renderLog() {
  const lines = events.flatMap((e) => describeEvent(e, { names: names(), t, lang: lang(), describeMove: game?.describeMove ?? null }));
  const stick = el.log.scrollHeight - el.log.scrollTop - el.log.clientHeight < 40;
  const shown = Number(el.log.dataset.count ?? 0);
  if (shown > lines.length || el.log.dataset.lang !== lang()) {
    el.log.replaceChildren();
  }
  const start = el.log.children.length;
  for (const line of lines.slice(start)) {
    el.log.append(h("li", { class: `log-${line.kind}`, dataset: { seq: line.seq } }, line.text));
  }
  el.log.dataset.count = String(lines.length);
  el.log.dataset.lang = lang();
  if (stick || start === 0) el.log.scrollTop = el.log.scrollHeight;
  return lines;
}

function renderSoundButton() {
  el.soundBtn.setAttribute("aria-pressed", String(sound.on));
  el.soundBtn.title = t(sound.on ? "sound.on" : "sound.off");
  el.soundBtn.dataset.chimes = String(sound.played);
}

function showHelp() {
  if (!current) return;
  openHelp(el.help, { title: gameTitle(), lines: game?.howToPlay?.(current.room, t) ?? [], t });
}

function renderNotifyButton() {
  el.notify.hidden = current?.you == null;
}

/** @param {unknown} moveBody */
async function move(moveBody) {
  if (!current) throw new Error("no state yet");
  // a move that can't be taken back, in a room that confirms those: a second click first
  if (needsConfirm(current.confirm, current.legal_moves ?? [], moveBody) && !(await askToConfirm(el.confirm, t))) {
    throw new Error("not confirmed");
  }
  if (!current) throw new Error("no state yet");
  try {
    if (socket.open) await socket.move(current.seq, moveBody);
    else adopt(await api.playMove(roomId, token, current.seq, moveBody));
  } catch (err) {
    toastError(err);
    throw err;
  }
}

async function start() {
  try {
    adopt(await api.startGame(roomId, token));
  } catch (err) {
    toastError(err);
  }
}

/** @param {number} seat @param {string} name */
async function claim(seat, name) {
  try {
    const res = await api.claimSeat(roomId, seat, name, token);
    token = res.token;
    choice = accepted({ token, kept: token, trial: false });
    seats.set(roomId, { token: res.token, seat: res.seat, name });
    pref("name", name);
    claiming = null;
    socket.setToken(token);
    adopt(res.state);
    toast(t("seat.claimed", { n: res.seat + 1 }), { kind: "success", timeout: 2500 });
  } catch (err) {
    toastError(err);
  }
}

el.chatForm.addEventListener("submit", async (e) => {
  e.preventDefault();
  const text = el.chatInput.value.trim();
  if (!text) return;
  try {
    if (socket.open) await socket.chat(text);
    else await api.chat(roomId, token, text);
    el.chatInput.value = "";
  } catch (err) {
    toastError(err);
  }
});

const alertsPanel = new AlertsPanel(roomId, () => token);
el.notify.addEventListener("click", () => alertsPanel.open());

document.addEventListener("focusin", (e) => {
  boardHadFocus = e.target instanceof Node && el.board.contains(e.target);
});

el.helpBtn.addEventListener("click", showHelp);
closeOnBackdrop(el.help);
el.soundBtn.addEventListener("click", () => {
  sound.set(!sound.on);
  renderSoundButton();
});
document.addEventListener("pointerdown", () => sound.unlock(), { once: true });

onLanguageChange(() => {
  renderer?.destroy();
  renderer = null;
  showConnection(socket.status);
  render();
  signal.refresh();
  if (el.help.open) showHelp();
});

showConnection("connecting");
if (navigator.onLine === false) showKept();
renderSoundButton();
api
  .gameList()
  .then((list) => {
    games = list;
    render();
  })
  .catch(() => {
    // without the list the host can still seat people; bot seats stay as they are
  });
api
  .siteConfig()
  .then((config) => {
    publicUrl = config.public_url;
    render();
  })
  .catch(() => {
    // the links then use the address this page was opened at
  });
socket.connect();
window.addEventListener("pagehide", () => socket.close());
window.addEventListener("pageshow", (e) => {
  if (e.persisted) socket.connect();
});
