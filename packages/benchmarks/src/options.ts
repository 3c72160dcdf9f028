import { embedderNames, type EmbedderOptions } from "@persode/core";
import { DECLARED_MODELS } from "@persode/datasets";
import { offlineFromEnv } from "@persode/util";

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

/** The `--embedder` choices: every declared model's name and aliases, then every other registered embedder ("hashing", plugins). */
export function embedderChoices(): string[] {
  const declared = DECLARED_MODELS.flatMap((m) => [m.name, ...m.aliases]);
  return [...new Set(["hashing", ...declared, ...embedderNames()])];
}

/** The `--embedder` option: a declared model or a registered embedder name (default hashing). */
export function embedderOption(value: unknown): string {
  const name = value === undefined ? "hashing" : String(value);
  if (!embedderChoices().includes(name)) throw new UsageError(`unknown embedder "${name}"; known: ${embedderChoices().join(", ")}`);
  return name;
}

/**
 * Embedder construction settings from the command line and the environment (PERSODE_MODEL_DIR,
 * PERSODE_OFFLINE). `--model` and `--dtype` pick a neural embedder's weights: given with the hashing
 * embedder, which has none, they are a usage error rather than silently ignored.
 */
export function embedderSettings(embedder: string, values: Record<string, unknown>, env: NodeJS.ProcessEnv = process.env): EmbedderOptions {
  const modelOptions = (["model", "dtype"] as const).filter((k) => values[k] !== undefined);
  if (embedder === "hashing" && modelOptions.length > 0) {
    throw new UsageError(`${modelOptions.map((k) => `--${k}`).join(" and ")} select a neural embedder's weights, but the embedder is hashing; add --embedder minilm (or another neural embedder)`);
  }
  return {
    ...(env.PERSODE_MODEL_DIR ? { modelDir: env.PERSODE_MODEL_DIR } : {}),
    offline: offlineFromEnv(env),
    ...(typeof values.model === "string" ? { model: values.model } : {}),
    ...(typeof values.dtype === "string" ? { dtype: values.dtype } : {}),
  };
}
