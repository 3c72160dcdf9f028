#!/usr/bin/env node
/**
 * `pnpm bench:perf` — throughput of the two dataset experiments (Exp. 5 LoCoMo, Exp. 6 EpiRec):
 * each runs in-process N times (compute only, data and embedder loaded once) and as a whole
 * `node dist/cli.js <exp>` process N times (what a user waits for). Prints a table; results go to
 * a temp folder that is removed afterwards. Timings are machine-dependent and never asserted.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { cpus, loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { Bm25Index, descendingOrder, type Embedder, type EmbedderOptions } from "@persode/core";
import {
  DECLARED_MODELS,
  EPIREC,
  LOCOMO,
  loadEpiRec,
  loadLocomo,
  provisionModel,
  resolveDataset,
  type LocomoDataset,
  type EpisodicCorpus,
  loadLongMemEval,
} from "@persode/datasets";
import { buildEmbedder } from "./embedder-setup.js";
import { selectQuestions, turnText, type LocomoExclusions } from "./experiments/exp5-locomo.js";
import { benchmarkTexts, measureBenchAll, measureEmbedding, writeTexts } from "./perf-model.js";
import {
  atomicWriteSeconds,
  diskWriteBytesPerSecond,
  folderBytes,
  folderFiles,
  formatPhases,
  hashedBytes,
  HELPER_THREADS,
  median,
  phasesMarkdown,
  sha256BytesPerSecond,
  timeProcess,
  type PhaseRun,
  type ProcessTime,
  type WriteSpeeds,
} from "./perf-phases.js";
import { phaseSeconds, resetPhases } from "./phases.js";
import { forgetResampleSets } from "./stats/bootstrap.js";
import type { ExperimentContext } from "./experiments/experiment.js";
import { findExperiment } from "./experiments/index.js";
import { UsageError, embedderChoices, embedderOption, embedderSettings, intOption } from "./options.js";
import { DEFAULT_SAMPLES, DEFAULT_SEED } from "./result-records.js";
import { DEFAULT_RANKINGS_DEPTH } from "./defaults.js";

const USAGE = `Usage: pnpm bench:perf [--embedder NAME] [--model ID] [--dtype D] [--repeat N]
       pnpm bench:perf --embedding [--texts-out FILE]
       pnpm bench:perf --all
       pnpm bench:perf --latency [--embedder NAME] [--data FILE]
       pnpm bench:perf --goals [--rounds N] [--reference "CMD"] [--write FILE]...

Times Exp. 5 (LoCoMo) and Exp. 6 (EpiRec) in-process and as whole CLI processes.
  --embedder NAME   ${embedderChoices().join(" | ")} (default hashing)
  --model, --dtype  passed to a neural embedder, as for \`pnpm bench\`
  --repeat N        runs per measurement (default 3, at most 100)
  --embedding       every declared model's texts/s and word pieces/s on the texts Exp. 5 and 6 embed, each in
                    its role, cold and warm (embedding cache); needs \`pnpm model fetch --all\`
  --texts-out FILE  with --embedding: also write those texts ({document, query} JSON) to time another implementation on them
  --limit N         with --embedding: only the first N documents and N queries
  --all             whole \`pnpm bench all\`: hashing only, then every embedder cold and warm (a scratch cache)
  --latency         per strategy: index build and query latency p50/p95 on LoCoMo and LongMemEval (the committed
                    fixture, or --data FILE), beside its recall from results/exp5_locomo_protocols.json
  --goals           issue 19's goals as whole processes, interleaved rounds in the same minutes (after one untimed
                    warm-up \`bench all\`): exp5 (beside the reference's exp5_locomo.py when --reference gives its
                    command), exp6, exp7, --help, \`bench all\` hashing-only and with every declared model; a Markdown table
  --rounds N        with --goals: rounds (default 3, at most 20)
  --reference CMD   with --goals: a shell command running the reference implementation's experiments/exp5_locomo.py
  --write FILE      with --goals: replace the <!-- performance:begin/end --> block of FILE (repeatable)
  -h, --help        this text
Data comes from the cache, PERSODE_DATA_MIRROR or a download, as for \`pnpm bench\`.`;

/** The experiments whose throughput is measured (both rank whole stores for every query). */
export const PERF_EXPERIMENTS = ["exp5", "exp6"] as const;

/** One in-process run: compute seconds and the experiment's work counters. */
export interface PerfRun extends PhaseRun {
  seconds: number;
  counters: Record<string, number>;
}

