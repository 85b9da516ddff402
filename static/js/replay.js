// @ts-check
/**
 * The replay page (/r/{room}/games/{n}): step through one game with the game's
 * own renderer. The server decides what each step shows (your own hand while
 * the game runs, every hand once it is over); this page only asks for steps,
 * lists the moves, offers the downloads and checks the deal's commitment.
 */

import { gameList, request } from "./api.js";
import { byId, h } from "./dom.js";
import { downloads } from "./formats.js";
import { addStrings, bindLanguageSelect, initLanguage, lang, onLanguageChange, t } from "./i18n.js";
import { toast, toastError } from "./toast.js";
import { seatStore } from "./tokens.js";
import { describeEvent } from "./room/log.js";
import { loadHistory, renderHistory } from "./room/history.js";
import strings from "./replay/strings.js";

addStrings(strings);
initLanguage();
bindLanguageSelect(byId("lang"));

const parts = location.pathname.replace(/\/+$/, "").split("/");
const roomId = decodeURIComponent(parts[2] ?? "");
const gameNo = Number(parts[4] ?? "1");
const token = seatStore().get(roomId)?.token ?? null;
const base = `/api/rooms/${encodeURIComponent(roomId)}/games/${gameNo}`;

const el = {
  title: byId("replay-title"),
  back: /** @type {HTMLAnchorElement} */ (byId("back")),
  gone: byId("gone"),
  goneText: byId("gone-text"),
  controls: byId("controls"),
  first: /** @type {HTMLButtonElement} */ (byId("first")),
  prev: /** @type {HTMLButtonElement} */ (byId("prev")),
  next: /** @type {HTMLButtonElement} */ (byId("next")),
  last: /** @type {HTMLButtonElement} */ (byId("last")),
  slider: /** @type {HTMLInputElement} */ (byId("slider")),
  position: byId("position"),
  stepDraws: byId("step-draws"),
  seenAs: /** @type {HTMLSelectElement} */ (byId("seen-as")),
  visibility: byId("visibility"),
  board: byId("board-root"),
  moves: /** @type {HTMLOListElement} */ (byId("moves")),
  downloads: byId("downloads"),
  commitment: byId("commitment"),
  verify: /** @type {HTMLButtonElement} */ (byId("verify")),
  verifyOut: byId("verify-out"),
  history: byId("history"),
  imported: byId("imported-note"),
};

/** @type {any} */
let info = null;
/** @type {any} */
let game = null;
/** @type {{update: (state: any) => void, destroy: () => void}|null} */
let renderer = null;
/** @type {import("./formats.js").EngineFacts[]} the engines' facts (their file formats) */
let engines = [];
let step = 0;
/** @type {number|null} */
let seenAs = null;
let wanted = 0;
let loading = Promise.resolve();

const auth = () => ({ token });

/** The seats as the renderers expect them in `state.room.seats`. */
function seats() {
  return info.names.map((/** @type {string} */ name, /** @type {number} */ i) => ({
    seat: i,
    name: info.bots[i] ? null : name,
    kind: info.bots[i] ? "bot" : "human",
    bot: info.bots[i],
    online: false,
    to_act: false,
  }));
}

/** Display names, bots in the page's language. */
function names() {
  return info.names.map((/** @type {string} */ name, /** @type {number} */ i) => {
    const bot = info.bots[i];
    if (!bot) return name;
    const label = t(`bot.${bot}`);
    return label === `bot.${bot}` ? name : label;
  });
}

/** @param {any} move */
function moveText(move) {
  const lines = describeEvent(
    { seq: move.seq, kind: "move", seat: move.seat, log: move.log, resigned: move.resigned },
    { names: names(), t, lang: lang(), describeMove: game?.describeMove ?? null },
  );
  return lines.map((line) => line.text).join(" ");
}

/**
 * The cards a move drew, in words; the server tells them only once the game is over.
 * @param {{seat: number, card: any}[]|null|undefined} draws
 * @returns {string[]}
 */
function drawTexts(draws) {
  return (draws ?? []).map((draw) =>
    game?.describeDraw ? game.describeDraw(draw, names(), t) : t("replay.drew", { name: names()[draw.seat] ?? "" }),
  );
}

