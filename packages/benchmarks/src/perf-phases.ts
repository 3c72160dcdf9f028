/**
 * `pnpm bench:perf`'s per-phase table: for each experiment × embedder, the median seconds of each phase
 * (phases.ts) over the in-process runs, and a lower bound where one is computable — for "write", what its bytes
 * cost at this machine's measured speeds: the disk for every byte the run wrote, and sha256 for the rankings bytes
 * the rankings manifest records a hash of (writeBound); "load" is the one-off dataset load and sha256 check measured
 * before the runs.
 */
import { spawnSync, type SpawnSyncOptionsWithStringEncoding } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeFileAtomic } from "@persode/util";
import { PHASES, type Phase } from "./phases.js";
import { RANKINGS_MANIFEST } from "./rankings-manifest.js";

/** One in-process run's phases (seconds, "other" = time in no phase), the bytes it wrote and the bytes it hashed for a manifest. */
export interface PhaseRun {
  phases: Record<Phase | "other", number>;
  bytesWritten: number;
  /** Files the run wrote (folderFiles). */
  filesWritten: number;
  /** Bytes of the rankings files whose sha256 the run's rankings manifests record (hashedBytes). */
  bytesHashed: number;
}

/** This machine's measured speeds (bytes/s) that the write phase's lower bound is made of. */
export interface WriteSpeeds {
  /** Writing a file into the page cache (diskWriteBytesPerSecond). */
  disk: number;
  /** Seconds one small file's atomic write (temporary file, rename) takes, many at once (atomicWriteSeconds). */
  perFile: number;
  /** sha256 over bytes in memory (sha256BytesPerSecond). */
  sha256: number;
}

/**
 * The least the write phase of a run can take here: each file's atomic write at the cost of a small one, its bytes at
 * the disk's speed, and the rankings bytes its manifest hashes at sha256's speed (all the phase's work: a manifest
 * lists each file's sha256 for an external checker). Composing the lines and serialising the results files, the rest
 * of the phase, are left out: their least cost is not measured.
 * @internal exported for tests only: test/perf-phases.test.ts.
 */
export function writeBound(filesWritten: number, bytesWritten: number, bytesHashed: number, speeds: WriteSpeeds): number {
  return filesWritten * speeds.perFile + bytesWritten / speeds.disk + bytesHashed / speeds.sha256;
}

/** How many files there are below `dir`. */
export function folderFiles(dir: string): number {
  return readdirSync(dir, { withFileTypes: true, recursive: true }).filter((e) => e.isFile()).length;
}

/**
 * Seconds per file of writing small files atomically (a temporary file, then a rename, as the runs do) 64 at a time
 * into `dir`: the best of three rounds, so no more than what a run pays per file.
 */
export async function atomicWriteSeconds(dir: string): Promise<number> {
  const folder = join(dir, "atomic-write-speed");
  const one = Buffer.from("{}\n");
  let best = Number.POSITIVE_INFINITY;
  try {
    for (let round = 0; round < 3; round++) {
      const t0 = performance.now();
      await Promise.all(Array.from({ length: 64 }, (_, i) => writeFileAtomic(join(folder, `${round}-${i}.json`), one)));
      best = Math.min(best, (performance.now() - t0) / 1000 / 64);
    }
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
  return best;
}

/** Total size in bytes of the files below `dir`. */
export function folderBytes(dir: string): number {
  let total = 0;
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile()) total += statSync(join(e.parentPath, e.name)).size;
  }
  return total;
}

/**
 * Bytes of the files the rankings manifests below `dir` (every `rankings.json`) list, each of which the run hashed for
 * its manifest; 0 without one.
 */
export function hashedBytes(dir: string): number {
  let total = 0;
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!e.isFile() || e.name !== RANKINGS_MANIFEST) continue;
    const path = join(e.parentPath, e.name);
    let manifest: { runs?: Record<string, { files?: { bytes?: unknown }[] }> };
    try {
      manifest = JSON.parse(readFileSync(path, "utf8")) as typeof manifest;
    } catch (err) {
      throw new Error(`${path}: not a rankings manifest (${(err as Error).message})`);
    }
    for (const run of Object.values(manifest.runs ?? {})) {
      for (const f of run.files ?? []) if (typeof f.bytes === "number") total += f.bytes;
    }
  }
  return total;
}

/** sha256 throughput over bytes in memory, in bytes/s: the best of three hashes of 64 MB. */
export function sha256BytesPerSecond(): number {
  const buf = Buffer.alloc(64 << 20, 0x5a);
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    createHash("sha256").update(buf).digest();
    best = Math.min(best, (performance.now() - t0) / 1000);
  }
  return buf.length / best;
}

