#!/usr/bin/env node
import { readFile, realpath, stat } from "node:fs/promises";
import { register } from "node:module";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
// Only what parsing and checking the command line needs is imported here: `--help` and usage errors answer
// without loading datasets, experiments or evaluators (each is imported where its target runs).
import type { EpisodicCorpus, LocomoDataset } from "@persode/datasets";
import { DECLARED_MODELS } from "@persode/datasets/models";
import type { ExperimentContext, ExperimentReport, RunnableExperiment } from "./experiments/experiment.js";
import type { RankingsDepth } from "./defaults.js";
import { UsageError, callerPath, embedderOption, embedderSettings } from "./options.js";
import { answerUsage, checkCommandLine, parseOrAnswer, reportUsageError, type BenchValues } from "./usage.js";
import { StagedResults } from "./staging.js";
import { Interrupted, SIGNAL_EXIT } from "./interrupt.js";
import { SUPERVISED_ENV, runSupervised } from "./supervise.js";

function once<T>(f: () => Promise<T>): () => Promise<T> {
  let p: Promise<T> | undefined;
  return () => (p ??= f());
}

/** What `scripts/bench-run.mjs` adds to an experiment run (the benchmarks package never imports the report). */
export interface RunHooks {
  /**
   * Called after every experiment of the run succeeded, before anything is published: render into
   * `staged.dir` (the staging copy of `out`); files for outside the folder go through `staged.stageFileFor`.
   */
  afterRun?(staged: StagedResults): Promise<void>;
  /** Render figures, manifest and report.html of the results folder `dir` (locomo-eval --report). */
  renderReport?(dir: string): Promise<void>;
}

/** Run the CLI with argv (without node and script); returns the exit code. */
export async function main(argv: string[], hooks: RunHooks = {}): Promise<number> {
  const parsed = parseOrAnswer(argv);
  if (typeof parsed === "number") return parsed;
  const { values, positionals } = parsed;
  let out: string | undefined;
  try {
    const checked = checkCommandLine(values, positionals);
    const { target, seed, samples, rankingsDepth } = checked;
    out = checked.out;
    for (const plugin of (values.plugin as string[] | undefined) ?? []) await loadPlugin(plugin);
    if (target === "epirec-eval") return await epirecEval(values);
    if (target === "longmemeval-eval") return await longmemevalEval(values, { seed, samples }, hooks);
    if (target === "locomo-eval") {
      const rankings = values.rankings as string | undefined;
      const output = values.output as string | undefined;
      if (!rankings || !output) throw new UsageError("locomo-eval needs --rankings FILE and --output FILE");
      if (await sameFile(callerPath(rankings), callerPath(output)))
        throw new UsageError(`--output ${output} is the rankings file itself (${rankings}); choose another --output FILE`);
      const { runLocomoEval } = await import("./locomo-eval-command.js");
      const report = typeof values.report === "string" ? values.report : undefined;
      if (report !== undefined && !hooks.renderReport)
        throw new UsageError("--report needs the report renderer: run it as pnpm bench locomo-eval …");
      const name = typeof values.name === "string" ? values.name : "outside system";
      // The built-in strategies it is paired with rank with this embedder and, for a neural one, these weights (checked before any work).
      const embedder = embedderOption(values.embedder);
      const settings = embedderSettings(embedder, values, process.env);
      return await runLocomoEval({
        embedder,
        embedderSettings: settings,
        rankings,
        output,
        allowMissing: values["allow-missing"] === true,
        seed,
        samples,
        ...(report !== undefined ? { report: { dir: report, name, render: hooks.renderReport! } } : {}),
      });
    }
    if (target === "corpus") {
      const { runCorpusCommand } = await import("./corpus-command.js");
      return await runCorpusCommand(values);
    }
    const { EXPERIMENTS, findExperiment } = await import("./experiments/index.js");
    const selected = target === "all" ? EXPERIMENTS.filter((e) => e.inAll !== false) : [findExperiment(target)!];
    await startHelperThreads(selected, values);
    // `all` reproduces both halves of the paper (hashing, then the pinned MiniLM), then every declared model
    // `inBenchAll` puts in the extended, audited and Exp. 7 files (unless --embedder picks one).
    const names =
      values.embedder === undefined && target === "all"
        ? ["hashing", ...DECLARED_MODELS.filter((m) => m.paper || m.inBenchAll).map((m) => m.name)]
        : [embedderOption(values.embedder)];
    const only = findExperiment(target);
    if (only?.paperOnly && !(await paperFormatRun(names[0]!, values))) {
      throw new UsageError(
        `${only.id} writes only paper-format files, which hold hashing and all-MiniLM-L6-v2; ${names[0]} runs go to the extended, audited and Exp. 7 files (pnpm bench exp5 | exp6 | exp7 --embedder ${names[0]})`,
      );
    }
    // Everything is written into a staging copy of `out` and published together at the end.
    const folder = out!;
    await StagedResults.within(folder, (staged) =>
      runExperiments(selected, staged, { target, names, values, seed, samples, rankingsDepth }, hooks),
    );
    return 0;
  } catch (e) {
    if (e instanceof Interrupted) {
      process.stderr.write(`\ninterrupted (${e.signal}): nothing was published${out ? `; ${out} is unchanged` : ""}\n`);
      return SIGNAL_EXIT[e.signal];
    }
    if (e instanceof UsageError) return reportUsageError(e);
    const err = e as Error;
    process.stderr.write(`error: ${err.message}\n`);
    if (process.env.PERSODE_DEBUG) process.stderr.write(`${err.stack}\n`);
    return 1;
  }
}

