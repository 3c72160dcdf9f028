import { DAY_MS, describe, parseIsoInstant } from "@persode/util";

/** Anything the library accepts as an instant. */
export type TimeInput = Date | string | number;

/**
 * Parse an instant to epoch milliseconds. Strings must be ISO-8601 (parseIsoInstant's rules; without
 * a zone they are UTC, docs/spec.md §1). Numbers are epoch milliseconds. Throws a RangeError naming `what`
 * on anything else.
 */
export function toEpochMs(value: TimeInput, what = "time"): number {
  let ms: number;
  if (value instanceof Date) ms = value.getTime();
  else if (typeof value === "number") ms = value;
  else if (typeof value === "string") {
    const r = parseIsoInstant(value);
    if (!r.ok && r.syntax) {
      throw new RangeError(`${what}: ${describe(value)} is not an ISO-8601 date-time (expected e.g. "2025-01-24T12:00:00Z")`);
    }
    if (!r.ok) throw new RangeError(`${what}: ${describe(value)} is not a valid date (${r.problem})`);
    ms = r.ms;
  } else {
    throw new TypeError(`${what} must be a Date, an ISO-8601 string or epoch milliseconds, got ${describe(value)}`);
  }
  // ±8.64e15 ms is the range a Date can represent (ECMA-262 time values).
  if (!Number.isFinite(ms) || Math.abs(ms) > 8.64e15) throw new RangeError(`${what}: ${describe(value)} is not a valid date`);
  return ms;
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
