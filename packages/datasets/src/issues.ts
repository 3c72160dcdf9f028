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
export function checkWith<T>(schema: z.ZodType<T>, value: unknown, prefix: JsonPath, issues: DataIssue[]): T | undefined {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  for (const issue of r.error.issues) {
    issues.push({ where: formatJsonPath([...prefix, ...issue.path]), message: issue.message });
  }
  return undefined;
}
