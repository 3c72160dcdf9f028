import { parseIsoDateTime } from "@persode/util";

const MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"];

const LOCOMO_RE = /^(\d{1,2}):(\d{2})\s*([ap])\.?m\.?\s+on\s+(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})$/i;

/**
 * Parse a LoCoMo session time such as "1:56 pm on 8 May, 2023" as UTC (docs/spec.md §7 Exp. 5).
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
  // The calendar checks (31 April, minute 60) are the ISO parser's: one set of rules for every date.
  const two = (n: number) => String(n).padStart(2, "0");
  return parseIsoDateTime(`${ys}-${two(month)}-${two(Number(ds))}T${two(hour)}:${mis}`);
}

/** Format UTC epoch ms as ISO-8601 with a Z zone, e.g. "2025-06-30T12:00:00.000Z". */
export function formatIsoUtc(ms: number): string {
  return new Date(ms).toISOString();
}