/**
 * The helper threads to start before the selected experiments' code loads: those they use (their `threads`), when every
 * one of them will be computed — the result cache is off (`--no-cache` or PERSODE_RESULT_CACHE=0). With the cache on a
 * run may be replayed, and an experiment that computes starts its threads itself when it runs.
 * @internal exported for test/helper-threads.test.ts.
 */
export function helperThreads(selected: readonly Pick<RunnableExperiment, "threads">[], resultCache: boolean): Set<"rank" | "statistics"> {
  return new Set(resultCache ? [] : selected.flatMap((e) => e.threads ?? []));
}

/**
 * Start helperThreads() now, so those threads load their code while this one loads the experiments' and the data:
 * the ranking's second core and the statistics pool are ready when the first job comes.
 */
async function startHelperThreads(selected: readonly RunnableExperiment[], values: BenchValues): Promise<void> {
  if (!selected.some((e) => e.threads)) return;
  const { resultCacheEnabled } = await import("./result-cache.js");
  const threads = helperThreads(selected, resultCacheEnabled(values["no-cache"] === true));
  if (threads.has("rank")) (await import("./rank-worker-thread.js")).prepareRankWorker();
  if (threads.has("statistics")) (await import("./stats/thread-pool.js")).preparePool();
}

/** Run the selected experiments into the staging folder, let the hook render, then publish. */
async function runExperiments(
  selected: RunnableExperiment[],
  staged: StagedResults,
  run: { target: string; names: readonly string[]; values: BenchValues; seed: number; samples: number; rankingsDepth: RankingsDepth },
  hooks: RunHooks,
): Promise<void> {
  const { target, names, values } = run;
  const { loadEpiRec, loadLocomo, loadLongMemEval } = await import("@persode/datasets");
  const { buildEmbedder } = await import("./embedder-setup.js");
  const { formatResultJson } = await import("@persode/results");
  const { readPrevious, writeAtomic } = await import("./result-records.js");
  const { ResultCache, resultCacheEnabled, runIdentity } = await import("./result-cache.js");
  const cache = ResultCache.open({ enabled: resultCacheEnabled(values["no-cache"] === true), plugins: values.plugin !== undefined });
  const locomo = once((): Promise<LocomoDataset> => loadLocomo());
  const epirec = once((): Promise<EpisodicCorpus> => loadEpiRec());
  const longmemeval = once(() => loadLongMemEval(typeof values.data === "string" ? { data: values.data } : {}));
  const reports: { title: string; id: string; report: ExperimentReport; seconds: number }[] = [];
  const timings: Record<string, unknown> = {};
  // Every neural model is provisioned and loaded before any experiment runs: a missing model fails the
  // run before a single file is written, and each run key (the model's name) is known up front.
  const builtByName = new Map<string, Awaited<ReturnType<typeof buildEmbedder>>>();
  try {
    for (const embedderName of names) {
      if (embedderName !== "hashing")
        builtByName.set(embedderName, await buildEmbedder(embedderName, embedderSettings(embedderName, values, process.env)));
    }
    for (const embedderName of names) {
      const settings = embedderSettings(embedderName, embedderName === "hashing" && names.length > 1 ? {} : values, process.env);
      const built = builtByName.get(embedderName);
      const hashing = once(async () => (await buildEmbedder("hashing", settings)).embedder);
      const key = built?.key ?? "hashing";
      const ctx: ExperimentContext = {
        out: staged.dir,
        runKey: key,
        embedder: built ? async () => built.embedder : hashing,
        seed: run.seed,
        samples: run.samples,
        rankingsDepth: run.rankingsDepth,
        locomo,
        epirec,
        longmemeval,
        // The command as typed (`all` runs both embedders), so every file names the command that regenerates it.
        paperFormat: await paperFormatRun(embedderName, embedderName === "hashing" && names.length > 1 ? {} : values),
        target: [
          target,
          ...(values.embedder !== undefined && embedderName !== "hashing" ? ["--embedder", embedderName] : []),
          ...(typeof values.model === "string" && built ? ["--model", values.model] : []),
          ...(typeof values.dtype === "string" && built ? ["--dtype", values.dtype] : []),
          ...(typeof values.data === "string" && selected.some((e) => e.options?.includes("data")) ? ["--data", values.data] : []),
        ].join(" "),
      };
      for (const exp of selected) {
        // Exp. 1 and 2 do not depend on the embedder: run once, with the first embedder.
        if (embedderName !== names[0] && (exp.id === "exp1" || exp.id === "exp2")) continue;
        if (exp.paperOnly && !ctx.paperFormat) continue;
        const t0 = performance.now();
        const { report, replayed } = cache
          ? await cache.run(`${exp.id}${names.length > 1 ? ` [${key}]` : ""}`, ctx, runIdentity(exp.id, ctx, run), (c) => exp.run(c))
          : { report: await exp.run(ctx), replayed: false };
        const seconds = (performance.now() - t0) / 1000;
        const title = `${exp.title}${names.length > 1 ? ` [${key}]` : ""}${replayed ? " (replayed from the result cache)" : ""}`;
        reports.push({ title, id: exp.id, report, seconds });
        timings[`${exp.id}/${key}`] = {
          seconds: Number(seconds.toFixed(3)),
          ...(replayed ? { replayed } : {}),
          ...(report.counters ?? {}),
        };
      }
    }
    await cache?.prune();
  } finally {
    for (const b of builtByName.values()) await b.embedder.dispose?.();
  }
  const previous = (await readPrevious(join(staged.dir, "timings.json"))) ?? {};
  await writeAtomic(
    join(staged.dir, "timings.json"),
    formatResultJson({
      ...previous,
      ...timings,
      note: "compute seconds per experiment on the last run; machine-dependent, never part of the results",
    }),
  );
  await hooks.afterRun?.(staged);
  staged.publish();
  printSummary(reports, staged.out);
}

