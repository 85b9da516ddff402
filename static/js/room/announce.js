// @ts-check
/**
 * The room's one spoken line: a polite live region that says what just happened
 * and whose turn it is, the result when a game ends, and the answers to the
 * games' "say it in words" keys. Nothing else on the page is a live region for
 * the game, so a screen reader hears one message per change, never three.
 */

/** @typedef {import("./log.js").LogLine} LogLine */

export class Announcer {
  /** @param {HTMLElement} el  a stable element with aria-live="polite" */
  constructor(el) {
    this.el = el;
    /** the seq of the newest log line said (or skipped on the first state) */
    this.seen = -1;
    this.status = "";
    this.text = "";
  }

  /**
   * After a state: the log lines newer than the last ones said, then the status
   * line; written only when that text says something new. The first state of a
   * page says only the status (the history is in the log).
   * @param {LogLine[]} lines  the whole log, oldest first
   * @param {string} status   whose turn it is (the game's status line), or the result
   */
  update(lines, status) {
    const first = this.seen < 0;
    const fresh = first ? [] : lines.filter((line) => line.seq > this.seen);
    if (lines.length) this.seen = Math.max(this.seen, lines[lines.length - 1].seq);
    else if (first) this.seen = 0;
    if (!fresh.length && status === this.status) return;
    this.status = status;
    this.write([...fresh.map((line) => line.text), status].filter(Boolean).join(" "));
  }

  /**
   * Say `text` now (the answer to a key press): said again even when it is what
   * the region holds already.
   * @param {string} text
   */
  say(text) {
    this.write(text === this.text ? `${text}\u00a0` : text);
  }

  /** @param {string} text */
  write(text) {
    if (text === this.text) return;
    this.text = text;
    this.el.textContent = text;
  }
}