/** Everything `pnpm bench:perf` measured. */
export interface PerfResult {
  embedder: string;
  repeat: number;
  /** Seconds to load and verify each dataset (once, before the in-process runs). */
  loadSeconds: { locomo: number; epirec: number };
  /** Per experiment id, the in-process runs in order. */
  inProcess: Record<string, PerfRun[]>;
  /** Per experiment id, each whole `node dist/cli.js <exp>` process's timing (perf-phases.ts ProcessTime). */
  wholeProcess: Record<string, ProcessTime[]>;
  /** BM25 alone over Exp. 5's stores and questions, per run: index build and full rankings. */
  bm25: Bm25Timing[];
  /** This machine's write and sha256 speeds, which the write phase's lower bound is made of. */
  speeds: WriteSpeeds;
}

/** One timing of BM25 over every LoCoMo store and included question. */
export interface Bm25Timing {
  questions: number;
  memories: number;
  indexSeconds: number;
  rankSeconds: number;
  /** CPU seconds (user + system) of the whole measurement: what it costs on an idle machine. */
  cpuSeconds: number;
}

/**
 * What BM25 adds to Exp. 5: build one index per conversation (as the strategy does, once per store)
 * and rank every store memory for every included question (scores + full stable order).
 */
export function timeBm25(data: LocomoDataset): Bm25Timing {
  const excluded: LocomoExclusions = { adversarial_cat5: 0, no_evidence: 0, unresolvable_evidence: 0 };
  const perConv = data.conversations.map((c, i) => ({
    texts: c.sessions.flatMap((s) => s.turns.map(turnText)),
    questions: selectQuestions(c, i, excluded).map((q) => q.question),
  }));
  const cpu0 = process.cpuUsage();
  let indexSeconds = 0;
  let rankSeconds = 0;
  let questions = 0;
  let memories = 0;
  for (const { texts, questions: qs } of perConv) {
    const t0 = performance.now();
    const index = new Bm25Index(texts);
    const t1 = performance.now();
    for (const q of qs) descendingOrder(index.scores(q));
    rankSeconds += (performance.now() - t1) / 1000;
    indexSeconds += (t1 - t0) / 1000;
    questions += qs.length;
    memories += texts.length;
  }
  const cpu = process.cpuUsage(cpu0);
  return { questions, memories, indexSeconds, rankSeconds, cpuSeconds: (cpu.user + cpu.system) / 1e6 };
}

async function timed<T>(f: () => Promise<T>): Promise<[T, number]> {
  const t0 = performance.now();
  const value = await f();
  return [value, (performance.now() - t0) / 1000];
}

/** What to measure: the embedder (registry name and settings) and the runs per measurement. */
export interface PerfOptions {
  embedder: string;
  settings?: EmbedderOptions;
  repeat: number;
  /** The CLI to time as a whole process (default: dist/cli.js next to this file). */
  cliPath?: string;
}

/**
 * Run Exp. 5 and 6 `repeat` times each in-process (data and embedder loaded once), into folders below `tmp`: each
 * run's seconds, counters, phases, bytes written and bytes hashed for a manifest.
 */
async function inProcessRuns(
  embedder: Embedder,
  key: string,
  data: { locomo: LocomoDataset; epirec: EpisodicCorpus },
  repeat: number,
  tmp: string,
): Promise<Record<string, PerfRun[]>> {
  const inProcess: Record<string, PerfRun[]> = {};
  for (const id of PERF_EXPERIMENTS) {
    const exp = findExperiment(id)!;
    const runs: PerfRun[] = [];
    for (let i = 1; i <= repeat; i++) {
      const ctx: ExperimentContext = {
        out: join(tmp, `in-process-${id}-${i}`),
        runKey: key,
        embedder: async () => embedder,
        seed: DEFAULT_SEED,
        samples: DEFAULT_SAMPLES,
        rankingsDepth: DEFAULT_RANKINGS_DEPTH,
        locomo: async () => data.locomo,
        epirec: async () => data.epirec,
        longmemeval: () => loadLongMemEval(),
        target: `${id} (bench:perf)`,
        paperFormat: true,
      };
      // every run draws and resamples as a fresh process would (the in-process resample sets would otherwise serve runs 2 …)
      forgetResampleSets();
      resetPhases();
      const [report, seconds] = await timed(() => exp.run(ctx));
      const phases = phaseSeconds();
      runs.push({
        seconds,
        counters: report.counters ?? {},
        phases,
        bytesWritten: folderBytes(ctx.out),
        filesWritten: folderFiles(ctx.out),
        bytesHashed: hashedBytes(ctx.out),
      });
    }
    inProcess[id] = runs;
  }
  return inProcess;
}

