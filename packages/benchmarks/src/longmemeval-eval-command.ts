/**
 * The `pnpm bench longmemeval-eval --rankings F --output F [--data FILE] [--allow-missing] [--seed N] [--samples N]
 * [--report DIR [--name NAME]]` command: reads the LongMemEval data (pinned, or `--data`), checks the rankings (any
 * fault: exit 2, nothing written), scores them under the official protocol and the ladder's measures, ranks the
 * same questions with every built-in strategy (hashing embedder, Exp. 8's stores) for the paired comparison, and
 * writes the report; with `--report` also an Exp. 8 results file holding the built-in strategies and the system,
 * rendered like ours.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { extendedStrategies, strategies } from "@persode/core";
import { loadLongMemEval } from "@persode/datasets";
import { RESULT_FILES, formatResultJson, writeResultFile } from "@persode/results";
import { LongMemEvalRankingsError, evaluateLongMemEvalRankings, parseLongMemEvalRankings } from "./longmemeval/eval.js";
import { PAIRED_MEASURES, pairedWithBuiltins } from "./locomo-eval.js";
import { DEFAULT_PERMUTATIONS } from "./stats/randomization.js";
import { UsageError, callerPath, embedderSettings } from "./options.js";
import { buildEmbedder } from "./embedder-setup.js";
import { describeEmbedder, strategyRecordsFor, writeAtomic } from "./result-records.js";
import { LADDER_MEASURES, type Measure } from "./protocols.js";
import { EXP8_LADDER_FAMILY, runExp8 } from "./experiments/exp8-longmemeval.js";
import { exp8Document } from "./experiments/exp8.js";

/** Run the command; input faults are UsageErrors (exit 2), raised before anything is written. */
export async function runLongMemEvalEval(o: {
  rankings: string;
  output: string;
  data?: string;
  allowMissing: boolean;
  seed: number;
  samples: number;
  /** With `report`: the folder to write the system's Exp. 8 file into and render (figures, manifest, report.html). */
  report?: { dir: string; name: string; render(dir: string): Promise<void> };
}): Promise<number> {
  if (o.report) {
    // The system's name is a strategy key of the report's file: it must not be taken by a built-in strategy or by flat-bm25.
    const taken = ["flat-bm25", ...new Set([...strategies(), ...extendedStrategies()].map((s) => s.key))];
    if (taken.includes(o.report.name))
      throw new UsageError(`--name "${o.report.name}" is a built-in system's name; choose another (taken: ${taken.join(", ")})`);
  }
  const data = await loadLongMemEval(o.data !== undefined ? { data: o.data } : {});
  let text: string;
  try {
    text = await readFile(callerPath(o.rankings), "utf8");
  } catch (e) {
    throw new UsageError(`cannot read rankings file ${o.rankings}: ${(e as Error).message}`);
  }
  const spec = { seed: o.seed, samples: o.samples };
  let report;
  const sink: { columns?: Float64Array[]; measures?: Measure[] } = {};
  try {
    report = evaluateLongMemEvalRankings(data, parseLongMemEvalRankings(text, o.rankings), o.rankings, o.allowMissing, spec, sink);
  } catch (e) {
    if (e instanceof LongMemEvalRankingsError) throw new UsageError(e.message);
    throw e;
  }
  const { embedder } = await buildEmbedder("hashing", embedderSettings("hashing", {}, process.env));
  // With --report, Exp. 8 runs in full (hashing): its ladder columns are the built-in strategies' side of the paired comparison.
  const exp8 = o.report ? await runExp8(data, embedder, spec) : undefined;
  // The built-in strategies on the same questions (hashing embedder, Exp. 8's stores), paired with the system.
  let paired = {};
  if (sink.columns && sink.columns[0]!.length > 0) {
    const measures = sink.measures!;
    let builtins: Map<string, Float64Array[]>;
    if (exp8) {
      const at = measures.map((m) => LADDER_MEASURES.findIndex((x) => x.name === m.name));
      builtins = new Map([...exp8.persode.ladderColumns].map(([k, cols]) => [k, at.map((i) => cols[i]!)]));
    } else {
      const { builtinLadderColumns } = await import("./longmemeval/builtins.js");
      builtins = await builtinLadderColumns(data, embedder, measures);
    }
    paired = pairedWithBuiltins(
      new Map([[EXP8_LADDER_FAMILY, sink.columns]]),
      new Map([[EXP8_LADDER_FAMILY, builtins]]),
      { seed: o.seed },
      "longmemeval-eval/paired",
      measures,
    );
  }
  await writeAtomic(
    callerPath(o.output),
    formatResultJson({
      benchmark: { name: "LongMemEval (Wu et al., ICLR 2025)", data_sha256: data.sha256, provenance: data.provenance },
      protocol: {
        metrics: "official (run_retrieval.py + eval_utils.py)",
        protocols: "the ladder's measures under Persode's protocol of Exp. 8 (b), docs/spec.md §11",
      },
      bootstrap: { ...spec, unit: "question", method: "percentile" },
      ...report,
      paired: {
        against: "every built-in strategy, hashing embedder, over Exp. 8's stores of the same questions",
        test: {
          randomization_samples: DEFAULT_PERMUTATIONS,
          seed: o.seed,
          multiple_comparisons: "Holm across the strategies within each measure, alpha 0.05",
          diff: "outside system minus strategy",
          wins_ties_losses: "counted from the outside system's side",
        },
        measures: PAIRED_MEASURES.filter((m) => sink.measures?.some((x) => x.name === m.name)).map((m) => m.name),
        families: paired,
      },
    }),
  );
  if (o.report && exp8) {
    // The system's section "like ours": an Exp. 8 file with the built-in strategies (hashing run) and the system (its own run):
    // its official metrics beside flat-bm25's, its ladder measures beside the strategies'.
    const name = o.report.name;
    const dir = callerPath(o.report.dir);
    const official = {
      ...exp8.official.block,
      [name]: {
        [report.granularity]: {
          averaged_questions: report.averaged_questions,
          ignored_abstention: report.ignored_abstention,
          ignored_no_target: report.ignored_no_target,
          metrics: report.metrics,
        },
      },
    };
    const scored = report.protocols[EXP8_LADDER_FAMILY];
    const runs = {
      hashing: { embedder: describeEmbedder(embedder), ...exp8.persode.block },
      outside: {
        embedder: { name: "outside", id: `rankings file ${o.rankings}`, dim: 0 },
        ...(scored
          ? {
              protocols: {
                family: EXP8_LADDER_FAMILY,
                questions: scored.query_count,
                strategies: { [name]: { [EXP8_LADDER_FAMILY]: scored } },
              },
            }
          : {}),
      },
    };
    const records = strategyRecordsFor(
      [...Object.keys(exp8.persode.block.strategies as Record<string, unknown>), name],
      [{ key: name, slug: "outside-system", order: 0, built_in: false }],
    );
    const target = `longmemeval-eval --rankings ${o.rankings}${o.data !== undefined ? ` --data ${o.data}` : ""} --report ${o.report.dir}`;
    await writeResultFile(join(dir, RESULT_FILES.exp8), "exp8", exp8Document(data, official, runs, { ...spec, target }, records));
    await o.report.render(dir);
    process.stdout.write(`report of ${name} rendered into ${o.report.dir}\n`);
  }
  const m = report.metrics[report.granularity]!;
  process.stdout.write(
    `${report.questions} questions (${report.averaged_questions} averaged), ${report.granularity} ids: recall_any@5 ${m["recall_any@5"]}, recall_all@5 ${m["recall_all@5"]}, ndcg_any@5 ${m["ndcg_any@5"]}\nreport written to ${o.output}\n`,
  );
  return 0;
}