/** Write throughput of the folder's file system in bytes/s: the best of three 64 MB writes (the page cache, as the runs see it). */
export async function diskWriteBytesPerSecond(dir: string): Promise<number> {
  const buf = Buffer.alloc(64 << 20, 0x5a);
  const path = join(dir, "write-speed.bin");
  let best = Number.POSITIVE_INFINITY;
  try {
    for (let i = 0; i < 3; i++) {
      const t0 = performance.now();
      await writeFile(path, buf);
      best = Math.min(best, (performance.now() - t0) / 1000);
      await rm(path, { force: true });
    }
  } finally {
    await rm(path, { force: true });
  }
  return buf.length / best;
}

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

/** User + system CPU seconds of this process's waited-for children so far (Linux), or undefined. */
function childrenCpu(): number | undefined {
  try {
    const stat = readFileSync("/proc/self/stat", "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // after the command name: state is field 3; cutime and cstime are fields 16 and 17
    return (Number(fields[13]) + Number(fields[14])) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

/** The preload that splits a Node process's CPU by kind of thread (./thread-cpu-probe.ts; dist/ also under vitest). */
function probeUrl(): string {
  const self = import.meta.url;
  return self.endsWith(".js") ? new URL("./thread-cpu-probe.js", self).href : new URL("../dist/thread-cpu-probe.js", self).href;
}

/** What Node's helper threads run (ProcessTime.helperCpu), as the reports that show their share say it. */
export const HELPER_THREADS = "V8's concurrent JIT compiler and garbage collector, libuv's file I/O";

/** A whole process's timing: wall seconds, and CPU seconds where /proc gives them. */
export interface ProcessTime {
  wall: number;
  /** User + system seconds of the process and its children (Linux /proc; undefined elsewhere). */
  cpu: number | undefined;
  /**
   * Of a Node process's own CPU, the seconds its helper threads took: V8's concurrent JIT compiler and garbage collector,
   * libuv's file I/O (./thread-cpu-probe.ts; undefined for a command that is not a Node process, or without /proc).
   */
  helperCpu: number | undefined;
}

/**
 * Run a whole process to completion (an argv, or a shell line), its output discarded, or throw with its stderr; returns
 * its wall seconds and its CPU seconds with its children's (Linux /proc; undefined elsewhere). An argv that runs this
 * Node (`process.execPath`) is run with the thread-CPU probe preloaded, which costs one file stat at start-up.
 */
export function timeProcess(argv: readonly string[] | string, env: NodeJS.ProcessEnv, cwd?: string): ProcessTime {
  const probed = typeof argv !== "string" && argv[0] === process.execPath;
  const report = probed ? join(tmpdir(), `persode-thread-cpu-${process.pid}-${++probes}.json`) : undefined;
  const runEnv = report ? { ...env, PERSODE_THREAD_CPU_OUT: report } : env;
  const command = probed ? [argv[0]!, "--import", probeUrl(), ...argv.slice(1)] : argv;
  const c0 = childrenCpu();
  const t0 = performance.now();
  const options: SpawnSyncOptionsWithStringEncoding = { env: runEnv, cwd, encoding: "utf8", stdio: ["ignore", "ignore", "pipe"] };
  const r =
    typeof command === "string" ? spawnSync(command, { ...options, shell: true }) : spawnSync(command[0]!, command.slice(1), options);
  const wall = (performance.now() - t0) / 1000;
  const c1 = childrenCpu();
  const helperCpu = report ? readHelperCpu(report) : undefined;
  const shown = typeof argv === "string" ? argv : [argv[0] === process.execPath ? "node" : argv[0], ...argv.slice(1)].join(" ");
  if (r.error) throw new Error(`could not start ${shown}: ${r.error.message}`);
  if (r.status !== 0) throw new Error(`${shown} exited with ${r.status}:\n${(r.stderr ?? "").trim()}`);
  return { wall, cpu: c0 === undefined || c1 === undefined ? undefined : c1 - c0, helperCpu };
}

let probes = 0;

/** The helper threads' CPU seconds the probe wrote to `file` (then removed), or undefined when it wrote none. */
function readHelperCpu(file: string): number | undefined {
  try {
    const { helpers } = JSON.parse(readFileSync(file, "utf8")) as { helpers?: unknown };
    return typeof helpers === "number" && Number.isFinite(helpers) ? helpers : undefined;
  } catch {
    return undefined;
  } finally {
    rmSync(file, { force: true });
  }
}

/** Median of a non-empty list (mean of the two middle values for an even count). */
export function median(xs: readonly number[]): number {
  if (xs.length === 0) throw new RangeError("median of an empty list");
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** The phase table's columns: every phase, then time in none. */
const PHASE_COLUMNS = [...PHASES, "other"] as const;

/**
 * The phase table: per experiment a row of each phase's median seconds (load: the one-off dataset load; render: "–",
 * it runs in `pnpm bench` only) and MB written, a row of lower bounds ("–" where none is computable) and a row of
 * each bounded phase's median over its bound.
 */
function phaseTable(
  embedder: string,
  runs: Readonly<Record<string, readonly PhaseRun[]>>,
  loadSeconds: Readonly<Record<string, number>>,
  speeds: WriteSpeeds,
): { header: string[]; rows: string[][] } {
  const header = ["exp", "embedder", ...PHASE_COLUMNS, "MB written"];
  const rows: string[][] = [];
  for (const [id, rs] of Object.entries(runs)) {
    if (rs.length === 0) continue;
    const med = (p: Phase | "other") => median(rs.map((r) => r.phases[p]));
    const written = median(rs.map((r) => r.bytesWritten));
    const bound = writeBound(median(rs.map((r) => r.filesWritten)), written, median(rs.map((r) => r.bytesHashed)), speeds);
    rows.push([
      id,
      embedder,
      ...PHASE_COLUMNS.map((p) => (p === "load" ? (loadSeconds[id] ?? 0).toFixed(3) : p === "render" ? "–" : med(p).toFixed(3))),
      (written / 1e6).toFixed(1),
    ]);
    rows.push(["", "≥ bound", ...PHASE_COLUMNS.map((p) => (p === "write" ? bound.toFixed(3) : "–")), ""]);
    rows.push(["", "× bound", ...PHASE_COLUMNS.map((p) => (p === "write" ? ratio(med("write"), bound) : "–")), ""]);
  }
  return { header, rows };
}

/** a / b as "N.N×" ("–" when b is 0). */
function ratio(a: number, b: number): string {
  return b > 0 ? `${(a / b).toFixed(1)}×` : "–";
}

/** What the bound row means, with the speeds measured here. */
function boundNote(speeds: WriteSpeeds): string {
  return `write ≥ files written × ${(speeds.perFile * 1e3).toFixed(3)} ms (a small file's atomic write, 64 at a time) + bytes written / ${(speeds.disk / 1e9).toFixed(2)} GB/s (writing into the page cache) + rankings bytes hashed for the manifest / ${(speeds.sha256 / 1e9).toFixed(2)} GB/s (sha256), each speed measured here`;
}

/** The phase table as text lines (`pnpm bench:perf`): per experiment, each phase's median seconds, its lower bound and the ratio. */
export function formatPhases(
  embedder: string,
  runs: Readonly<Record<string, readonly PhaseRun[]>>,
  loadSeconds: Readonly<Record<string, number>>,
  speeds: WriteSpeeds,
): string[] {
  const out = [
    `Phases of the in-process runs (median seconds; "≥" a lower bound: ${boundNote(speeds)}; load = the datasets' one-off load + sha256 check; render runs after the experiments, in \`pnpm bench\` only):`,
  ];
  const { header, rows } = phaseTable(embedder, runs, loadSeconds, speeds);
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((x, c) => (c < 2 ? x.padEnd(widths[c]!) : x.padStart(widths[c]!)))
      .join("  ")
      .trimEnd();
  out.push(line(header), line(widths.map((w) => "-".repeat(w))), ...rows.map(line));
  return out;
}

/** The phase table as Markdown (the `--goals` block): the same rows as formatPhases, `repeat` runs each. */
export function phasesMarkdown(
  embedder: string,
  runs: Readonly<Record<string, readonly PhaseRun[]>>,
  loadSeconds: Readonly<Record<string, number>>,
  speeds: WriteSpeeds,
): string[] {
  const { header, rows } = phaseTable(embedder, runs, loadSeconds, speeds);
  const repeat = Math.max(0, ...Object.values(runs).map((r) => r.length));
  return [
    `Where an in-process run's time goes, by phase (\`pnpm bench:perf\`'s table; medians of ${repeat} runs, in seconds; "other" is time in no phase; load is the datasets' one-off load and sha256 check; render runs in \`pnpm bench\` only). A lower bound is computable for write only: ${boundNote(speeds)}.`,
    "",
    `| ${header.join(" | ")} |`,
    `|${header.map((_, c) => (c < 2 ? "---" : "---:")).join("|")}|`,
    ...rows.map((r) => `| ${r.join(" | ")} |`),
  ];
}
