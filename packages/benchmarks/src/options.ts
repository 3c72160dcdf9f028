import { resolve } from "node:path";
import { embedderNames, type EmbedderOptions } from "@persode/core/embedders";
import { DECLARED_MODELS } from "@persode/datasets/models";
import { offlineFromEnv } from "@persode/util";
import type { RankingsDepth } from "./defaults.js";

/** A user error on the command line: printed without a stack trace, exit code 2. */
export class UsageError extends Error {}

/**
 * Largest `--samples`: 50× the default; the bootstrap and sign-flip tables grow linearly with it (≈ 1 GB of tables and tens of minutes
 * beyond).
 */
export const MAX_SAMPLES = 100_000;

/** Largest `--seed`: the largest integer a double holds exactly (seeds are written to every results file). */
export const MAX_SEED = Number.MAX_SAFE_INTEGER;

/** A non-negative integer option (`--seed`, `--samples`) in [min, max], or the default when absent; the error names the bound. */
export function intOption(value: unknown, name: string, fallback: number, min = 0, max = Number.MAX_SAFE_INTEGER): number {
  if (value === undefined) return fallback;
  if (typeof value !== "string" || !/^\d+$/.test(value)) {
    throw new UsageError(`--${name} must be a non-negative integer, got "${String(value)}"`);
  }
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n > max) throw new UsageError(`--${name} must be at most ${max}, got ${value}`);
  if (n < min) throw new UsageError(`--${name} must be at least ${min}, got ${n}`);
  return n;
}

/**
 * `--rankings-depth N|full`: how many turns each line of the LoCoMo rankings files lists — a positive integer,
 * or `full` for every turn; the default (absent) is `fallback`. Anything else is a usage error saying what is accepted.
 */
export function rankingsDepthOption(value: unknown, fallback: RankingsDepth): RankingsDepth {
  if (value === undefined) return fallback;
  if (value === "full") return "full";
  const n = typeof value === "string" && /^\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n < 1) {
    throw new UsageError(
      `--rankings-depth must be a positive integer (turns per ranking line) or "full" (every turn), got "${String(value)}"; e.g. --rankings-depth 100 or --rankings-depth full`,
    );
  }
  return n;
}

/**
 * The folder the user ran the command from: `pnpm bench` runs in the repository root and passes the
 * caller's folder as INIT_CWD, so relative paths on the command line resolve from where they were typed.
 * Only for the bench script itself (npm_lifecycle_event "bench"): a process started by another script
 * (a test under `pnpm test`) inherits INIT_CWD from it, but not that script's folder.
 */
export function callerCwd(env: NodeJS.ProcessEnv = process.env): string {
  return env.npm_lifecycle_event === "bench" && env.INIT_CWD ? env.INIT_CWD : process.cwd();
}

/** A path given on the command line, made absolute from the caller's folder (see callerCwd). */
export function callerPath(path: string, env: NodeJS.ProcessEnv = process.env): string {
  return resolve(callerCwd(env), path);
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
    throw new UsageError(
      `${modelOptions.map((k) => `--${k}`).join(" and ")} select a neural embedder's weights, but the embedder is hashing; add --embedder minilm (or another neural embedder)`,
    );
  }
  return {
    ...(env.PERSODE_MODEL_DIR ? { modelDir: env.PERSODE_MODEL_DIR } : {}),
    offline: offlineFromEnv(env),
    ...(typeof values.model === "string" ? { model: values.model } : {}),
    ...(typeof values.dtype === "string" ? { dtype: values.dtype } : {}),
  };
}