/** This machine's page-cache write speed (into `tmp`) and sha256 speed. */
async function writeSpeeds(tmp: string): Promise<WriteSpeeds> {
  return { disk: await diskWriteBytesPerSecond(tmp), perFile: await atomicWriteSeconds(tmp), sha256: sha256BytesPerSecond() };
}

/** Measure Exp. 5 and 6 `repeat` times in-process and as whole CLI processes (docs/spec.md §7; issue 4's speed target). */
export async function runPerf(opts: PerfOptions): Promise<PerfResult> {
  const cliPath = opts.cliPath ?? fileURLToPath(new URL("./cli.js", import.meta.url));
  const env = process.env;
  const settings = opts.settings ?? embedderSettings(opts.embedder, {}, env);
  const { embedder, key } = await buildEmbedder(opts.embedder, settings);
  const embedderArgs = [
    ...(opts.embedder !== "hashing" ? ["--embedder", opts.embedder] : []),
    ...(settings.model !== undefined ? ["--model", settings.model] : []),
    ...(settings.dtype !== undefined ? ["--dtype", settings.dtype] : []),
  ];
  const [locomo, locomoSeconds] = await timed(() => loadLocomo());
  const [epirec, epirecSeconds] = await timed(() => loadEpiRec());
  const tmp = await mkdtemp(join(tmpdir(), "persode-perf-"));
  const result: PerfResult = {
    embedder: opts.embedder,
    repeat: opts.repeat,
    loadSeconds: { locomo: locomoSeconds, epirec: epirecSeconds },
    inProcess: {},
    wholeProcess: {},
    bm25: [],
    speeds: { disk: 0, perFile: 0, sha256: 0 },
  };
  try {
    result.speeds = await writeSpeeds(tmp);
    for (let i = 1; i <= opts.repeat; i++) result.bm25.push(timeBm25(locomo));
    result.inProcess = await inProcessRuns(embedder, key, { locomo, epirec }, opts.repeat, tmp);
    await embedder.dispose?.();
    for (const id of PERF_EXPERIMENTS) {
      const times: ProcessTime[] = [];
      for (let i = 1; i <= opts.repeat; i++) {
        times.push(
          timeProcess([process.execPath, cliPath, id, "--no-cache", "--out", join(tmp, `process-${id}-${i}`), ...embedderArgs], env),
        );
      }
      result.wholeProcess[id] = times;
    }
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
  return result;
}

/**
 * The phase table of the `--goals` block (Markdown): Exp. 5 and 6 with hashing, `repeat` in-process runs each, with
 * the write phase's bound measured in the same minutes.
 */
export async function goalsPhases(repeat: number): Promise<string[]> {
  const { embedder, key } = await buildEmbedder("hashing", embedderSettings("hashing", {}, process.env));
  const [locomo, locomoSeconds] = await timed(() => loadLocomo());
  const [epirec, epirecSeconds] = await timed(() => loadEpiRec());
  const tmp = await mkdtemp(join(tmpdir(), "persode-goals-phases-"));
  try {
    const speeds = await writeSpeeds(tmp);
    const runs = await inProcessRuns(embedder, key, { locomo, epirec }, repeat, tmp);
    return phasesMarkdown("hashing", runs, { exp5: locomoSeconds, exp6: epirecSeconds }, speeds);
  } finally {
    await embedder.dispose?.();
    await rm(tmp, { recursive: true, force: true });
  }
}

function rate(count: number | undefined, seconds: number): string {
  if (count === undefined || seconds <= 0) return "–";
  const r = count / seconds;
  return r >= 1e6 ? `${(r / 1e6).toFixed(2)} M` : r >= 1e4 ? `${(r / 1e3).toFixed(1)} k` : r.toFixed(0);
}

function table(header: string[], rows: string[][]): string[] {
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((x, c) => (c === 0 ? x.padEnd(widths[c]!) : x.padStart(widths[c]!)))
      .join("  ")
      .trimEnd();
  return [line(header), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)];
}

