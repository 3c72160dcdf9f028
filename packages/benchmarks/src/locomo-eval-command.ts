/**
 * The `pnpm bench locomo-eval --rankings F --output F [--allow-missing] [--seed N] [--samples N]` command: reads
 * the pinned LoCoMo and its label audit, checks the rankings (any fault: exit 2, nothing written), scores them
 * under every protocol, ranks the same questions with every built-in strategy (`--embedder NAME`, default the
 * hashing embedder, exactly as Exp. 5) and writes the report with the paired comparison.
 */
import { readFile } from "node:fs/promises";
import { LOCOMO, loadLocomo, loadLocomoAudit } from "@persode/datasets";
import { LADDER_MEASURES, LOCOMO_QUESTION_SETS } from "./protocols.js";
import { LadderScorer, locomoQuestionSets } from "./locomo-protocols.js";
import { PAIRED_MEASURES, RankingsInputError, evaluateLocomoRankings, pairedWithBuiltins, parseLocomoRankings } from "./locomo-eval.js";
import { runExp5 } from "./experiments/exp5-locomo.js";
import { DEFAULT_PERMUTATIONS } from "./stats/randomization.js";
import { UsageError, callerPath, embedderSettings } from "./options.js";
import { buildEmbedder } from "./embedder-setup.js";
import type { EmbedderOptions } from "@persode/core";
import { describeEmbedder, meta, strategyRecordsFor, writeAtomic } from "./result-records.js";
import { join } from "node:path";
import { PUBLISHED_CLAIMS, RESULT_FILES, formatResultJson, writeResultFile, type ProtocolsFile } from "@persode/results";
import { EXP5_PROTOCOLS_PROTOCOL } from "./experiments/exp5.js";

/** Run the command; input faults are UsageErrors (exit 2), raised before anything is written. */
export async function runLocomoEval(o: {
  rankings: string;
  output: string;
  allowMissing: boolean;
  seed: number;
  samples: number;
  /** The embedder the built-in strategies rank with (a name `pnpm bench --embedder` accepts; default hashing). */
  embedder?: string;
  /** How to build it (`--model`, `--dtype`, PERSODE_MODEL_DIR, PERSODE_OFFLINE: embedderSettings); default from the environment alone. */
  embedderSettings?: EmbedderOptions;
  /** With `report`: the folder to write the system's ladder file into and render (figures, manifest, report.html). */
  report?: { dir: string; name: string; render(dir: string): Promise<void> };
}): Promise<number> {
  const data = await loadLocomo();
  const audit = await loadLocomoAudit(data);
  let text: string;
  try {
    text = await readFile(callerPath(o.rankings), "utf8");
  } catch (e) {
    throw new UsageError(`cannot read rankings file ${o.rankings}: ${(e as Error).message}`);
  }
  const families = locomoQuestionSets(data, audit);
  let scored;
  try {
    scored = evaluateLocomoRankings(
      data,
      families,
      parseLocomoRankings(text, o.rankings, data),
      o.rankings,
      { seed: o.seed, samples: o.samples },
      o.allowMissing,
    );
  } catch (e) {
    if (e instanceof RankingsInputError) throw new UsageError(e.message);
    throw e;
  }
  // The built-in strategies rank the same questions (the chosen embedder, Exp. 5's stores).
  const scorer = new LadderScorer(data, audit, new Set());
  const embedderName = o.embedder ?? "hashing";
  const { embedder, key: runKey } = await buildEmbedder(
    embedderName,
    o.embedderSettings ?? embedderSettings(embedderName, {}, process.env),
  );
  await runExp5(data, embedder, { seed: o.seed, samples: 1 }, scorer.hooks, { extended: false });
  const builtins = scorer.complete();
  const paired = pairedWithBuiltins(scored.columns, builtins, { seed: o.seed }, "locomo-eval/paired");
  const doc = {
    benchmark: {
      name: "LoCoMo (Maharana et al., ACL 2024)",
      data_sha256: data.sha256,
      audit_sha256: audit.sha256,
      license: LOCOMO.license,
    },
    protocol: {
      measures: LADDER_MEASURES.map((m) => m.name),
      question_sets: LOCOMO_QUESTION_SETS,
      golds: { original: "the dataset's evidence", audited: "the label audit's corrected evidence (dial481/locomo-audit)" },
      definitions: "docs/spec.md §11",
    },
    bootstrap: { samples: o.samples, seed: o.seed, unit: "question", method: "percentile" },
    ...scored.report,
    paired: {
      against: `every built-in strategy, ${runKey} embedder, ranking the same questions as Exp. 5 does`,
      embedder: describeEmbedder(embedder),
      test: {
        randomization_samples: DEFAULT_PERMUTATIONS,
        seed: o.seed,
        multiple_comparisons: "Holm across the strategies within each family and measure, alpha 0.05",
        diff: "outside system minus strategy",
        wins_ties_losses: "counted from the outside system's side",
      },
      measures: PAIRED_MEASURES.map((m) => m.name),
      families: paired,
    },
  };
  await writeAtomic(callerPath(o.output), formatResultJson(doc));
  if (o.report) {
    // The system's section "like ours": a ladder file with the built-in strategies (the embedder's run) and the system (its own run).
    const dir = callerPath(o.report.dir);
    const builtinRun = scorer.summary({ seed: o.seed, samples: o.samples }, "locomo-eval/builtins");
    const questions = Object.fromEntries([...families].map(([f, qs]) => [f, qs.length]));
    const runs = {
      [runKey]: { embedder: describeEmbedder(embedder), ...builtinRun },
      outside: {
        embedder: { name: "outside", id: `rankings file ${o.rankings}`, dim: 0 },
        questions,
        strategies: { [o.report.name]: scored.report.protocols },
      },
    };
    const records = strategyRecordsFor(
      [...Object.keys(builtinRun.strategies as Record<string, unknown>), o.report.name],
      [{ key: o.report.name, slug: "outside-system", order: 0, built_in: false }],
    );
    await writeResultFile(join(dir, RESULT_FILES["exp5-protocols"]), "exp5-protocols", {
      benchmark: { ...doc.benchmark, url: "https://github.com/snap-research/locomo" },
      protocol: EXP5_PROTOCOLS_PROTOCOL,
      bootstrap: { samples: o.samples, seed: o.seed, unit: "question", method: "percentile" },
      claims: [...PUBLISHED_CLAIMS],
      runs: runs as unknown as ProtocolsFile["runs"],
      meta: meta(o.seed, Object.keys(runs), `locomo-eval --rankings ${o.rankings} --report ${o.report.dir}`, data.sha256, {
        audit_sha256: audit.sha256,
        strategies: records,
      }),
    });
    await o.report.render(dir);
    process.stdout.write(`report of ${o.report.name} rendered into ${o.report.dir}\n`);
  }
  const p = scored.report.protocols["persode/original"]!.values;
  const a = scored.report.protocols["all/original"]!.values;
  const { missing_scored_empty: missing, truncated, turns_per_line: turns } = scored.report.rankings;
  process.stdout.write(
    `${scored.report.rankings.lines} rankings scored${missing > 0 ? `; ${missing} missing question(s) scored as empty rankings (--allow-missing)` : ""}: turn.recall@5 ${p["turn.recall@5"]} (persode/original), session.any@5 ${a["session.any@5"]} (all/original)\n` +
      (truncated > 0
        ? `note: ${truncated} ranking(s) are truncated (the shortest lists ${turns.min} turn(s)): turn.mrr is MRR at the ranking's length and session measures see only the listed turns (rankings.truncation in the report)\n`
        : "") +
      `report written to ${o.output}\n`,
  );
  return 0;
}
