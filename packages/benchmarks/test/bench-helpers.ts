// Shared by parity.test.ts, cli.test.ts and determinism.test.ts: the reference-walking comparison,
// fixture paths, offline access to the pinned datasets, and in-process / child-process CLI runs.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { EMOBANK, EPIREC, LOCOMO, LOCOMO_AUDIT, resolveDataset, type ResolveOptions } from "@persode/datasets";
import { vi } from "vitest";
import { runCli } from "../src/index.js";

/** Published reference results copied from the reference implementation (test/fixtures/reference/). */
const REFERENCE_DIR = fileURLToPath(new URL("./fixtures/reference/", import.meta.url));

/** The reference's EpiRec rankings and official reports (test/fixtures/epirec/). */
export const EPIREC_FIXTURES = fileURLToPath(new URL("./fixtures/epirec/", import.meta.url));

/** The built CLI the tests spawn. */
const CLI = fileURLToPath(new URL("../dist/cli.js", import.meta.url));

/** Strategy slugs in registry order (file names of rankings and official reports). */
export const SLUGS = ["recency-only", "similarity-only", "salience-only", "fused_persode", "gated_persode"] as const;

/** Slugs of the extended ("beyond the paper") strategies, which rank the same stores and write rankings too. */
const EXTENDED_SLUGS = ["bm25", "rrf", "combsum", "generative_agents", "memorybank", "mmr", "gated_hybrid"] as const;

/** Every strategy whose rankings a run writes: the paper's five, then the extended set. */
export const ALL_SLUGS = [...SLUGS, ...EXTENDED_SLUGS] as const;

/** Strategy keys in registry order (keys of `runs.<embedder>.strategies`). */
export const STRATEGY_KEYS = ["recency-only", "similarity-only", "salience-only", "fused (Persode)", "gated (Persode)"] as const;

/**
 * Data access for tests: offline (never the network), never writing to the user cache; finds the
 * pinned files in PERSODE_DATA_MIRROR (CI) or the user cache filled by `pnpm bench all`. A missing
 * copy fails with the loader's message, which names the env vars and the command that provides it.
 */
export const DATA_OPTIONS: ResolveOptions = { offline: true, fillCache: false };

/** A parsed reference fixture. */
export function referenceJson(name: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(REFERENCE_DIR, `${name}.json`), "utf8")) as Record<string, unknown>;
}

/** Keys whose string values are prose (wording may differ from the reference); strings below them are not compared. */
const PROSE_KEYS: ReadonlySet<string> = new Set([
  "note",
  "notes",
  "consolidation_note",
  "gate_provenance",
  "emotion_source",
  "license",
  "url",
  "name",
]);

/** Outcome of walking a reference value against ours. */
export interface ParityResult {
  /** One line per difference: the JSON path, our value and the reference's. */
  mismatches: string[];
  /** Leaves compared (numbers, booleans, null, data strings). */
  compared: number;
  /** Prose strings skipped. */
  skipped: number;
}

function show(x: unknown): string {
  if (x === undefined) return "undefined";
  const s = JSON.stringify(x);
  return s.length > 80 ? `${s.slice(0, 80)}…` : s;
}

function hasData(ref: unknown, prose: boolean): boolean {
  if (Array.isArray(ref)) return ref.some((r) => hasData(r, prose));
  if (ref !== null && typeof ref === "object") return Object.entries(ref).some(([k, v]) => hasData(v, prose || PROSE_KEYS.has(k)));
  return !(typeof ref === "string" && prose);
}

/**
 * Walk every value of `reference` and compare ours at the same path: numbers with Object.is,
 * booleans, null and data strings with ===, arrays by length and element; strings under a
 * PROSE_KEYS key are skipped. Keys we have and the reference lacks are not differences.
 */