/** The measurements as a plain-text report: machine, in-process throughput per run and median, whole-process wall times. */
export function formatPerf(r: PerfResult): string {
  const cpu = cpus();
  const load = loadavg()
    .map((x) => x.toFixed(2))
    .join(" ");
  const out: string[] = [
    `Persode-TS throughput — embedder ${r.embedder}, ${r.repeat} run${r.repeat === 1 ? "" : "s"} per measurement`,
    `machine: ${cpu.length} × ${cpu[0]?.model.trim() ?? "unknown CPU"}, load average ${load}, Node ${process.version}`,
    `data load + sha256 check (once): LoCoMo ${r.loadSeconds.locomo.toFixed(3)} s, EpiRec ${r.loadSeconds.epirec.toFixed(3)} s`,
    "",
    "In-process compute (embedding, ranking, metrics, bootstrap CIs, official reports, writing files):",
  ];
  const rows: string[][] = [];
  for (const [id, runs] of Object.entries(r.inProcess)) {
    const itemKey = id === "exp5" ? "questions" : "probes";
    const row = (label: string, seconds: number, c: Record<string, number>) => [
      id,
      label,
      seconds.toFixed(3),
      `${rate(c[itemKey], seconds)} ${itemKey}/s`,
      rate(c.rankings, seconds),
      rate(c.ranked_memories, seconds),
    ];
    runs.forEach((run, i) => rows.push(row(String(i + 1), run.seconds, run.counters)));
    rows.push(row("median", median(runs.map((x) => x.seconds)), runs[0]!.counters));
  }
  out.push(...table(["exp", "run", "seconds", "queries/s", "rankings/s", "ranked memories/s"], rows));
  if (r.bm25.length > 0) {
    const b = r.bm25[0]!;
    const total = (t: Bm25Timing) => t.indexSeconds + t.rankSeconds;
    out.push(
      "",
      `BM25 over all LoCoMo questions (what the bm25 strategy adds to Exp. 5; the hybrids reuse its scores): ${b.questions} questions, ${b.memories} memories in ${r.bm25.length === 1 ? "1 run" : `${r.bm25.length} runs`}`,
      ...table(
        ["run", "index (s)", "rank (s)", "total (s)", "CPU (s)"],
        [
          ...r.bm25.map((t, i) => [
            String(i + 1),
            t.indexSeconds.toFixed(3),
            t.rankSeconds.toFixed(3),
            total(t).toFixed(3),
            t.cpuSeconds.toFixed(3),
          ]),
          [
            "median",
            median(r.bm25.map((t) => t.indexSeconds)).toFixed(3),
            median(r.bm25.map((t) => t.rankSeconds)).toFixed(3),
            median(r.bm25.map(total)).toFixed(3),
            median(r.bm25.map((t) => t.cpuSeconds)).toFixed(3),
          ],
        ],
      ),
    );
  }
  out.push("", ...formatPhases(r.embedder, r.inProcess, { exp5: r.loadSeconds.locomo, exp6: r.loadSeconds.epirec }, r.speeds));
  out.push(
    "",
    "Whole process: node packages/benchmarks/dist/cli.js <exp> --no-cache --out <tmp> (start-up, data load, compute, writing); CPU medians, of them",
    `Node's helper threads (${HELPER_THREADS}; the rest ran JavaScript):`,
  );
  const med = (xs: (number | undefined)[]) => {
    const known = xs.filter((x): x is number => x !== undefined);
    return known.length === xs.length && known.length > 0 ? median(known).toFixed(2) : "–";
  };
  const prow = Object.entries(r.wholeProcess).map(([id, ts]) => [
    id,
    ...ts.map((t) => t.wall.toFixed(2)),
    median(ts.map((t) => t.wall)).toFixed(2),
    med(ts.map((t) => t.cpu)),
    med(ts.map((t) => t.helperCpu)),
  ]);
  out.push(
    ...table(
      ["exp", ...Array.from({ length: r.repeat }, (_, i) => `run ${i + 1} (s)`), "median (s)", "CPU (s)", "helper threads (CPU s)"],
      prow,
    ),
  );
  return out.join("\n") + "\n";
}

