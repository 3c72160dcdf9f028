import { embedderNames } from "@persode/core";

/** A user error on the command line: printed without a stack trace, exit code 2. */
export class UsageError extends Error {}

/** A non-negative integer option (`--seed`, `--samples`), or the default when absent. */
export function intOption(value: unknown, name: string, fallback: number, min = 0): number {
  if (value === undefined) return fallback;
  if (typeof value !== "string" || !/^\d+$/.test(value) || !Number.isSafeInteger(Number(value))) {
    throw new UsageError(`--${name} must be a non-negative integer, got "${String(value)}"`);
  }
  const n = Number(value);
  if (n < min) throw new UsageError(`--${name} must be at least ${min}, got ${n}`);
  return n;
}

/** The `--embedder` option: a registered embedder name (default hashing). */
export function embedderOption(value: unknown): string {
  const name = value === undefined ? "hashing" : String(value);
  if (!embedderNames().includes(name)) throw new UsageError(`unknown embedder "${name}"; known: ${embedderNames().join(", ")}`);
  return name;
}
