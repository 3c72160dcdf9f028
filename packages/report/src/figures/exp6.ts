/**
 * Exp. 6 figures: EpiRec recall@3 by probe type with bootstrap CIs and the paired differences, one panel per embedder (docs/spec.md §7 Exp.
 * 6).
 */
import { fixed } from "../format.js";
import { getKeys, getNumber, orderedStrategies, type ResultDoc } from "@persode/results";
import { embedderName } from "../style.js";
import { embeddersOf } from "../sections/common.js";
import { PROBE_TYPES } from "../sections/exp6.js";
import { barAndPairedDiff, groupedBarsWithCi, pairedDiffPlot, topLevel, type CiBar, type FigureSpec, type PairedDiff } from "./common.js";
import { allStrategies } from "./exp5.js";

/** Build the Exp. 6 figure specs (the paired figure only when the results carry paired differences). */
export function exp6Figures(doc: ResultDoc): FigureSpec[] {
  const embedders = embeddersOf(doc);
  const strategies = allStrategies(doc);
  const groups = [...PROBE_TYPES, { key: "overall", label: "overall" }];
  const probes = getNumber(doc, ["benchmark", "probes"]);
  const panels: string[] = [];
  const bars: CiBar[] = [];
  const paired: PairedDiff[] = [];
  for (const emb of embedders) {
    const run = ["runs", emb, "strategies"];
    const panel = `${embedderName(emb)} embedder`;
    panels.push(panel);
    for (const s of orderedStrategies(doc, getKeys(doc, run))) {
      for (const g of groups) {
        const key = `${g.key}.r3`;
        const r = barAndPairedDiff(
          doc,
          { panel, group: g.label, strategy: s, metric: `recall@3 — ${g.label}` },
          { value: [...run, s, g.key, "r3"], ci: [...run, s, "ci95", key], paired: [...run, s, "paired_vs_similarity", key] },
        );
        bars.push(r.bar);
        if (r.paired) paired.push(r.paired);
      }
    }
  }
  const hasCi = bars.some((b) => b.lo !== null);
  const figures: FigureSpec[] = [
    {
      id: "exp6_epirec",
      experiment: "exp6",
      caption: `Exp. 6 — EpiRec target recall@3 by probe type per strategy${hasCi ? " with 95 % bootstrap CIs (whiskers)" : ""}, one panel per embedder.`,
      spec: topLevel(
        `Exp. 6 — EpiRec (${fixed(probes, 0)} probes): recall@3 by probe type`,
        hasCi ? "bars: recall@3 · whiskers: 95 % percentile-bootstrap CI over probes" : "bars: recall@3",
        groupedBarsWithCi(bars, { strategies, panels, groups: groups.map((g) => g.label), yTitle: "target recall@3", width: 430 }),
      ),
    },
  ];
  if (paired.length) {
    const pairedStrategies = strategies.filter((s) => paired.some((p) => p.strategy === s.key));
    figures.push({
      id: "exp6_paired",
      experiment: "exp6",
      caption:
        "Exp. 6 — paired difference in recall@3 of each strategy to similarity-only on the same probes, with 95 % bootstrap CIs; " +
        "left of the dashed line = worse than similarity-only.",
      spec: topLevel(
        "Exp. 6 — paired difference to similarity-only (EpiRec recall@3)",
        "dot: difference on the same probes · bar: 95 % bootstrap CI · left of 0 = worse than similarity-only",
        pairedDiffPlot(paired, {
          strategies: pairedStrategies,
          panels,
          metrics: groups.map((g) => `recall@3 — ${g.label}`),
          xTitle: "difference to similarity-only",
        }),
      ),
    });
  }
  return figures;
}
