const MONTHS = [
  "january", "february", "march", "april", "may", "june",
  "july", "august", "september", "october", "november", "december",
];

function daysInMonth(year: number, month1: number): number {
  return new Date(Date.UTC(year, month1, 0)).getUTCDate();
}

/** UTC epoch ms for calendar fields, or undefined when any field is out of range (no silent roll-over). */
function utcMs(y: number, mo: number, d: number, h: number, mi: number, s: number, ms: number): number | undefined {
  if (mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo)) return undefined;
  if (h > 23 || mi > 59 || s > 59) return undefined;
  const t = new Date(0);
  t.setUTCFullYear(y, mo - 1, d);
  t.setUTCHours(h, mi, s, ms);
  return t.getTime();
}

const ISO_RE =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?(Z|z|[+-]\d{2}:?\d{2})?$/;

/**
 * Parse an ISO-8601 date or date-time (`2025-03-02`, `2025-03-02T19:30`, `…:00.5Z`, `…+09:00`);
 * a value without a zone is UTC. Returns UTC epoch ms, or undefined if the text is not a valid instant.
 */
export function parseIsoDateTime(text: string): number | undefined {
  const m = ISO_RE.exec(text.trim());
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, frac, zone] = m;
  if (zone && h === undefined) return undefined; // a zone needs a time of day
  const ms = frac ? Number(frac.slice(0, 3).padEnd(3, "0")) : 0;
  const base = utcMs(Number(y), Number(mo), Number(d), Number(h ?? 0), Number(mi ?? 0), Number(s ?? 0), ms);
  if (base === undefined) return undefined;
  if (!zone || zone === "Z" || zone === "z") return base;
  const zm = /^([+-])(\d{2}):?(\d{2})$/.exec(zone);
  if (!zm) return undefined;
  const zh = Number(zm[2]);
  const zmin = Number(zm[3]);
  if (zh > 23 || zmin > 59) return undefined;
  const offset = (zh * 60 + zmin) * 60_000 * (zm[1] === "-" ? -1 : 1);
  return base - offset;
}

const LOCOMO_RE = /^(\d{1,2}):(\d{2})\s*([ap])\.?m\.?\s+on\s+(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})$/i;

/**
 * Parse a LoCoMo session time such as "1:56 pm on 8 May, 2023" as UTC (SPEC §7 Exp. 5).
 * Returns UTC epoch ms, or undefined if the text does not have that form or names an impossible time.
 */
export function parseLocomoDateTime(text: string): number | undefined {
  const m = LOCOMO_RE.exec(text.trim());
  if (!m) return undefined;
  const [, h12s, mis, ampm, ds, monthName, ys] = m;
  const h12 = Number(h12s);
  if (h12 < 1 || h12 > 12) return undefined;
  const month = MONTHS.indexOf(monthName!.toLowerCase()) + 1;
  if (month === 0) return undefined;
  const hour = (h12 % 12) + (ampm!.toLowerCase() === "p" ? 12 : 0);
  return utcMs(Number(ys), month, Number(ds), hour, Number(mis), 0, 0);
}

/** Format UTC epoch ms as ISO-8601 with a Z zone, e.g. "2025-06-30T12:00:00.000Z". */
export function formatIsoUtc(ms: number): string {
  return new Date(ms).toISOString();
}
