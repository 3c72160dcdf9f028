import { pyRound } from "@persode/util";
/**
 * Number formatting for every stated number (README, report, figure labels): Python-compatible
 * rounding (docs/spec.md, preamble) then a fixed number of decimals, so "0.125" at 2 decimals reads "0.12".
 */

/** `x` rounded like Python's round(x, digits) and written with exactly `digits` decimals. */
export function fixed(x: number, digits: number): string {
  if (!Number.isFinite(x)) throw new RangeError(`cannot format ${x}: every stated number must be finite`);
  const r = pyRound(x, digits);
  // pyRound already chose the decimal; toFixed on that double reproduces it without a second rounding
  const s = (r === 0 ? 0 : r).toFixed(digits);
  return s;
}

/** `x` rounded like Python's round(x, digits) with trailing zeros dropped: 0.5 → "0.5", 0.45 → "0.45". */
export function shortest(x: number, digits: number): string {
  if (!Number.isFinite(x)) throw new RangeError(`cannot format ${x}: every stated number must be finite`);
  const r = pyRound(x, digits);
  return String(r === 0 ? 0 : r);
}

/** Escape text for HTML element content and attribute values. */
export function escapeHtml(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}
