import { join } from "node:path";
import { LOCOMO } from "@persode/datasets";
import { formatJson, meta, runsAfter, writeAtomic } from "../results.js";
import type { Experiment } from "./experiment.js";
import { EXP5_PROTOCOL, runExp5 } from "./exp5-locomo.js";
import { EXTENDED_NOTE, significanceBlock } from "../extended-results.js";

export const exp5: Experiment = {
  id: "exp5",
  aliases: ["locomo"],
  title: "Exp. 5 — LoCoMo evidence retrieval",
  async run(ctx) {
    const data = await ctx.locomo();
    const embedder = await ctx.embedder();
    const r = await runExp5(data, embedder, { seed: ctx.seed, samples: ctx.samples });
    const file = "exp5_locomo.json";
    const path = join(ctx.out, file);
    const runs = await runsAfter(path, data.sha256, ctx, ctx.embedderName, embedder, r.run);
    const files = [file];
    for (const { strategy, jsonl } of r.rankings) {
      const f = join("exp5_locomo_rankings", `${ctx.embedderName}_${strategy.slug}.jsonl`);
      await writeAtomic(join(ctx.out, f), jsonl);
      files.push(f);
    }
    await writeAtomic(
      path,
      formatJson({
        benchmark: { name: "LoCoMo (Maharana et al., ACL 2024)", url: "https://github.com/snap-research/locomo", license: LOCOMO.license, data_sha256: data.sha256 },
        protocol: EXP5_PROTOCOL,
        bootstrap: { samples: ctx.samples, seed: ctx.seed, unit: "question", method: "percentile" },
        runs,
        meta: meta(ctx.seed, Object.keys(runs), ctx.target, data.sha256),
      }),
    );
    const extFile = "exp5_locomo_extended.json";
    const extPath = join(ctx.out, extFile);
    const extRuns = await runsAfter(extPath, data.sha256, ctx, ctx.embedderName, embedder, r.extended);
    await writeAtomic(
      extPath,
      formatJson({
        benchmark: { name: "LoCoMo (Maharana et al., ACL 2024)", url: "https://github.com/snap-research/locomo", license: LOCOMO.license, data_sha256: data.sha256 },
        protocol: { note: EXTENDED_NOTE, paper_format_file: file, paper_protocol: EXP5_PROTOCOL },
        bootstrap: { samples: ctx.samples, seed: ctx.seed, unit: "question", method: "percentile" },
        significance: significanceBlock(ctx.seed, "question"),
        runs: extRuns,
        meta: meta(ctx.seed, Object.keys(extRuns), ctx.target, data.sha256),
      }),
    );
    files.push(extFile);
    const strategies = r.run.strategies as Record<string, Record<string, number>>;
    const extended = r.extended.strategies as Record<string, Record<string, number>>;
    return {
      files,
      summary: [
        ...Object.entries(strategies).map(([k, v]): [string, string] => [`${k} [${ctx.embedderName}]`, `recall@5 ${v["evidence_recall@5"]} · recall@10 ${v["evidence_recall@10"]} · MRR ${v.mrr}`]),
        ...Object.entries(extended)
          .filter(([k]) => !(k in strategies))
          .map(([k, v]): [string, string] => [`${k} [${ctx.embedderName}, extended]`, `recall@5 ${v["evidence_recall@5"]} · recall@10 ${v["evidence_recall@10"]} · MRR ${v.mrr}`]),
      ],
      counters: { questions: r.questions, rankings: r.questions * Object.keys(extended).length, ranked_memories: r.rankedMemories },
    };
  },
};
