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
    let iso = s.replace(" ", "T");
    if (!iso.includes("T")) iso += "T00:00:00";
    if (!HAS_ZONE.test(iso)) iso += "Z";
    ms = Date.parse(iso);
  } else {
    throw new TypeError(`${what} must be a Date, an ISO-8601 string or epoch milliseconds, got ${describe(value)}`);
  }
  if (!Number.isFinite(ms)) throw new RangeError(`${what}: ${describe(value)} is not a valid date`);
  return ms;
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
