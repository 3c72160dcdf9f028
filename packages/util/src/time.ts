import { describe } from "./describe.js";

/** Milliseconds in a day (docs/spec.md, preamble: a day is 86 400 s). */
export const DAY_MS = 86_400_000;

/** The longest delay setTimeout (and AbortSignal.timeout) honours: 2^31 − 1 ms, about 24.8 days. */
export const MAX_TIMER_MS = 2_147_483_647;

/**
 * Validate a timeout in milliseconds: a whole number in [1, MAX_TIMER_MS]. Node turns anything
 * else (NaN, 0, fractions for AbortSignal.timeout, values past 2^31 − 1) into an immediate timeout
 * or an unrelated error, so a timeout that should bound a wait would fire at once instead.
 */
export function requireTimerMs(value: unknown, what: string): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1 || value > MAX_TIMER_MS) {
    throw new RangeError(`${what} must be a whole number of milliseconds in [1, ${MAX_TIMER_MS}], got ${describe(value)}`);
  }
  return value;
}
