/**
 * Exp. 5 on audited evidence: recall per strategy on the original and the audited gold, and their paired difference, one panel per
 * embedder.
 */
import { fixed } from "../format.js";
import { getKeys, getNumber, orderedStrategies, orderedStrategyRecords, type ResultDoc } from "@persode/results";
import { embedderName } from "../style.js";
import { embeddersOf } from "../sections/common.js";
import { EXP5_AUDIT_METRICS } from "../sections/exp5-audit.js";
import { pairedDiffPlot, strategyColour, topLevel, type FigureSpec, type PairedDiff } from "./common.js";

const GOLD_LABELS = { original: "original gold", audited: "audited gold" } as const;

/** Build the audited-gold figures: original vs audited recall@5 with CIs, and the paired differences. */
export function exp5AuditFigures(doc: ResultDoc): FigureSpec[] {
  const embedders = embeddersOf(doc);
  const strategies = orderedStrategyRecords(doc, [...new Set(embedders.flatMap((e) => getKeys(doc, ["runs", e, "strategies"])))]);
  const panels: string[] = [];
  const points: Array<{ panel: string; strategy: string; gold: string; value: number; lo: number; hi: number }> = [];
  const paired: PairedDiff[] = [];
  for (const emb of embedders) {
    const run = ["runs", emb];
    const panel = `${embedderName(emb)} (${fixed(getNumber(doc, [...run, "questions", "paired"]), 0)} paired questions)`;
    panels.push(panel);
    for (const s of orderedStrategies(doc, getKeys(doc, [...run, "strategies"]))) {
      const base = [...run, "strategies", s];
      for (const gold of ["original", "audited"] as const) {
        const m = "evidence_recall@5";
        points.push({
          panel,
          strategy: s,
          gold: GOLD_LABELS[gold],
          value: getNumber(doc, [...base, gold, m]),
          lo: getNumber(doc, [...base, gold, "ci95", m, 0]),
          hi: getNumber(doc, [...base, gold, "ci95", m, 1]),
        });
      }
      for (const m of EXP5_AUDIT_METRICS) {
        const d = [...base, "audited_minus_original", m.key];
        paired.push({
          panel,
          metric: m.label,
          strategy: s,
          diff: getNumber(doc, [...d, "diff"]),
          lo: getNumber(doc, [...d, "ci95", 0]),
          hi: getNumber(doc, [...d, "ci95", 1]),
        });
      }
    }
  }
  const golds = Object.values(GOLD_LABELS);
  const y = { field: "strategy", type: "nominal", sort: strategies.map((r) => r.key), title: null };
  const yOffset = { field: "gold", type: "nominal", sort: golds, scale: { paddingInner: 0.35 } };
  const x = { field: "value", type: "quantitative", title: "evidence recall@5", axis: { format: ".2f" } };
  return [
    {
      id: "exp5_audited",
      experiment: "exp5-audit",
      caption:
        "Exp. 5 — LoCoMo evidence recall@5 per strategy on the original gold (circles) and the audited gold (diamonds), with 95 % " +
        "bootstrap CIs; one panel per embedder.",
      spec: topLevel(
        "Exp. 5 — LoCoMo recall on the original and the audited gold",
        "circle: original gold · diamond: audited gold (LLM-assisted audit, human-reviewed) · bar: 95 % percentile-bootstrap CI",
        {
          data: { values: points },
          facet: { column: { field: "panel", type: "nominal", sort: panels, title: null } },
          spacing: 24,
          spec: {
            width: 420,
            height: 34 * Math.max(1, strategies.length),
            layer: [
              {
                mark: { type: "rule", strokeWidth: 2 },
                encoding: {
                  y,
                  yOffset,
                  x: { field: "lo", type: "quantitative", title: "evidence recall@5" },
                  x2: { field: "hi" },
                  color: strategyColour(strategies),
                },
              },
              {
                mark: { type: "point", filled: true, size: 60, opacity: 1 },
                encoding: {
                  y,
                  yOffset,
                  x,
                  color: strategyColour(strategies),
                  shape: {
                    field: "gold",
                    type: "nominal",
                    sort: golds,
                    scale: { domain: golds, range: ["circle", "diamond"] },
                    legend: { title: null },
                  },
                },
              },
            ],
          },
          resolve: { scale: { x: "shared" } },
        },
      ),
    },
    {
      id: "exp5_audited_paired",
      experiment: "exp5-audit",
      caption:
        "Exp. 5 — paired difference audited − original gold per strategy on the questions included under both, with 95 % bootstrap " +
        "CIs; left of the dashed line = lower on the audited gold.",
      spec: topLevel(
        "Exp. 5 — audited − original gold (LoCoMo, same questions)",
        "dot: paired difference · bar: 95 % bootstrap CI · left of 0 = lower recall on the audited gold",
        pairedDiffPlot(paired, { strategies, panels, metrics: EXP5_AUDIT_METRICS.map((m) => m.label), xTitle: "audited − original gold" }),
      ),
    },
  ];
}