function renderMoves() {
  const items = [
    h("li", { dataset: { step: 0 } }, h("button", { type: "button", on: { click: () => go(0) } }, t("replay.start", { n: gameNo }))),
    ...info.moves.flatMap((/** @type {any} */ move) => [
      h(
        "li",
        { dataset: { step: move.step } },
        h("button", { type: "button", on: { click: () => go(move.step) } }, `${move.step}. ${moveText(move)}`),
      ),
      // each draw an item of its own, under the move that drew it
      ...drawTexts(move.draws).map((text) =>
        h("li", { class: "replay-draw", dataset: { drawStep: move.step } }, h("button", { type: "button", on: { click: () => go(move.step) } }, text)),
      ),
    ]),
  ];
  el.moves.replaceChildren(...items);
}

function renderSeenAs() {
  const options = [h("option", { value: "" }, t("replay.spectator"))];
  names().forEach((/** @type {string} */ name, /** @type {number} */ i) => {
    const allowed = info.status === "finished" || i === info.you;
    if (allowed) options.push(h("option", { value: String(i) }, name));
  });
  el.seenAs.replaceChildren(...options);
  el.seenAs.value = seenAs == null ? "" : String(seenAs);
  el.visibility.textContent = info.status === "finished" ? t("replay.finished") : `${t("replay.running")} ${t("replay.hidden")}`;
}

function renderDownloads() {
  if (!info.record) {
    el.downloads.replaceChildren(h("p", { class: "muted small" }, t("replay.download_later")));
    return;
  }
  const links = downloads(engines, info.engine, base, t).flatMap((link, i) => [
    i ? " " : "",
    h("a", { href: link.href, download: "", class: "btn btn-small", id: link.id }, link.label),
  ]);
  el.downloads.replaceChildren(...links);
}

function renderImported() {
  // a game made from a file: its moves, and its seed unless the server drew one, came from it
  el.imported.hidden = !info.imported;
  el.imported.textContent = info.imported ? t(info.seed_from === "server" ? "replay.imported_moves" : "replay.imported") : "";
}

function renderVerifyIntro() {
  el.commitment.textContent = info.commitment ? t("replay.commitment", { hash: info.commitment }) : "";
  el.verify.disabled = info.status !== "finished" || !info.commitment;
  if (info.status !== "finished") el.verifyOut.replaceChildren(h("li", { class: "muted small" }, t("replay.verify_wait")));
}

function renderPosition() {
  el.slider.max = String(info.steps);
  el.slider.value = String(step);
  el.position.textContent = step === 0 ? t("replay.start", { n: gameNo }) : t("replay.position", { step, steps: info.steps });
  el.first.disabled = el.prev.disabled = step === 0;
  el.next.disabled = el.last.disabled = step >= info.steps;
  for (const li of el.moves.children) {
    const data = /** @type {HTMLElement} */ (li).dataset;
    const here = Number(data.step ?? data.drawStep) === step;
    li.classList.toggle("current", here);
    if (here && data.step) li.scrollIntoView({ block: "nearest" });
  }
}

/** Show step `target` (clamped); requests are queued so the last one wins. @param {number} target */
function go(target) {
  wanted = Math.max(0, Math.min(info.steps, target));
  loading = loading.then(async () => {
    if (wanted === step && renderer) return;
    const at = wanted;
    const query = seenAs == null ? "" : `?as=${seenAs}`;
    try {
      const data = await request("GET", `${base}/steps/${at}${query}`, auth());
      step = at;
      draw(data);
    } catch (err) {
      toastError(err);
    }
  });
}

/** @param {any} data */
function draw(data) {
  const move = step > 0 ? info.moves[step - 1] : null;
  const state = {
    type: "state",
    seq: move ? move.seq : 0,
    game_seq: move ? move.seq : 0,
    you: data.seen_as,
    room: { id: roomId, game: info.engine, status: info.status, game_no: gameNo, seats: seats() },
    view: data.view,
    to_act: data.to_act,
    legal_moves: [],
    result: data.result,
    events: move ? [{ seq: move.seq, kind: "move", seat: move.seat, log: move.log }] : [],
  };
  if (!renderer) renderer = game.mount(el.board, { onMove: async () => undefined, t });
  renderer.update(state);
  el.board.dataset.step = String(step);
  const drawn = drawTexts(data.draws);
  el.stepDraws.hidden = !drawn.length;
  el.stepDraws.textContent = drawn.length ? t("replay.step_draws", { lines: drawn.join(" ") }) : "";
  renderPosition();
}