/** Whether a run of this embedder enters the paper-format files: any embedder but a declared model that is not the paper's own. */
async function paperFormatRun(embedderName: string, values: BenchValues): Promise<boolean> {
  if (embedderName === "hashing") return true;
  const { selectedDeclaration } = await import("./embedder-setup.js");
  const m = selectedDeclaration(embedderName, embedderSettings(embedderName, values, process.env));
  return m === undefined || m.paper;
}

let pluginHooks = false;

/**
 * Let plugins anywhere import the harness's packages: registers plugin-hooks.js once, mapping
 * `@persode/core`, `@persode/datasets` and `@persode/benchmarks` to the copies this CLI runs on.
 */
function registerPluginHooks(): void {
  if (pluginHooks) return;
  pluginHooks = true;
  const packages = {
    "@persode/core": import.meta.resolve("@persode/core"),
    "@persode/datasets": import.meta.resolve("@persode/datasets"),
    "@persode/benchmarks": new URL("./index.js", import.meta.url).href,
  };
  register(new URL("./plugin-hooks.js", import.meta.url), { data: { packages } });
}

/** Import a user module (a strategy or embedder registration) by path, with a clear error. */
async function loadPlugin(path: string): Promise<void> {
  registerPluginHooks();
  const url = pathToFileURL(callerPath(path)).href;
  try {
    await import(url);
  } catch (e) {
    throw new UsageError(`cannot load plugin ${path}: ${(e as Error).message}`);
  }
}

function printSummary(reports: { title: string; id: string; report: ExperimentReport; seconds: number }[], out: string): void {
  const lines: string[] = [];
  for (const { title, report, seconds } of reports) {
    lines.push(`${title}  (${seconds.toFixed(2)} s)`);
    const w = Math.max(...report.summary.map(([k]) => k.length));
    for (const [k, v] of report.summary) lines.push(`  ${k.padEnd(w)}  ${v}`);
  }
  lines.push(`results written to ${out}`);
  process.stdout.write(lines.join("\n") + "\n");
}

