/**
 * `pnpm bench:perf --goals`: the speed goals of issue 19 measured as whole processes, back to back in the same
 * minutes, with the machine named: Exp. 5 against the reference implementation's exp5_locomo.py (when its command
 * is given), Exp. 6, Exp. 7 (all three recomputed: `--no-cache`), `--help`, and a warm `pnpm bench all` with every
 * declared model against hashing only — warm with the result cache (what a rerun costs) and recomputed (`--no-cache`).
 * Prints a Markdown block; `--write FILE` replaces the block between `<!-- performance:begin -->` and
 * `<!-- performance:end -->` in FILE (README.md, docs/performance.md). Timings are machine-dependent: reported,
 * never asserted.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { cpus, loadavg, tmpdir } from "node:os";
import { join, relative, sep } from "node:path";
import { HELPER_THREADS, median, timeProcess } from "./perf-phases.js";

/** One whole-process measurement: what ran, and its wall and CPU seconds per round. */
interface ProcessTiming {
  label: string;
  wall: number[];
  /** User + system seconds of the process and its children (Linux /proc; empty elsewhere). */
  cpu: number[];
  /** Of a Node process's CPU, its helper threads' seconds (JIT compiler, GC, file I/O; perf-phases.ts ProcessTime; empty where unknown). */
  helperCpu: number[];
}

/** Everything --goals measured. */
export interface GoalsResult {
  machine: string;
  node: string;
  date: string;
  commit: string;
  loadBefore: number[];
  rounds: number;
  timings: Record<
    "reference" | "exp5" | "exp6" | "exp7" | "help" | "allHashing" | "allModels" | "allHashingRecomputed" | "allModelsRecomputed",
    ProcessTiming | undefined
  >;
}

/** How to run the measurements: the repository root, rounds, and the reference's command (a shell line) if any. */
export interface GoalsOptions {
  root: string;
  rounds: number;
  reference?: string;
  env?: NodeJS.ProcessEnv;
  /** Progress lines (stderr by default). */
  log?: (line: string) => void;
}

