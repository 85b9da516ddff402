// @ts-check
/** Reconnect delays: exponential with jitter, capped. Pure, so it can be unit-tested. */

/**
 * @typedef {object} BackoffOptions
 * @property {number} [base]    first delay in ms
 * @property {number} [factor]  growth per attempt
 * @property {number} [max]     cap in ms
 * @property {number} [jitter]  0..1: the delay is spread over [d*(1-jitter), d]
 * @property {() => number} [random]  source of randomness in [0, 1)
 */

export const DEFAULTS = Object.freeze({ base: 500, factor: 2, max: 15000, jitter: 0.3 });

/**
 * The delay before reconnect attempt `attempt` (0 = the first retry).
 * Jitter only ever shortens the delay, so the cap stays a real upper bound and
 * a crowd of clients after a server restart does not come back in lockstep.
 * @param {number} attempt
 * @param {BackoffOptions} [options]
 * @returns {number} milliseconds
 */
export function backoffDelay(attempt, options = {}) {
  const base = options.base ?? DEFAULTS.base;
  const factor = options.factor ?? DEFAULTS.factor;
  const max = options.max ?? DEFAULTS.max;
  const jitter = Math.min(1, Math.max(0, options.jitter ?? DEFAULTS.jitter));
  const random = options.random ?? Math.random;
  const n = Math.max(0, Math.floor(attempt));
  const plain = Math.min(max, base * Math.pow(factor, n));
  return Math.round(plain * (1 - jitter * random()));
}
