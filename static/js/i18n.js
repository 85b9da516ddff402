// @ts-check
/**
 * Every string the pages show goes through `t(key, params)`. English, German and
 * French tables live in `locales/`; a game's renderer adds its own with
 * `addStrings`. The language follows the browser until the player picks one
 * (remembered in localStorage). The formatting helpers are pure and exported for tests.
 */

import en from "./locales/en.js";
import de from "./locales/de.js";
import fr from "./locales/fr.js";

/** @typedef {"en"|"de"|"fr"} Lang */
/** @typedef {string | {[form: string]: string}} Entry  a text, or plural forms ("one", "other", …) */
/** @typedef {Record<string, Entry>} Table */
/** @typedef {(key: string, params?: Record<string, unknown>) => string} Translate */

/** @type {readonly Lang[]} */
export const LANGUAGES = Object.freeze(["en", "de", "fr"]);
export const LANGUAGE_NAMES = Object.freeze({ en: "English", de: "Deutsch", fr: "Français" });
const STORE_KEY = "spieltisch.lang";

/** @type {Record<Lang, Table>} */
const tables = { en: { ...en }, de: { ...de }, fr: { ...fr } };
/** @type {Lang} */
let current = "en";
/** @type {Set<(lang: Lang) => void>} */
const listeners = new Set();

/**
 * The language to use: the remembered choice, else the browser's first supported one, else English.
 * @param {string|null|undefined} stored
 * @param {readonly string[]} browser  e.g. navigator.languages
 * @returns {Lang}
 */
export function detectLanguage(stored, browser) {
  const ok = /** @param {string|null|undefined} l @returns {l is Lang} */ (l) =>
    !!l && /** @type {readonly string[]} */ (LANGUAGES).includes(l);
  if (ok(stored)) return stored;
  for (const tag of browser) {
    const base = tag.toLowerCase().split("-")[0];
    if (ok(base)) return base;
  }
  return "en";
}

/**
 * Fill `{name}` placeholders; unknown ones stay visible so a gap is noticed.
 * @param {string} template
 * @param {Record<string, unknown>} [params]
 */
export function format(template, params = {}) {
  return template.replace(/\{(\w+)\}/g, (whole, name) =>
    Object.prototype.hasOwnProperty.call(params, name) ? String(params[name]) : whole,
  );
}

/**
 * Look a key up in `lang`, falling back to English, then to the key itself.
 * An entry with plural forms picks one by `params.count`.
 * @param {Record<string, Table>} all
 * @param {string} lang
 * @param {string} key
 * @param {Record<string, unknown>} [params]
 */
export function translate(all, lang, key, params = {}) {
  const entry = all[lang]?.[key] ?? all.en?.[key];
  if (entry === undefined) return key;
  if (typeof entry === "string") return format(entry, params);
  const count = Number(params.count ?? 0);
  const form = new Intl.PluralRules(lang).select(count);
  const text = entry[form] ?? entry.other ?? Object.values(entry)[0] ?? key;
  return format(text, params);
}

/** @type {Translate} */
export function t(key, params) {
  return translate(tables, current, key, params);
}

/** Whether a key exists (in any language). @param {string} key */
export function has(key) {
  return key in tables.en || key in tables[current];
}

/** @returns {Lang} */
export function lang() {
  return current;
}

/**
 * Add a renderer's strings: `{en: {...}, de: {...}, fr: {...}}`.
 * @param {Partial<Record<Lang, Table>>} bundle
 */
export function addStrings(bundle) {
  for (const l of LANGUAGES) Object.assign(tables[l], bundle[l] ?? {});
}

/** @param {(lang: Lang) => void} fn @returns {() => void} unsubscribe */
export function onLanguageChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/**
 * Switch language, remember it, retranslate the static page and tell listeners.
 * @param {Lang} next
 * @param {{remember?: boolean}} [options]
 */
export function setLanguage(next, { remember = true } = {}) {
  current = next;
  if (remember) {
    try {
      globalThis.localStorage?.setItem(STORE_KEY, next);
    } catch {
      // not remembered: fine
    }
  }
  if (typeof document !== "undefined") {
    document.documentElement.lang = next;
    translatePage(document);
  }
  for (const fn of listeners) fn(next);
}

/** Pick the language from storage and the browser; call once per page. */
export function initLanguage() {
  let stored = null;
  try {
    stored = globalThis.localStorage?.getItem(STORE_KEY) ?? null;
  } catch {
    stored = null;
  }
  const browser = typeof navigator !== "undefined" ? navigator.languages ?? [navigator.language] : [];
  setLanguage(detectLanguage(stored, browser), { remember: false });
}

/**
 * Translate the static markup: `data-i18n` (text), `data-i18n-aria` (aria-label),
 * `data-i18n-title`, `data-i18n-placeholder`.
 * @param {ParentNode} root
 */
export function translatePage(root) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(/** @type {HTMLElement} */ (el).dataset.i18n ?? "");
  for (const [attr, data] of [
    ["aria-label", "i18nAria"],
    ["title", "i18nTitle"],
    ["placeholder", "i18nPlaceholder"],
  ]) {
    const selector = `[data-${data.replace(/[A-Z]/g, (c) => "-" + c.toLowerCase())}]`;
    for (const el of root.querySelectorAll(selector)) {
      el.setAttribute(attr, t(/** @type {HTMLElement} */ (el).dataset[data] ?? ""));
    }
  }
}

/**
 * A language `<select>` wired to `setLanguage`.
 * @param {HTMLSelectElement} select
 */
export function bindLanguageSelect(select) {
  select.replaceChildren(
    ...LANGUAGES.map((l) => {
      const option = document.createElement("option");
      option.value = l;
      option.textContent = LANGUAGE_NAMES[l];
      option.lang = l;
      return option;
    }),
  );
  select.value = current;
  select.addEventListener("change", () => setLanguage(/** @type {Lang} */ (select.value)));
  onLanguageChange((l) => {
    select.value = l;
  });
}

/** For tests: the raw tables. */
export function tablesForTest() {
  return tables;
}
