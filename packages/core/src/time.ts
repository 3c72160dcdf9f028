import { describe } from "./numeric.js";

/** Milliseconds in a day (SPEC preamble: a day is 86 400 s). */
export const DAY_MS = 86_400_000;

/** Anything the library accepts as an instant. */
export type TimeInput = Date | string | number;

const HAS_ZONE = /(?:[zZ]|[+-]\d{2}:?\d{2})$/;
const ISO_LIKE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?(?:[zZ]|[+-]\d{2}:?\d{2})?$/;

/**
 * Parse an instant to epoch milliseconds. Strings must be ISO-8601; without a zone they are UTC
 * (SPEC §1). Numbers are epoch milliseconds. Throws a RangeError naming `what` on anything else.
 */
export function toEpochMs(value: TimeInput, what = "time"): number {
  let ms: number;
  if (value instanceof Date) ms = value.getTime();
  else if (typeof value === "number") ms = value;
  else if (typeof value === "string") {
    const s = value.trim();
    if (!ISO_LIKE.test(s)) {
      throw new RangeError(`${what}: ${describe(value)} is not an ISO-8601 date-time (expected e.g. "2025-01-24T12:00:00Z")`);
    }
    checkCalendarFields(s, value, what);
    let iso = s.replace(" ", "T");
    if (!iso.includes("T")) iso += "T00:00:00";
    if (!HAS_ZONE.test(iso)) iso += "Z";
    ms = Date.parse(iso);
  } else {
    throw new TypeError(`${what} must be a Date, an ISO-8601 string or epoch milliseconds, got ${describe(value)}`);
  }
  // ±8.64e15 ms is the range a Date can represent (ECMA-262 time values).
  if (!Number.isFinite(ms) || Math.abs(ms) > 8.64e15) throw new RangeError(`${what}: ${describe(value)} is not a valid date`);
  return ms;
}

const FIELDS = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?)?(?:.*?([+-])(\d{2}):?(\d{2}))?/;

/**
 * Reject impossible calendar fields ("2025-02-30", "25:00", "+24:00"): Date.parse silently rolls
 * them over into the next month/day, which would be a wrong instant rather than an error.
 */
function checkCalendarFields(s: string, value: string, what: string): void {
  const f = FIELDS.exec(s)!;
  const [y, mo, d] = [Number(f[1]), Number(f[2]), Number(f[3])];
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  const daysInMonth = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][mo - 1] ?? 0;
  const bad =
    mo < 1 || mo > 12 ? `month ${f[2]} does not exist` :
    d < 1 || d > daysInMonth ? `${f[1]}-${f[2]} has ${daysInMonth} days, so day ${f[3]} does not exist` :
    f[4] !== undefined && Number(f[4]) > 23 ? `hour ${f[4]} is out of range 00-23` :
    f[5] !== undefined && Number(f[5]) > 59 ? `minute ${f[5]} is out of range 00-59` :
    f[6] !== undefined && Number(f[6]) > 59 ? `second ${f[6]} is out of range 00-59` :
    f[7] !== undefined && (Number(f[8]) > 23 || Number(f[9]) > 59) ? `zone offset ${f[7]}${f[8]}:${f[9]} is out of range` :
    undefined;
  if (bad) throw new RangeError(`${what}: ${describe(value)} is not a valid date (${bad})`);
}

/** Parse an instant to a Date (see toEpochMs). */
export function toDate(value: TimeInput, what = "time"): Date {
  return new Date(toEpochMs(value, what));
}

/** Days from `fromMs` to `toMs` (may be negative). */
export function daysBetween(fromMs: number, toMs: number): number {
  return (toMs - fromMs) / DAY_MS;
}

/** ISO-8601 UTC rendering with a +00:00 suffix and seconds precision when no milliseconds. */
export function isoUtc(ms: number): string {
  const s = new Date(ms).toISOString();
  return s.endsWith(".000Z") ? s.slice(0, -5) + "+00:00" : s.replace("Z", "+00:00");
}

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
