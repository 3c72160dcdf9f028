import { join } from "node:path";
import { LONGMEMEVAL_S, type LongMemEvalDataset, type LongMemEvalProvenance } from "@persode/datasets";
import { RESULT_FILES, type DocumentTypes, type StrategyRecord } from "@persode/results";
import {
  describeEmbedder,
  meta,
  mergeRuns,
  registryProvenance,
  mergeablePrevious,
  readPrevious,
  strategyRecordsOfRuns,
  writeAtomic,
  writeResult,
} from "../result-records.js";
import type { ExperimentRunnerModule } from "./experiment.js";
import { RUNNER_FACTS } from "./catalog.js";
import { EXP8_OFFICIAL_PROTOCOL, EXP8_PERSODE_PROTOCOL, runExp8 } from "./exp8-longmemeval.js";

/** Exp. 8's results file (not among the committed results: the real data is not redistributable here, see README). */
export const EXP8_FILE = RESULT_FILES.exp8;
/** Folder of Exp. 8's official-protocol rankings (one JSONL per granularity: question_id, ranked_ids). */
export const EXP8_RANKINGS_DIR = "rankings/exp8";

/** Exp. 8's results document: the official block, the runs (one per embedder, or an outside system's) and their strategy records. */
export function exp8Document(
  data: LongMemEvalDataset & { provenance: LongMemEvalProvenance },
  official: Record<string, unknown>,
  runs: Record<string, unknown>,
  o: { seed: number; samples: number; target: string },
  strategies: StrategyRecord[],
): DocumentTypes["exp8"] {
  const doc = {
    benchmark: {
      name: "LongMemEval (Wu et al., ICLR 2025)",
      url: "https://github.com/xiaowu0162/LongMemEval",
      license: LONGMEMEVAL_S.license,
      data_sha256: data.sha256,
      provenance: data.provenance,
      quirks: data.quirks,
      questions: data.questions.length,
      distinct_turn_texts: data.distinctTexts,
    },
    protocol: { official: EXP8_OFFICIAL_PROTOCOL, persode: EXP8_PERSODE_PROTOCOL },
    bootstrap: { samples: o.samples, seed: o.seed, unit: "question", method: "percentile" },
    official,
    runs,
    meta: meta(o.seed, Object.keys(runs), o.target, data.sha256, {
      datasets: data.provenance.pinned
        ? registryProvenance(data.provenance.dataset, data.sha256)
        : [
            {
              id: "file",
              title: "a LongMemEval-format file (--data), not the official data",
              file: data.provenance.file,
              sha256: data.sha256,
              source: "--data",
            },
          ],
      strategies,
    }),
  };
  return doc as unknown as DocumentTypes["exp8"];
}

export const exp8: ExperimentRunnerModule = {
  ...RUNNER_FACTS.exp8,
  async run(ctx) {
    const data = await ctx.longmemeval();
    const embedder = await ctx.embedder();
    const r = await runExp8(data, embedder, { seed: ctx.seed, samples: ctx.samples });
    const path = join(ctx.out, EXP8_FILE);
    const previous = mergeablePrevious(await readPrevious(path), data.sha256, ctx);
    const runs = mergeRuns(previous, ctx.runKey, { embedder: describeEmbedder(embedder), ...r.persode.block });
    const files = [EXP8_FILE];
    for (const g of ["turn", "session"] as const) {
      const f = join(EXP8_RANKINGS_DIR, `official_flat-bm25_${g}.jsonl`);
      await writeAtomic(join(ctx.out, f), r.official.rankings[g].map((x) => JSON.stringify(x)).join("\n") + "\n");
      files.push(f);
    }
    const doc = exp8Document(
      data,
      r.official.block,
      runs,
      { seed: ctx.seed, samples: ctx.samples, target: ctx.target },
      strategyRecordsOfRuns(runs, previous),
    );
    await writeResult(path, "exp8", doc);
    const o = r.official.block["flat-bm25"] as {
      turn: { metrics: Record<string, Record<string, number>> };
      session: { metrics: Record<string, Record<string, number>> };
    };
    const strategies = r.persode.block.strategies as Record<string, Record<string, number>>;
    return {
      files,
      summary: [
        [
          "official flat-bm25, turn",
          `recall_all@5 ${o.turn.metrics.turn!["recall_all@5"]} · ndcg_any@5 ${o.turn.metrics.turn!["ndcg_any@5"]}`,
        ],
        [
          "official flat-bm25, session",
          `recall_any@5 ${o.session.metrics.session!["recall_any@5"]} · recall_all@5 ${o.session.metrics.session!["recall_all@5"]} · ndcg_any@5 ${o.session.metrics.session!["ndcg_any@5"]}`,
        ],
        ...Object.entries(strategies).map(([k, v]): [string, string] => [
          `${k} [${ctx.runKey}]`,
          `evidence recall@5 ${v["evidence_recall@5"]} · session any@5 ${v["session_recall_any@5"]} · MRR ${v.mrr}`,
        ]),
      ],
      counters: {
        questions: r.persode.questions,
        rankings: r.persode.rankings,
        distinct_texts: r.persode.texts,
        official_seconds: r.officialSeconds,
        embed_seconds: r.persode.embedSeconds,
        ...Object.fromEntries(Object.entries(r.persode.strategySeconds).map(([k, v]) => [`seconds ${k}`, v])),
      },
    };
  },
};
