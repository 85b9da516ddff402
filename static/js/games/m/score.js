// @ts-check
/**
 * Collections and score previews in the shape a panel shows them. The server
 * sends each seat's breakdown (engines/m/scoring.py: tokens, points per colour,
 * the two colours that count, the total); this only orders and formats it. Pure.
 */

/** The five colours in the deck's order (engines/m/cards.py). */
export const COLOURS = Object.freeze(["blue", "brown", "red", "green", "yellow"]);
/** The five symbols; the 0-cards have none. */
export const SYMBOLS = Object.freeze(["cube", "triangle", "moebius", "circle", "cross"]);

/**
 * @typedef {object} Card
 * @property {string} id
 * @property {string} colour
 * @property {number} value
 * @property {string|null} symbol
 */
/**
 * @typedef {object} Breakdown  one entry of the view's `scores`
 * @property {number} tokens
 * @property {number} token_points
 * @property {Record<string, number>} colours
 * @property {string[]} best
 * @property {number} total
 */
/**
 * @typedef {object} ColourPart
 * @property {string} colour
 * @property {number} value     what the colour's cards add up to
 * @property {boolean} counts   true: added; false: taken off
 */

/** Position of a colour in deck order (unknown ones last). @param {string} colour */
function colourRank(colour) {
  const i = COLOURS.indexOf(colour);
  return i < 0 ? COLOURS.length : i;
}

/**
 * A collection grouped by colour in deck order, each group's cards by value (high first).
 * @param {ReadonlyArray<Card>} cards
 * @returns {{colour: string, cards: Card[], total: number}[]}
 */
export function groupByColour(cards) {
  /** @type {Map<string, Card[]>} */
  const groups = new Map();
  for (const card of cards) {
    const list = groups.get(card.colour) ?? [];
    list.push(card);
    groups.set(card.colour, list);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => colourRank(a) - colourRank(b))
    .map(([colour, list]) => ({
      colour,
      cards: [...list].sort((a, b) => b.value - a.value || a.id.localeCompare(b.id)),
      total: list.reduce((sum, c) => sum + c.value, 0),
    }));
}

/**
 * The colours of a breakdown in reading order: the two that count (bigger
 * first), then the others (bigger loss first).
 * @param {Breakdown} score
 * @returns {ColourPart[]}
 */
export function colourParts(score) {
  const best = score.best ?? [];
  const parts = Object.entries(score.colours ?? {}).map(([colour, value]) => ({ colour, value, counts: best.includes(colour) }));
  return parts.sort((a, b) => Number(b.counts) - Number(a.counts) || b.value - a.value || colourRank(a.colour) - colourRank(b.colour));
}

/**
 * A number with its sign, the way a score sheet writes it: "+30", "−10" (a real
 * minus sign), "0".
 * @param {number} n
 */
export function signed(n) {
  if (n > 0) return `+${n}`;
  if (n < 0) return `\u2212${-n}`;
  return "0";
}

/**
 * @typedef {{kind: "tokens", tokens: number, points: number}
 *   | {kind: "colour", colour: string, points: number, counts: boolean}} Term
 */

/**
 * The sum behind a total, term by term: token points, then each colour with its
 * sign (counting colours first). The points add up to `score.total`.
 * @param {Breakdown} score
 * @returns {Term[]}
 */
export function scoreTerms(score) {
  return [
    { kind: /** @type {const} */ ("tokens"), tokens: score.tokens ?? 0, points: score.token_points ?? 0 },
    ...colourParts(score).map((p) => ({ kind: /** @type {const} */ ("colour"), colour: p.colour, points: p.counts ? p.value : 0 - p.value, counts: p.counts })),
  ];
}