export function compareToReference(reference: unknown, actual: unknown, path = "$"): ParityResult {
  const result: ParityResult = { mismatches: [], compared: 0, skipped: 0 };
  const walk = (ref: unknown, act: unknown, at: string, prose: boolean): void => {
    if (Array.isArray(ref)) {
      if (!Array.isArray(act)) return void result.mismatches.push(`${at}: expected an array, got ${show(act)}`);
      if (act.length !== ref.length) result.mismatches.push(`${at}: length ${act.length}, reference ${ref.length}`);
      ref.forEach((r, i) => walk(r, act[i], `${at}[${i}]`, prose));
    } else if (ref !== null && typeof ref === "object") {
      if (act === null || typeof act !== "object" || Array.isArray(act))
        return void result.mismatches.push(`${at}: expected an object, got ${show(act)}`);
      for (const [k, v] of Object.entries(ref)) {
        const childProse = prose || PROSE_KEYS.has(k);
        if (!Object.prototype.hasOwnProperty.call(act, k)) {
          if (hasData(v, childProse)) result.mismatches.push(`${at}.${k}: missing (reference ${show(v)})`);
          else result.skipped++;
          continue;
        }
        walk(v, (act as Record<string, unknown>)[k], `${at}.${k}`, childProse);
      }
    } else if (typeof ref === "string" && prose) {
      result.skipped++;
    } else {
      result.compared++;
      const same = typeof ref === "number" ? typeof act === "number" && Object.is(act, ref) : act === ref;
      if (!same) result.mismatches.push(`${at}: ours ${show(act)}, reference ${show(ref)}`);
    }
  };
  walk(reference, actual, path, false);
  return result;
}

/** Where two texts first differ, line by line ("line N: ours … / reference …"), or undefined when identical. */
export function firstLineDifference(ours: string, reference: string): string | undefined {
  if (ours === reference) return undefined;
  const a = ours.split("\n");
  const b = reference.split("\n");
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (a[i] !== b[i]) return `line ${i + 1}: ours ${show(a[i])}, reference ${show(b[i])}`;
  }
  return "texts differ";
}

/** Exit code and everything printed by one CLI run. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Run the bench CLI in-process (exported `runCli`), capturing stdout and stderr. */
export async function runCliInProcess(argv: string[]): Promise<CliRun> {
  let stdout = "";
  let stderr = "";
  const text = (chunk: string | Uint8Array) => (typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8"));
  const out = vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => ((stdout += text(chunk)), true));
  const err = vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => ((stderr += text(chunk)), true));
  try {
    return { code: await runCli(argv), stdout, stderr };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}

/**
 * Environment for CLI runs: the pinned files (found offline without touching the user cache) passed
 * as explicit paths, and a throw-away cache folder so the CLI's cache fill lands in `cacheDir`.
 */
export async function pinnedDataEnv(cacheDir: string): Promise<Record<string, string>> {
  const [locomo, epirec, audit, emobank] = await Promise.all([
    resolveDataset(LOCOMO, DATA_OPTIONS),
    resolveDataset(EPIREC, DATA_OPTIONS),
    resolveDataset(LOCOMO_AUDIT, DATA_OPTIONS),
    resolveDataset(EMOBANK, DATA_OPTIONS),
  ]);
  return {
    [LOCOMO.envPathVar]: locomo.path,
    [EPIREC.envPathVar]: epirec.path,
    [LOCOMO_AUDIT.envPathVar]: audit.path,
    [EMOBANK.envPathVar]: emobank.path,
    PERSODE_DATA_DIR: cacheDir,
    PERSODE_OFFLINE: "1",
  };
}

/** Spawn `node dist/cli.js …` with extra environment; fails clearly when the package is not built. */
export function spawnCli(argv: string[], env: Record<string, string>, cwd: string): CliRun {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: build first with \`pnpm --filter @persode/benchmarks build\``);
  const r = spawnSync(process.execPath, [CLI, ...argv], { cwd, env: { ...process.env, ...env }, encoding: "utf8", timeout: 120_000 });
  if (r.error) throw r.error;
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/** Every file below `dir` (recursively, hidden files included) as sorted relative paths. */
export function listFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return (readdirSync(dir, { recursive: true }) as string[])
    .map(String)
    .filter((p) => statSync(join(dir, p)).isFile())
    .sort();
}
