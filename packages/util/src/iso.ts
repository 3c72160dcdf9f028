/**
 * The one ISO-8601 date-time parser of the tree (docs/spec.md §1: a value without a zone is UTC).
 * Accepted: `YYYY-MM-DD`, optionally followed by `T` or a space and `HH:MM`, `HH:MM:SS` or
 * `HH:MM:SS.fff` (`.` or `,`, any number of digits, truncated to milliseconds), optionally followed
 * by `Z` or an offset `±HH:MM` / `±HHMM`. A zone needs a time of day. Impossible calendar fields
 * ("2025-02-30", "24:00", "+25:00") are rejected: Date.parse would roll them over silently.
 */

/** The outcome of parsing: the instant, or why the text is not one (`syntax` when it is not ISO-8601 at all). */
export type IsoParse = { ok: true; ms: number } | { ok: false; syntax: boolean; problem: string };

const ISO_RE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?)?(?:([zZ])|([+-])(\d{2}):?(\d{2}))?$/;

/** Days in a month of the proleptic Gregorian calendar (month 1–12). */
function daysInMonth(year: number, month: number): number {
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] ?? 0;
}

/** Parse an ISO-8601 date or date-time (see the module comment for the accepted forms). */
export function parseIsoInstant(text: string): IsoParse {
  const m = ISO_RE.exec(text.trim());
  if (!m) return { ok: false, syntax: true, problem: "not an ISO-8601 date-time" };
  const [, ys, mos, ds, hs, mis, ss, frac, z, sign, zhs, zms] = m;
  const [y, mo, d] = [Number(ys), Number(mos), Number(ds)];
  const dim = daysInMonth(y, mo);
  const zoned = z !== undefined || sign !== undefined;
  const problem =
    mo < 1 || mo > 12
      ? `month ${mos} does not exist`
      : d < 1 || d > dim
        ? `${ys}-${mos} has ${dim} days, so day ${ds} does not exist`
        : hs !== undefined && Number(hs) > 23
          ? `hour ${hs} is out of range 00-23`
          : mis !== undefined && Number(mis) > 59
            ? `minute ${mis} is out of range 00-59`
            : ss !== undefined && Number(ss) > 59
              ? `second ${ss} is out of range 00-59`
              : sign !== undefined && (Number(zhs) > 23 || Number(zms) > 59)
                ? `zone offset ${sign}${zhs}:${zms} is out of range`
                : zoned && hs === undefined
                  ? "a zone needs a time of day"
                  : undefined;
  if (problem) return { ok: false, syntax: false, problem };
  const t = new Date(0);
  t.setUTCFullYear(y, mo - 1, d);
  t.setUTCHours(Number(hs ?? 0), Number(mis ?? 0), Number(ss ?? 0), frac ? Number(frac.slice(0, 3).padEnd(3, "0")) : 0);
  const offsetMs = sign === undefined ? 0 : (Number(zhs) * 60 + Number(zms)) * 60_000 * (sign === "-" ? -1 : 1);
  return { ok: true, ms: t.getTime() - offsetMs };
}

/** Parse an ISO-8601 date or date-time to UTC epoch ms, or undefined if the text is not a valid instant. */
export function parseIsoDateTime(text: string): number | undefined {
  const r = parseIsoInstant(text);
  return r.ok ? r.ms : undefined;
}
