import { join } from "node:path";
import { EPIREC, corpusCounts } from "@persode/datasets";
import { EPISODIC_PROTOCOL, runEpisodic } from "../episodic.js";
import { writeExtendedFile } from "../extended-results.js";
import { EXTENDED_FILES, RESULT_FILES, rankingsDir, rankingsStem } from "@persode/results";
import { declaredProvenance, meta, runsAfter, writeAtomicAll, writeResult } from "../result-records.js";
import type { ExperimentRunnerModule } from "./experiment.js";
import { RUNNER_FACTS } from "./catalog.js";

export const exp6: ExperimentRunnerModule = {
  ...RUNNER_FACTS.exp6,
  async run(ctx) {
    const corpus = await ctx.epirec();
    const embedder = await ctx.embedder();
    const r = await runEpisodic(corpus, embedder, { seed: ctx.seed, samples: ctx.samples }, "exp6");
    const file = RESULT_FILES.exp6;
    const path = join(ctx.out, file);
    const files = ctx.paperFormat ? [file] : [];
    const written: [string, string | Uint8Array][] = [];
    for (const o of r.outputs) {
      const base = join(rankingsDir("exp6"), rankingsStem(ctx.runKey, o.strategy.slug));
      written.push([join(ctx.out, `${base}.jsonl`), o.jsonl], [join(ctx.out, `${base}.official.json`), o.official]);
      files.push(`${base}.jsonl`, `${base}.official.json`);
    }
    await writeAtomicAll(written);
    const counts = corpusCounts(corpus);
    if (ctx.paperFormat) {
      const { runs, strategies: records } = await runsAfter(path, corpus.sha256, ctx, ctx.runKey, embedder, r.run);
      await writeResult(path, "exp6", {
        benchmark: {
          name: corpus.name,
          url: "https://github.com/sukoji/epirec",
          probes: counts.probes,
          personas: counts.personas,
          license: EPIREC.license,
          data_sha256: corpus.sha256,
        },
        protocol: {
          note:
            "pre-registered (EpiRec GENERATION_SPEC.md): the corpus was frozen before any strategy ran; authored labels never enter " +
            "retrieval — E comes from the system's own analyzer",
          ...EPISODIC_PROTOCOL,
        },
        bootstrap: { samples: ctx.samples, seed: ctx.seed, unit: "probe", method: "percentile" },
        runs,
        meta: meta(ctx.seed, Object.keys(runs), ctx.target, corpus.sha256, {
          datasets: declaredProvenance("exp6", { epirec: corpus.sha256 }),
          strategies: records,
        }),
      });
    }
    const extFile = EXTENDED_FILES.exp6;
    await writeExtendedFile({
      out: ctx.out,
      file: extFile,
      paperFile: file,
      benchmark: {
        name: corpus.name,
        url: "https://github.com/sukoji/epirec",
        probes: counts.probes,
        personas: counts.personas,
        license: EPIREC.license,
        data_sha256: corpus.sha256,
      },
      protocol: EPISODIC_PROTOCOL,
      unit: "probe",
      seed: ctx.seed,
      samples: ctx.samples,
      target: ctx.target,
      dataSha256: corpus.sha256,
      datasets: declaredProvenance("exp6", { epirec: corpus.sha256 }),
      runKey: ctx.runKey,
      embedder,
      run: r.extended,
    });
    files.push(extFile);
    const strategies = r.run.strategies as Record<string, { overall: { r3: number; r1: number; mrr: number } }>;
    const extended = r.extended.strategies as Record<string, Record<string, number>>;
    return {
      files,
      summary: [
        ...Object.entries(ctx.paperFormat ? strategies : {}).map(([k, v]): [string, string] => [
          `${k} [${ctx.runKey}]`,
          `recall@3 ${v.overall.r3} · recall@1 ${v.overall.r1} · MRR ${v.overall.mrr}`,
        ]),
        ...Object.entries(extended)
          .filter(([k]) => !(ctx.paperFormat && k in strategies))
          .map(([k, v]): [string, string] => [
            `${k} [${ctx.runKey}, extended]`,
            `recall@3 ${v["recall@3"]} · recall@1 ${v["recall@1"]} · MRR ${v.mrr}`,
          ]),
      ],
      counters: { probes: r.probes, rankings: r.probes * Object.keys(extended).length, ranked_memories: r.rankedMemories },
    };
  },
};
