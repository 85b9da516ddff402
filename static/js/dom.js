// @ts-check
/**
 * A tiny element builder. Text always goes in as text nodes (never innerHTML),
 * so names and chat from other people can't inject markup.
 */

const SVG_NS = "http://www.w3.org/2000/svg";

/**
 * @typedef {Record<string, any>} Props
 * `class`, `text`, `dataset` ({key: value}), `on` ({event: handler}), `style`
 * (object), anything else becomes an attribute (false/null/undefined: left out).
 */

/** @typedef {Node|string|number|null|undefined|false} Child */

/**
 * @param {Element} el
 * @param {Props} props
 */
function applyProps(el, props) {
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") el.setAttribute("class", Array.isArray(value) ? value.filter(Boolean).join(" ") : value);
    else if (key === "text") el.textContent = String(value);
    else if (key === "dataset") for (const [k, v] of Object.entries(value)) /** @type {HTMLElement} */ (el).dataset[k] = String(v);
    else if (key === "on") for (const [k, v] of Object.entries(value)) el.addEventListener(k, v);
    else if (key === "style" && typeof value === "object") Object.assign(/** @type {HTMLElement} */ (el).style, value);
    else if (key === "value" && "value" in el) /** @type {HTMLInputElement} */ (el).value = String(value);
    else if (key === "checked" && "checked" in el) /** @type {HTMLInputElement} */ (el).checked = Boolean(value);
    else el.setAttribute(key, value === true ? "" : String(value));
  }
}

/**
 * @param {Element} el
 * @param {Child[]} children
 */
function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(typeof child === "object" ? child : document.createTextNode(String(child)));
  }
}

/**
 * An HTML element.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Props} [props]
 * @param {...(Child|Child[])} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, props = {}, ...children) {
  const el = document.createElement(tag);
  applyProps(el, props);
  append(el, /** @type {Child[]} */ (children));
  return el;
}

/**
 * An SVG element.
 * @param {string} tag
 * @param {Props} [props]
 * @param {...(Child|Child[])} children
 * @returns {SVGElement}
 */
export function s(tag, props = {}, ...children) {
  const el = /** @type {SVGElement} */ (document.createElementNS(SVG_NS, tag));
  applyProps(el, props);
  append(el, /** @type {Child[]} */ (children));
  return el;
}

/**
 * Replace an element's children.
 * @param {Element} el
 * @param {...(Child|Child[])} children
 */
export function replace(el, ...children) {
  el.replaceChildren();
  append(el, /** @type {Child[]} */ (children));
}

/**
 * The element with this id, or an error naming it (a broken page should say so).
 * @template {HTMLElement} T
 * @param {string} id
 * @returns {T}
 */
export function byId(id) {
  const el = document.getElementById(id);
  if (!el) throw new Error(`#${id} is missing from the page`);
  return /** @type {T} */ (el);
}
