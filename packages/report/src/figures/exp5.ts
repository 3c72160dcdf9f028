/**
 * Exp. 5 figures: LoCoMo strategy comparison with bootstrap CIs and the paired differences, one panel per embedder (docs/spec.md §7 Exp.
 * 5).
 */
import { fixed } from "../format.js";
import { getKeys, getNumber, orderedStrategies, orderedStrategyRecords, type ResultDoc, type StrategyRecord } from "@persode/results";
import { embedderName } from "../style.js";
import { embeddersOf } from "../sections/common.js";
import { EXP5_METRICS } from "../sections/exp5.js";
import { barAndPairedDiff, groupedBarsWithCi, pairedDiffPlot, topLevel, type CiBar, type FigureSpec, type PairedDiff } from "./common.js";

/** The records of the strategies across every run of a per-embedder results file, in presentation order. */
export function allStrategies(doc: ResultDoc): StrategyRecord[] {
  const keys: string[] = [];
  for (const emb of embeddersOf(doc)) for (const k of getKeys(doc, ["runs", emb, "strategies"])) if (!keys.includes(k)) keys.push(k);
  return orderedStrategyRecords(doc, keys);
}

/** Build the Exp. 5 figure specs (the paired figure only when the results carry paired differences). */
export function exp5Figures(doc: ResultDoc): FigureSpec[] {
  const embedders = embeddersOf(doc);
  const strategies = allStrategies(doc);
  const panels: string[] = [];
  const bars: CiBar[] = [];
  const paired: PairedDiff[] = [];
  for (const emb of embedders) {
    const run = ["runs", emb, "strategies"];
    const keys = orderedStrategies(doc, getKeys(doc, run));
    const n = getNumber(doc, [...run, keys[0]!, "query_count"]);
    const panel = `${embedderName(emb)} embedder (${fixed(n, 0)} questions)`;
    panels.push(panel);
    for (const s of keys) {
      for (const m of EXP5_METRICS) {
        const r = barAndPairedDiff(
          doc,
          { panel, group: m.short, strategy: s, metric: m.label },
          { value: [...run, s, m.key], ci: [...run, s, "ci95", m.key], paired: [...run, s, "paired_vs_similarity", m.key] },
        );
        bars.push(r.bar);
        if (r.paired) paired.push(r.paired);
      }
    }
  }
  const hasCi = bars.some((b) => b.lo !== null);
  const figures: FigureSpec[] = [
    {
      id: "exp5_locomo",
      experiment: "exp5",
      caption: `Exp. 5 — LoCoMo evidence retrieval per strategy${hasCi ? " with 95 % bootstrap CIs (whiskers)" : ""}, one panel per embedder.`,
      spec: topLevel(
        "Exp. 5 — LoCoMo evidence retrieval",
        hasCi
          ? "recall = evidence recall over all questions · whiskers: 95 % percentile-bootstrap CI"
          : "recall = evidence recall over all questions",
        groupedBarsWithCi(bars, {
          strategies,
          panels,
          groups: EXP5_METRICS.map((m) => m.short),
          yTitle: "score (higher is better)",
          width: 430,
        }),
      ),
    },
  ];
  if (paired.length) {
    const pairedStrategies = strategies.filter((s) => paired.some((p) => p.strategy === s.key));
    figures.push({
      id: "exp5_paired",
      experiment: "exp5",
      caption:
        "Exp. 5 — paired difference of each strategy to similarity-only on the same questions, with 95 % bootstrap CIs; left of the " +
        "dashed line = worse than similarity-only.",
      spec: topLevel(
        "Exp. 5 — paired difference to similarity-only (LoCoMo)",
        "dot: difference on the same questions · bar: 95 % bootstrap CI · left of 0 = worse than similarity-only",
        pairedDiffPlot(paired, {
          strategies: pairedStrategies,
          panels,
          metrics: EXP5_METRICS.map((m) => m.label),
          xTitle: "difference to similarity-only",
        }),
      ),
    });
  }
  return figures;
}