/** Measure every goal `rounds` times, interleaved so each round's processes run in the same minutes. */
export async function measureGoals(o: GoalsOptions): Promise<GoalsResult> {
  const env = o.env ?? process.env;
  const log = o.log ?? ((l: string) => process.stderr.write(`${l}\n`));
  const tmp = await mkdtemp(join(tmpdir(), "persode-goals-"));
  const node = process.execPath;
  const bench = join(o.root, "scripts", "bench.mjs");
  const out = (name: string) => join(tmp, name);
  const timings: GoalsResult["timings"] = {
    reference: undefined,
    exp5: undefined,
    exp6: undefined,
    exp7: undefined,
    help: undefined,
    allHashing: undefined,
    allModels: undefined,
    allHashingRecomputed: undefined,
    allModelsRecomputed: undefined,
  };
  const allHashing = [node, bench, "all", "--embedder", "hashing", "--out", out("all-hashing")];
  const allModels = [node, bench, "all", "--out", out("all-models")];
  const plan: [keyof GoalsResult["timings"], string, string[] | string][] = [
    ...(o.reference ? [["reference", "reference exp5_locomo.py", o.reference] as [keyof GoalsResult["timings"], string, string]] : []),
    ["exp5", "node scripts/bench.mjs exp5 --no-cache", [node, bench, "exp5", "--no-cache", "--out", out("exp5")]],
    ["exp6", "node scripts/bench.mjs exp6 --no-cache", [node, bench, "exp6", "--no-cache", "--out", out("exp6")]],
    ["exp7", "node scripts/bench.mjs exp7 --no-cache", [node, bench, "exp7", "--no-cache", "--out", out("exp7")]],
    ["help", "node scripts/bench.mjs --help", [node, bench, "--help"]],
    ["allHashing", "node scripts/bench.mjs all --embedder hashing", allHashing],
    ["allModels", "node scripts/bench.mjs all (every declared model, warm)", allModels],
    [
      "allHashingRecomputed",
      "node scripts/bench.mjs all --embedder hashing --no-cache",
      [node, bench, "all", "--embedder", "hashing", "--no-cache", "--out", out("all-hashing-recomputed")],
    ],
    [
      "allModelsRecomputed",
      "node scripts/bench.mjs all --no-cache",
      [node, bench, "all", "--no-cache", "--out", out("all-models-recomputed")],
    ],
  ];
  const loadBefore = loadavg().map((x) => Number(x.toFixed(2)));
  try {
    // Untimed runs first warm the embedding cache (and the OS's file cache) for every declared model, and the result
    // cache: twice into each folder the timed runs use, since an empty --out folder and a full one are different
    // inputs (the first run reads no earlier files, the second reads the first's).
    log("goals: warming the caches (node scripts/bench.mjs all and all --embedder hashing, twice each, untimed)");
    for (const argv of [allModels, allModels, allHashing, allHashing]) timeProcess(argv, env, o.root);
    for (let round = 1; round <= o.rounds; round++) {
      for (const [key, label, argv] of plan) {
        const r = timeProcess(argv, env, o.root);
        const t = (timings[key] ??= { label, wall: [], cpu: [], helperCpu: [] });
        t.wall.push(r.wall);
        if (r.cpu !== undefined) t.cpu.push(r.cpu);
        if (r.helperCpu !== undefined) t.helperCpu.push(r.helperCpu);
        log(
          `goals: round ${round}/${o.rounds}  ${label}: ${r.wall.toFixed(2)} s wall${r.cpu === undefined ? "" : `, ${r.cpu.toFixed(2)} CPU-s`}`,
        );
      }
    }
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
  const cpu = cpus();
  const git = spawnSync("git", ["rev-parse", "--short", "HEAD"], { cwd: o.root, encoding: "utf8" });
  return {
    machine: `${cpu.length} × ${cpu[0]?.model.trim() ?? "unknown CPU"}`,
    node: process.version,
    date: new Date().toISOString().slice(0, 10),
    commit: git.status === 0 ? git.stdout.trim() : "unknown",
    loadBefore,
    rounds: o.rounds,
    timings,
  };
}

/** The measurements as the Markdown block README.md and docs/performance.md carry, then `phases` (Markdown lines: the phase table) if given. */
export function formatGoals(r: GoalsResult, phases: readonly string[] = []): string {
  const t = r.timings;
  const s = (x: number) => (x < 1 ? x.toFixed(2) : x.toFixed(1));
  const cell = (x: ProcessTiming | undefined) =>
    x === undefined ? "not measured" : `${s(median(x.wall))} s${x.cpu.length > 0 ? ` (${s(median(x.cpu))} CPU-s)` : ""}`;
  const ratio = (a: ProcessTiming | undefined, b: ProcessTiming | undefined, digits = 1) =>
    a && b ? `${(median(a.wall) / median(b.wall)).toFixed(digits)}×` : "–";
  const rows: [string, string, string, string][] = [
    [
      "`node scripts/bench.mjs exp5 --no-cache` (hashing; everything Exp. 5 does)",
      cell(t.exp5),
      t.reference ? `reference \`exp5_locomo.py\` ${cell(t.reference)}: **${ratio(t.reference, t.exp5)} faster**` : "reference not run",
      t.reference ? `≥ 30× the reference (≤ ${s(median(t.reference.wall) / 30)} s in this run)` : "≥ 30× the reference",
    ],
    ["`node scripts/bench.mjs exp6 --no-cache`", cell(t.exp6), "", "≤ 1.5 s"],
    ["`node scripts/bench.mjs exp7 --no-cache` (hashing)", cell(t.exp7), "", "≤ 3 s"],
    ["`node scripts/bench.mjs --help`", cell(t.help), "", "≤ 0.15 s"],
    ["`node scripts/bench.mjs all --embedder hashing`, warm (embeddings and result cache)", cell(t.allHashing), "", ""],
    [
      "`node scripts/bench.mjs all`: hashing and every declared model, warm",
      cell(t.allModels),
      `**${ratio(t.allModels, t.allHashing, 2)}** hashing-only`,
      "≤ 2× hashing-only",
    ],
    [
      "`node scripts/bench.mjs all --embedder hashing --no-cache` (recomputed from cached embeddings)",
      cell(t.allHashingRecomputed),
      "",
      "",
    ],
    [
      "`node scripts/bench.mjs all --no-cache`: every declared model, recomputed",
      cell(t.allModelsRecomputed),
      `${ratio(t.allModelsRecomputed, t.allHashingRecomputed, 2)} hashing-only recomputed`,
      "",
    ],
  ];
  return [
    `Measured by \`pnpm bench:perf --goals --rounds ${r.rounds}\` on ${r.date} at commit ${r.commit}: ${r.machine}, Node ${r.node}, load average ${r.loadBefore.join(" ")} before the run. Medians of ${r.rounds} rounds, each process timed whole (start-up to exit), the rounds interleaved so every row ran in the same minutes. "Warm" means the embedding cache and the result cache hold the run's inputs (a rerun after a first run: every experiment replayed, checked by sha256); \`--no-cache\` recomputes every experiment. Machine-dependent; never asserted by a test.`,
    "",
    "| process | median wall (CPU) | compared | goal (issue 19) |",
    "|---|---:|---|---|",
    ...rows.map((row) => `| ${row.join(" | ")} |`),
    ...helperLine(t),
    ...(phases.length > 0 ? ["", ...phases] : []),
  ].join("\n");
}

/** The line after the table: of each recomputing experiment's CPU, the median share of Node's helper threads (none when unmeasured). */
function helperLine(t: GoalsResult["timings"]): string[] {
  const parts = (["exp5", "exp6", "exp7"] as const).flatMap((key) => {
    const x = t[key];
    if (!x || x.helperCpu.length === 0 || x.cpu.length === 0) return [];
    return [`${key} ${median(x.helperCpu).toFixed(2)} of ${median(x.cpu).toFixed(2)} CPU-s`];
  });
  if (parts.length === 0) return [];
  return [
    "",
    `Of that CPU, Node's helper threads (${HELPER_THREADS}; the rest is the threads running JavaScript), medians: ${parts.join(", ")}.`,
  ];
}

const BEGIN = "<!-- performance:begin -->";
const END = "<!-- performance:end -->";

/**
 * `text` with the block between the performance markers replaced by `block`; throws when the markers are missing.
 * @internal exported for tests only: test/perf-goals.test.ts.
 */
export function replacePerformanceBlock(text: string, block: string, file: string): string {
  const a = text.indexOf(BEGIN);
  const b = text.indexOf(END);
  if (a < 0 || b < a)
    throw new Error(`${file}: no "${BEGIN}" … "${END}" block to replace; add the two markers where the measured table belongs`);
  return `${text.slice(0, a + BEGIN.length)}\n<!-- Generated by \`pnpm bench:perf --goals --write ${file}\`; rerun it to update. -->\n${block}\n${text.slice(b)}`;
}

function readText(file: string): string {
  if (!existsSync(file)) throw new Error(`${file}: no such file`);
  return readFileSync(file, "utf8");
}

/** Throw unless `file` exists and holds a performance block (what --write needs, checked before measuring). */
export function checkPerformanceBlock(file: string): void {
  replacePerformanceBlock(readText(file), "", file);
}

/** Replace the performance block of each file (named relative to `root`; written to a temporary file, then renamed: never half-written). */
export function writePerformanceBlock(files: readonly string[], block: string, root: string): void {
  const updated = files.map((f) => [f, replacePerformanceBlock(readText(f), block, relative(root, f).split(sep).join("/"))] as const);
  for (const [f, text] of updated) {
    const tmp = `${f}.goals-${process.pid}`;
    writeFileSync(tmp, text);
    renameSync(tmp, f);
  }
}
