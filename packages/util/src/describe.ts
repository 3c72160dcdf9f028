/** A short human description of a bad value for error messages (strings quoted and cut at 40 characters). */
export function describe(x: unknown): string {
  if (typeof x === "string") return JSON.stringify(x.length > 40 ? x.slice(0, 40) + "…" : x);
  if (typeof x === "number") return String(x);
  if (x === null) return "null";
  if (x instanceof Date) return `Date(${Number.isNaN(x.getTime()) ? "Invalid Date" : x.toISOString()})`;
  return typeof x;
}
