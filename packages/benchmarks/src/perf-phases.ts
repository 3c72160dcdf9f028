/**
 * `pnpm bench:perf`'s per-phase table: for each experiment × embedder, the median seconds of each phase
 * (phases.ts) over the in-process runs, and a lower bound where one is computable — for "write", the time
 * the disk takes for the bytes the run wrote (their size over this machine's measured write throughput);
 * "load" is the one-off dataset load and sha256 check measured before the runs.
 */
import { readdirSync, statSync } from "node:fs";
import { rm, writeFile } from "node:fs/promises";
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
