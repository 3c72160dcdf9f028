/**
 * "Beyond the paper" figure: a forest plot of every extended strategy's paired difference to similarity-only, coloured by the Holm
 * decision.
 */
import { getBoolean, getKeys, getNumber, hasPath, type ResultDoc } from "@persode/results";
import { embedderName, OKABE_ITO } from "../style.js";
import { BEYOND_METRICS, beyondMetric } from "../sections/beyond.js";
import { embeddersOf } from "../sections/common.js";
import { topLevel, type FigureSpec } from "./common.js";

const CLASSES = ["significantly better (Holm)", "not significant", "significantly worse (Holm)"] as const;
const CLASS_COLOURS = [OKABE_ITO.bluishGreen, "#8C8C8C", OKABE_ITO.vermillion];

/** Build the forest plot over every extended file present (one panel per experiment and embedder). */
export function beyondFigures(docs: readonly ResultDoc[]): FigureSpec[] {
  const rows: Array<{ panel: string; strategy: string; diff: number; lo: number; hi: number; verdict: string }> = [];
  const panels: string[] = [];
  const strategies: string[] = [];
  for (const doc of docs) {
    const metric = beyondMetric(doc);
    for (const emb of embeddersOf(doc)) {
      const panel = `${metric.dataset} ${metric.label} (${embedderName(emb)})`;
      panels.push(panel);
      for (const s of getKeys(doc, ["runs", emb, "strategies"])) {
        const vs = ["runs", emb, "strategies", s, "vs_similarity", metric.key];
        if (!hasPath(doc, vs)) continue;
        if (!strategies.includes(s)) strategies.push(s);
        const diff = getNumber(doc, [...vs, "diff"]);
        const verdict = getBoolean(doc, [...vs, "significant"]) ? (diff > 0 ? CLASSES[0] : CLASSES[2]) : CLASSES[1];
        rows.push({ panel, strategy: s, diff, lo: getNumber(doc, [...vs, "ci95", 0]), hi: getNumber(doc, [...vs, "ci95", 1]), verdict });
      }
    }
  }
  const y = { field: "strategy", type: "nominal", sort: strategies, title: null };
  const colour = {
    field: "verdict",
    type: "nominal",
    title: null,
    scale: { domain: [...CLASSES], range: CLASS_COLOURS },
    legend: { title: null },
  };
  const metrics = docs.map((d) => BEYOND_METRICS[d.experiment]!.label);
  return [
    {
      id: "beyond_paired",
      experiment: "beyond",
      caption: `Beyond the paper — paired difference of each strategy to similarity-only (${metrics.join(", ")}) on the same items, with 95 % bootstrap CIs; colour: two-sided randomization test, Holm-adjusted within the metric.`,
      spec: topLevel(
        "Beyond the paper — difference to similarity-only",
        "dot: paired difference · bar: 95 % bootstrap CI · colour: randomization test after Holm (α = 0.05)",
        {
          data: { values: rows },
          facet: { column: { field: "panel", type: "nominal", sort: panels, title: null } },
          spacing: { column: 24 },
          spec: {
            width: 260,
            height: 18 * Math.max(1, strategies.length),
            layer: [
              { mark: { type: "rule", color: "#999999", strokeDash: [4, 3] }, encoding: { x: { datum: 0, type: "quantitative" } } },
              {
                mark: { type: "rule", strokeWidth: 2 },
                encoding: {
                  y,
                  x: { field: "lo", type: "quantitative", title: "difference to similarity-only" },
                  x2: { field: "hi" },
                  color: colour,
                },
              },
              {
                mark: { type: "point", filled: true, size: 55, opacity: 1 },
                encoding: { y, x: { field: "diff", type: "quantitative" }, color: colour },
              },
            ],
          },
          resolve: { scale: { x: "independent" } },
        },
      ),
    },
  ];
}