/** The --embedding / --all measurements as a plain-text report. */
async function modelPerf(embedding: boolean, all: boolean, textsOut: string | undefined, limit: number | undefined): Promise<string> {
  const cpu = cpus();
  const out = [
    `Persode-TS neural embedder throughput — ${cpu.length} × ${cpu[0]?.model.trim() ?? "unknown CPU"}, load average ${loadavg()
      .map((x) => x.toFixed(2))
      .join(" ")}, Node ${process.version}`,
  ];
  const models = await Promise.all(DECLARED_MODELS.map((m) => provisionModel({ model: m, offline: true, log: () => undefined })));
  const model = models[0]!;
  if (embedding) {
    const all = await benchmarkTexts();
    const texts = { document: all.document.slice(0, limit), query: all.query.slice(0, limit) };
    if (textsOut) await writeTexts(resolve(textsOut), texts);
    out.push(
      "",
      `Embedding the distinct texts of Exp. 5 and 6 (${texts.document.length} documents, ${texts.query.length} queries; a model without prefixes embeds their union once) with every declared model:`,
    );
    const rows: string[][] = [];
    for (const m of DECLARED_MODELS) {
      for (const t of await measureEmbedding(m.name, texts, { offline: true })) {
        rows.push([
          t.label,
          String(t.texts),
          t.seconds.toFixed(2),
          t.cpuSeconds.toFixed(2),
          rate(t.texts, t.seconds),
          rate(t.wordPieces, t.seconds),
          rate(t.texts, t.cpuSeconds),
        ]);
      }
    }
    out.push(...table(["run", "texts", "wall s", "CPU s", "texts/s (wall)", "word pieces/s (wall)", "texts/CPU-s"], rows));
  }
  if (all) {
    const env: NodeJS.ProcessEnv = { ...process.env, PERSODE_MODEL_DIR: model.root, PERSODE_OFFLINE: "1" };
    for (const ds of [LOCOMO, EPIREC]) env[ds.envPathVar] = (await resolveDataset(ds, { fillCache: false })).path;
    const script = fileURLToPath(new URL("../../../scripts/bench.mjs", import.meta.url));
    out.push("", "Whole `pnpm bench all` runs (node scripts/bench.mjs all --out <tmp>, scratch data cache):");
    out.push(
      ...table(
        ["run", "seconds"],
        (await measureBenchAll(script, env)).map((t) => [t.label, t.seconds.toFixed(1)]),
      ),
    );
  }
  return out.join("\n") + "\n";
}

/** Run `pnpm bench:perf` with argv (without node and script); returns the exit code. */
export async function main(argv: string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        embedder: { type: "string" },
        model: { type: "string" },
        dtype: { type: "string" },
        repeat: { type: "string" },
        embedding: { type: "boolean" },
        "texts-out": { type: "string" },
        limit: { type: "string" },
        all: { type: "boolean" },
        latency: { type: "boolean" },
        data: { type: "string" },
        goals: { type: "boolean" },
        rounds: { type: "string" },
        reference: { type: "string" },
        write: { type: "string", multiple: true },
        help: { type: "boolean", short: "h" },
      },
    }));
  } catch (e) {
    process.stderr.write(`error: ${(e as Error).message}\n\n${USAGE}\n`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(USAGE + "\n");
    return 0;
  }
  try {
    if (!values.goals && (values.rounds !== undefined || values.reference !== undefined || values.write !== undefined))
      throw new UsageError("--rounds, --reference and --write go with --goals");
    if (values.goals) {
      const { checkPerformanceBlock, formatGoals, measureGoals, writePerformanceBlock } = await import("./perf-goals.js");
      const rounds = intOption(values.rounds, "rounds", 3, 1, 20);
      const files = (values.write ?? []).map((f) => resolve(f));
      // the markers are checked before minutes of measuring, not after
      for (const f of files) {
        try {
          checkPerformanceBlock(f);
        } catch (e) {
          throw new UsageError(`--write: ${(e as Error).message}`);
        }
      }
      const root = fileURLToPath(new URL("../../../", import.meta.url));
      const goals = await measureGoals({ root, rounds, reference: values.reference });
      process.stderr.write("goals: the phases of 3 in-process runs each of exp5 and exp6 (hashing)\n");
      const block = formatGoals(goals, await goalsPhases(3));
      if (files.length > 0) writePerformanceBlock(files, block, root);
      process.stdout.write(block + "\n");
      return 0;
    }
    if (values.embedding || values.all) {
      process.stdout.write(
        await modelPerf(
          Boolean(values.embedding),
          Boolean(values.all),
          values["texts-out"],
          values.limit === undefined ? undefined : intOption(values.limit, "limit", 0, 1, 1_000_000),
        ),
      );
      return 0;
    }
    if (values.latency) {
      // Latency beside quality (latency.ts): its own module; the ladder file gives each strategy's recall.
      const { runLatency } = await import("./latency.js");
      const name = embedderOption(values.embedder);
      const { embedder, key } = await buildEmbedder(name, embedderSettings(name, values));
      process.stdout.write(
        await runLatency(embedder, key, { data: values.data, ladderFile: resolve("results/exp5_locomo_protocols.json") }),
      );
      await embedder.dispose?.();
      return 0;
    }
    const embedder = embedderOption(values.embedder);
    const repeat = intOption(values.repeat, "repeat", 3, 1, 100);
    process.stdout.write(formatPerf(await runPerf({ embedder, settings: embedderSettings(embedder, values), repeat })));
    return 0;
  } catch (e) {
    process.stderr.write(`error: ${(e as Error).message}\n`);
    return e instanceof UsageError ? 2 : 1;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