/** Hex SHA-256 of a string, or null where the browser offers no subtle crypto. @param {string} text */
async function sha256(text) {
  if (!globalThis.crypto?.subtle) return null;
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

async function verify() {
  el.verify.disabled = true;
  el.verifyOut.replaceChildren(h("li", {}, t("replay.verify_busy")));
  try {
    const record = await request("GET", `${base}/record`);
    const lines = [];
    // the seed comes as a string of digits: read as a number, one above 2^53 is rounded
    // and hashes (and verifies) as another seed; a string is sent back exactly as it came
    const hash = await sha256(`${String(record.seed)}:${record.salt}`);
    if (hash != null) {
      const same = hash === info.commitment;
      lines.push(h("li", { class: same ? "ok" : "bad" }, same ? t("replay.verify_hash_ok", { hash: hash.slice(0, 12) }) : t("replay.verify_hash_bad")));
    }
    const check = await request("POST", "/api/records/verify", { body: record });
    lines.push(
      h("li", { class: check.ok ? "ok" : "bad", id: "verify-result" }, check.ok ? t("replay.verify_ok", { message: check.message }) : t("replay.verify_bad", { message: check.message })),
    );
    if (check.imported && check.seed_from === "record") {
      lines.push(h("li", { class: "warn", id: "verify-imported" }, t("replay.verify_imported")));
    }
    el.verifyOut.replaceChildren(...lines);
  } catch (err) {
    el.verifyOut.replaceChildren();
    toastError(err);
  } finally {
    el.verify.disabled = false;
  }
}

async function refreshHistory() {
  try {
    renderHistory(el.history, roomId, await loadHistory(roomId), { t, lang: lang(), current: gameNo });
  } catch {
    el.history.replaceChildren();
  }
}

function renderTexts() {
  el.title.textContent = t("replay.title", { n: gameNo });
  document.title = `${t("replay.title", { n: gameNo })} · Spieltisch`;
  renderMoves();
  renderSeenAs();
  renderDownloads();
  renderImported();
  renderVerifyIntro();
  renderPosition();
}

async function main() {
  el.back.href = `/r/${encodeURIComponent(roomId)}`;
  try {
    info = await request("GET", base, auth());
  } catch (err) {
    el.gone.hidden = false;
    el.controls.hidden = true;
    el.goneText.textContent = t("replay.no_game");
    toastError(err);
    return;
  }
  try {
    engines = await gameList();
  } catch {
    // offline: the JSON record is offered, an engine's own formats once the list comes
  }
  game = await import(`./games/${encodeURIComponent(info.engine)}.js`);
  const css = `/static/css/games/${encodeURIComponent(info.engine)}.css`;
  if (!document.querySelector(`link[href="${css}"]`)) document.head.append(h("link", { rel: "stylesheet", href: css }));
  seenAs = info.you ?? (info.status === "finished" ? 0 : null);
  renderTexts();
  const fromHash = Number(new URLSearchParams(location.hash.slice(1)).get("step"));
  go(Number.isFinite(fromHash) && fromHash > 0 ? fromHash : info.status === "finished" ? 0 : info.steps);
  refreshHistory();

  el.first.addEventListener("click", () => go(0));
  el.prev.addEventListener("click", () => go(wanted - 1));
  el.next.addEventListener("click", () => go(wanted + 1));
  el.last.addEventListener("click", () => go(info.steps));
  el.slider.addEventListener("input", () => go(Number(el.slider.value)));
  el.seenAs.addEventListener("change", () => {
    seenAs = el.seenAs.value === "" ? null : Number(el.seenAs.value);
    renderer?.destroy();
    renderer = null;
    step = -1;
    go(wanted);
  });
  el.verify.addEventListener("click", verify);
  document.addEventListener(
    "keydown",
    (event) => {
      const target = /** @type {HTMLElement|null} */ (event.target);
      if (target && (target.tagName === "INPUT" || target.tagName === "SELECT" || target.tagName === "TEXTAREA")) return;
      const moves = { ArrowLeft: wanted - 1, ArrowRight: wanted + 1, Home: 0, End: info.steps };
      if (!(event.key in moves)) return;
      event.preventDefault();
      event.stopImmediatePropagation();
      go(moves[/** @type {keyof typeof moves} */ (event.key)]);
    },
    { capture: true },
  );
  onLanguageChange(() => {
    renderTexts();
    refreshHistory();
  });
}

main().catch((err) => {
  console.error(err);
  toast(String(err), { kind: "error" });
});
