/**
 * `pnpm bench:perf --goals`: the speed goals of issue 19 measured as whole processes, back to back in the same
 * minutes, with the machine named: Exp. 5 against the reference implementation's exp5_locomo.py (when its command
 * is given), Exp. 6, Exp. 7, `--help`, and a warm `pnpm bench all` with every declared model against hashing only.
 * Prints a Markdown block; `--write FILE` replaces the block between `<!-- performance:begin -->` and
 * `<!-- performance:end -->` in FILE (README.md, docs/performance.md). Timings are machine-dependent: reported,
 * never asserted.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { cpus, loadavg, tmpdir } from "node:os";
import { join, relative, sep } from "node:path";
import { median, timeProcess } from "./perf-phases.js";

/** One whole-process measurement: what ran, and its wall and CPU seconds per round. */
interface ProcessTiming {
  label: string;
  wall: number[];
  /** User + system seconds of the process and its children (Linux /proc; empty elsewhere). */
  cpu: number[];
}

/** Everything --goals measured. */
export interface GoalsResult {
  machine: string;
  node: string;
  date: string;
  commit: string;
  loadBefore: number[];
  rounds: number;
  timings: Record<"reference" | "exp5" | "exp6" | "exp7" | "help" | "allHashing" | "allModels", ProcessTiming | undefined>;
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
  };
  const plan: [keyof GoalsResult["timings"], string, string[] | string][] = [
    ...(o.reference ? [["reference", "reference exp5_locomo.py", o.reference] as [keyof GoalsResult["timings"], string, string]] : []),
    ["exp5", "node scripts/bench.mjs exp5", [node, bench, "exp5", "--out", out("exp5")]],
    ["exp6", "node scripts/bench.mjs exp6", [node, bench, "exp6", "--out", out("exp6")]],
    ["exp7", "node scripts/bench.mjs exp7", [node, bench, "exp7", "--out", out("exp7")]],
    ["help", "node scripts/bench.mjs --help", [node, bench, "--help"]],
    [
      "allHashing",
      "node scripts/bench.mjs all --embedder hashing",
      [node, bench, "all", "--embedder", "hashing", "--out", out("all-hashing")],
    ],
    ["allModels", "node scripts/bench.mjs all (every declared model, warm)", [node, bench, "all", "--out", out("all-models")]],
  ];
  const loadBefore = loadavg().map((x) => Number(x.toFixed(2)));
  try {
    // a first, untimed bench all warms the embedding cache (and the OS's file cache) for every declared model
    log("goals: warming the caches (node scripts/bench.mjs all, untimed)");
    timeProcess([node, bench, "all", "--out", out("warm-up")], env, o.root);
    for (let round = 1; round <= o.rounds; round++) {
      for (const [key, label, argv] of plan) {
        const r = timeProcess(argv, env, o.root);
        const t = (timings[key] ??= { label, wall: [], cpu: [] });
        t.wall.push(r.wall);
        if (r.cpu !== undefined) t.cpu.push(r.cpu);
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

/** The measurements as the Markdown block README.md and docs/performance.md carry. */
export function formatGoals(r: GoalsResult): string {
  const t = r.timings;
  const s = (x: number) => (x < 1 ? x.toFixed(2) : x.toFixed(1));
  const cell = (x: ProcessTiming | undefined) =>
    x === undefined ? "not measured" : `${s(median(x.wall))} s${x.cpu.length > 0 ? ` (${s(median(x.cpu))} CPU-s)` : ""}`;
  const ratio = (a: ProcessTiming | undefined, b: ProcessTiming | undefined, digits = 1) =>
    a && b ? `${(median(a.wall) / median(b.wall)).toFixed(digits)}×` : "–";
  const rows: [string, string, string, string][] = [
    [
      "`node scripts/bench.mjs exp5` (hashing; everything Exp. 5 does)",
      cell(t.exp5),
      t.reference ? `reference \`exp5_locomo.py\` ${cell(t.reference)}: **${ratio(t.reference, t.exp5)} faster**` : "reference not run",
      "≥ 30× the reference (≈ 2 s)",
    ],
    ["`node scripts/bench.mjs exp6`", cell(t.exp6), "", "≤ 1.5 s"],
    ["`node scripts/bench.mjs exp7` (hashing)", cell(t.exp7), "", "≤ 3 s"],
    ["`node scripts/bench.mjs --help`", cell(t.help), "", "≤ 0.15 s"],
    ["`node scripts/bench.mjs all --embedder hashing`", cell(t.allHashing), "", ""],
    [
      "`node scripts/bench.mjs all`: hashing and every declared model, warm",
      cell(t.allModels),
      `**${ratio(t.allModels, t.allHashing, 2)}** hashing-only`,
      "≤ 2× hashing-only",
    ],
  ];
  return [
    `Measured by \`pnpm bench:perf --goals --rounds ${r.rounds}\` on ${r.date} at commit ${r.commit}: ${r.machine}, Node ${r.node}, load average ${r.loadBefore.join(" ")} before the run. Medians of ${r.rounds} rounds, each process timed whole (start-up to exit), the rounds interleaved so every row ran in the same minutes. Machine-dependent; never asserted by a test.`,
    "",
    "| process | median wall (CPU) | compared | goal (issue 19) |",
    "|---|---:|---|---|",
    ...rows.map((row) => `| ${row.join(" | ")} |`),
  ].join("\n");
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
