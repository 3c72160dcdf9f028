import type { z } from "zod";
import type { DataIssue } from "./errors.js";

/** Path segments of a value inside a JSON document. */
export type JsonPath = readonly PropertyKey[];

/** Render a JSON path the way it is written in code: `personas[3].episodes[7].probes[1].type`, root array `[0].qa`. */
export function formatJsonPath(path: JsonPath): string {
  let out = "";
  for (const seg of path) {
    if (typeof seg === "number") out += `[${seg}]`;
    else if (typeof seg === "string" && /^[A-Za-z_$][\w$-]*$/.test(seg)) out += out === "" ? seg : `.${seg}`;
    else out += `[${JSON.stringify(String(seg))}]`;
  }
  return out === "" ? "(root)" : out;
}

/** Validate `value` with a zod schema; on failure append one issue per zod problem, prefixed by `prefix`. */
function checkWith<T>(schema: z.ZodType<T>, value: unknown, prefix: JsonPath, issues: DataIssue[]): T | undefined {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  for (const issue of r.error.issues) {
    issues.push({ where: formatJsonPath([...prefix, ...issue.path]), message: issue.message });
  }
  return undefined;
}

/**
 * checkWith, with the schema consulted only for a value that fails `wellFormed`: plain predicates that accept a value
 * only if the schema does, and only where the schema returns the value's own fields unchanged. A well-formed value is
 * returned as it is; any other goes to `schema()` (built on first use, ./zod.ts) for the verdict and the messages.
 */
export function checkShaped<T>(
  wellFormed: (value: unknown) => value is T,
  schema: () => z.ZodType<T>,
  value: unknown,
  prefix: JsonPath,
  issues: DataIssue[],
): T | undefined {
  return wellFormed(value) ? value : checkWith(schema(), value, prefix, issues);
}

/** A JSON object (not an array, not null), as z.object requires. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A string of at least `min` UTF-16 code units, as z.string().min(min) requires. */
export function isText(value: unknown, min = 0): value is string {
  return typeof value === "string" && value.length >= min;
}

/** Absent or a string, as z.string().optional() requires. */
export function isOptionalText(value: unknown): value is string | undefined {
  return value === undefined || typeof value === "string";
}

/** An integer in [min, max], as z.number().int().min(min).max(max) requires. */
export function isIntIn(value: unknown, min: number, max: number): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= min && value <= max;
}

/**
 * An array without holes whose every item passes `item`, and of exactly `length` items when one is given: z.array(…)
 * with .length(length), where zod reads a hole as an undefined item.
 */
export function isArrayOf(value: unknown, item: (x: unknown) => boolean, length?: number): value is unknown[] {
  if (!Array.isArray(value) || (length !== undefined && value.length !== length)) return false;
  for (let i = 0; i < value.length; i++) if (!(i in value) || !item(value[i])) return false;
  return true;
}

/** An array of strings without holes, as z.array(z.string()) requires. */
export function isStrings(value: unknown): value is string[] {
  return isArrayOf(value, (x) => typeof x === "string");
}