/**
 * Whether two paths name the same file after resolution: the same real path (symlinks followed,
 * also for a not-yet-existing file in a symlinked folder) or, for existing files, the same inode.
 */
export async function sameFile(a: string, b: string): Promise<boolean> {
  const real = async (p: string): Promise<string> => {
    const abs = resolve(p);
    try {
      return await realpath(abs);
    } catch {
      try {
        return join(await realpath(dirname(abs)), basename(abs));
      } catch {
        return abs;
      }
    }
  };
  if ((await real(a)) === (await real(b))) return true;
  try {
    const [sa, sb] = await Promise.all([stat(a), stat(b)]);
    return sa.dev === sb.dev && sa.ino === sb.ino;
  } catch {
    return false;
  }
}

async function epirecEval(values: Record<string, string | boolean | string[] | undefined>): Promise<number> {
  const rankingsPath = values.rankings as string | undefined;
  const outputPath = values.output as string | undefined;
  if (!rankingsPath || !outputPath) throw new UsageError("epirec-eval needs --rankings FILE and --output FILE");
  if (await sameFile(callerPath(rankingsPath), callerPath(outputPath))) {
    throw new UsageError(
      `--output ${outputPath} is the rankings file itself (${rankingsPath}); writing the report there would destroy the input — choose another --output FILE`,
    );
  }
  const { loadEpiRec } = await import("@persode/datasets");
  const { evaluateRankings, formatOfficialReport } = await import("./epirec/official.js");
  const { parseRankingsJsonl } = await import("./epirec/rankings.js");
  const { writeAtomic } = await import("./result-records.js");
  const corpus = await loadEpiRec(values.data ? { path: callerPath(values.data as string) } : {});
  let text: string;
  try {
    text = await readFile(callerPath(rankingsPath), "utf8");
  } catch (e) {
    throw new Error(`cannot read rankings file ${rankingsPath}: ${(e as Error).message}`);
  }
  const rankings = parseRankingsJsonl(text, corpus, rankingsPath);
  const report = evaluateRankings(corpus, rankings, { benchmark: corpus.name, dataSha256: corpus.sha256 });
  await writeAtomic(callerPath(outputPath), formatOfficialReport(report));
  const o = report.overall;
  process.stdout.write(
    `${rankings.size} probes evaluated: recall@1 ${o["recall@1"]}, recall@3 ${o["recall@3"]}, MRR ${o.mrr}\nreport written to ${outputPath}\n`,
  );
  return 0;
}

async function longmemevalEval(
  values: Record<string, string | boolean | string[] | undefined>,
  spec: { seed: number; samples: number },
  hooks: RunHooks,
): Promise<number> {
  const rankings = values.rankings as string | undefined;
  const output = values.output as string | undefined;
  if (!rankings || !output) throw new UsageError("longmemeval-eval needs --rankings FILE and --output FILE");
  if (await sameFile(callerPath(rankings), callerPath(output))) {
    throw new UsageError(`--output ${output} is the rankings file itself (${rankings}); choose another --output FILE`);
  }
  const report = typeof values.report === "string" ? values.report : undefined;
  if (report === undefined && values.name !== undefined)
    throw new UsageError("--name NAME names the system of --report DIR: give --report DIR too");
  if (report !== undefined && !hooks.renderReport)
    throw new UsageError("--report needs the report renderer: run it as pnpm bench longmemeval-eval …");
  const { runLongMemEvalEval } = await import("./longmemeval-eval-command.js");
  return await runLongMemEvalEval({
    rankings,
    output,
    ...(typeof values.data === "string" ? { data: values.data } : {}),
    allowMissing: values["allow-missing"] === true,
    ...spec,
    ...(report !== undefined
      ? { report: { dir: report, name: typeof values.name === "string" ? values.name : "outside system", render: hooks.renderReport! } }
      : {}),
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  // Run directly (`node dist/cli.js …`): --help and usage errors are answered here; the work runs supervised (on a worker
  // thread), as under `pnpm bench`, so a signal sent to this process is honoured at once even inside long synchronous loops.
  const answered = process.env[SUPERVISED_ENV] ? undefined : answerUsage(process.argv.slice(2));
  const run =
    answered !== undefined
      ? Promise.resolve(answered)
      : process.env[SUPERVISED_ENV]
        ? main(process.argv.slice(2))
        : runSupervised(fileURLToPath(import.meta.url), process.argv.slice(2));
  run.then((code) => {
    process.exitCode = code;
  });
}
