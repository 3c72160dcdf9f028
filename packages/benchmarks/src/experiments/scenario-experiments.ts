import { join } from "node:path";
import { RESULT_FILES, perRunFile } from "@persode/results";
import { describeEmbedder, meta, scenarioProvenance, strategyRecordsFor, writeResult } from "../result-records.js";
import { loadScenario } from "../scenario.js";
import { runExp1 } from "./exp1-forgetting.js";
import { runExp2 } from "./exp2-scoring.js";
import { runExp3 } from "./exp3-retrieval.js";
import type { ExperimentRunnerModule } from "./experiment.js";
import { RUNNER_FACTS } from "./catalog.js";

export const exp1: ExperimentRunnerModule = {
  ...RUNNER_FACTS.exp1,
  async run(ctx) {
    const r = runExp1(loadScenario());
    const file = RESULT_FILES.exp1;
    await writeResult(join(ctx.out, file), "exp1", {
      ...r,
      meta: meta(ctx.seed, [], ctx.target, loadScenario().sha256, { datasets: scenarioProvenance(loadScenario().sha256) }),
    });
    const s = r.strength_at_30_days;
    return {
      files: [file],
      summary: [
        ["d(6 d)", String(r.retention_at_6_days)],
        ["half-life (d)", String(r.half_life_days)],
        ["S(30 d) high / neutral", `${s["high_emotion_E0.95"]} / ${s["neutral_E0.15"]} (×${s.ratio})`],
      ],
    };
  },
};

export const exp2: ExperimentRunnerModule = {
  ...RUNNER_FACTS.exp2,
  async run(ctx) {
    const r = runExp2(loadScenario());
    const file = RESULT_FILES.exp2;
    await writeResult(join(ctx.out, file), "exp2", {
      ...r,
      meta: meta(ctx.seed, [], ctx.target, loadScenario().sha256, { datasets: scenarioProvenance(loadScenario().sha256) }),
    });
    const f = r.focus;
    return {
      files: [file],
      summary: [
        [
          `"${f.event}" rank by weighting`,
          Object.entries(f.rank_by_weighting)
            .map(([k, v]) => `${k}: ${v}`)
            .join(", ") + ` (S ×${f.ratio_emotion_heavy_vs_balanced} emotion-heavy vs balanced)`,
        ],
      ],
    };
  },
};

export const exp3: ExperimentRunnerModule = {
  ...RUNNER_FACTS.exp3,
  async run(ctx) {
    const embedder = await ctx.embedder();
    const r = await runExp3(loadScenario(), embedder);
    const file = perRunFile("exp3", ctx.runKey);
    // A model's run records which weights produced it; the hashing file keeps the reference's shape.
    const identity = embedder.model ? { embedder: describeEmbedder(embedder) } : {};
    const strategies = strategyRecordsFor(Object.keys(r.conditions.vague));
    await writeResult(join(ctx.out, file), "exp3", {
      ...r,
      ...identity,
      meta: meta(ctx.seed, [ctx.runKey], ctx.target, loadScenario().sha256, {
        datasets: scenarioProvenance(loadScenario().sha256),
        strategies,
      }),
    });
    const c = r.conditions as Record<string, Record<string, Record<string, unknown>>>;
    const summary: [string, string][] = Object.keys(c.vague!).map((k) => {
      const v = c.vague![k]!;
      const p = c.plain![k]!;
      const lt = (v.recall_by_category as Record<string, number>).emotional_long;
      return [k, `recall@3 vague ${fmt(v.target_recall)} · long-term emotional ${fmt(lt)} · plain ${fmt(p.target_recall)}`];
    });
    return { files: [file], summary };
  },
};

function fmt(x: unknown): string {
  return typeof x === "number" ? x.toFixed(2) : String(x);
}
