/**
 * `pnpm bench:perf`'s per-phase table: for each experiment × embedder, the median seconds of each phase
 * (phases.ts) over the in-process runs, and a lower bound where one is computable — for "write", the time
 * the disk takes for the bytes the run wrote (their size over this machine's measured write throughput);
 * "load" is the one-off dataset load and sha256 check measured before the runs.
 */
import { spawnSync, type SpawnSyncOptionsWithStringEncoding } from "node:child_process";
import { readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PHASES, type Phase } from "./phases.js";

/** One in-process run's phases (seconds, "other" = time in no phase) and the bytes it wrote. */
export interface PhaseRun {
  phases: Record<Phase | "other", number>;
  bytesWritten: number;
}

/** Total size in bytes of the files below `dir`. */
export function folderBytes(dir: string): number {
  let total = 0;
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile()) total += statSync(join(e.parentPath, e.name)).size;
  }
  return total;
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

/** The table rows: per experiment, each phase's median seconds and its lower bound ("–" where none is computable). */
export function formatPhases(
  embedder: string,
  runs: Readonly<Record<string, readonly PhaseRun[]>>,
  loadSeconds: Readonly<Record<string, number>>,
  writeBytesPerSecond: number,
): string[] {
  const cols = [...PHASES, "other"] as const;
  const out = [
    `Phases of the in-process runs (median seconds; "≥" a lower bound: write = bytes written / ${(writeBytesPerSecond / 1e9).toFixed(2)} GB/s measured here; load = the datasets' one-off load + sha256 check; render runs after the experiments, in \`pnpm bench\` only):`,
  ];
  const header = ["exp", "embedder", ...cols, "MB written"];
  const rows: string[][] = [];
  for (const [id, rs] of Object.entries(runs)) {
    if (rs.length === 0) continue;
    const med = (p: Phase | "other") => median(rs.map((r) => r.phases[p]));
    const bytes = median(rs.map((r) => r.bytesWritten));
    rows.push([
      id,
      embedder,
      ...cols.map((p) => (p === "load" ? (loadSeconds[id] ?? 0).toFixed(3) : p === "render" ? "–" : med(p).toFixed(3))),
      (bytes / 1e6).toFixed(1),
    ]);
    rows.push(["", "≥ bound", ...cols.map((p) => (p === "write" ? (bytes / writeBytesPerSecond).toFixed(3) : "–")), ""]);
  }
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((x, c) => (c < 2 ? x.padEnd(widths[c]!) : x.padStart(widths[c]!)))
      .join("  ")
      .trimEnd();
  out.push(line(header), line(widths.map((w) => "-".repeat(w))), ...rows.map(line));
  return out;
}
