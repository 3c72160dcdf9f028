/** The protocol ladder figure: every strategy's score under each rung of the ladder, one panel per embedder, with 95 % CIs. */
import { getKeys, getNumber, orderedStrategies, orderedStrategyRecords, type ResultDoc } from "@persode/results";
import { embedderName } from "../style.js";
import { embeddersOf } from "../sections/common.js";
import { LADDER_RUNGS, rungLabel } from "../sections/protocols.js";
import { strategyColour, topLevel, type FigureSpec } from "./common.js";

/** Build the ladder figure. */
export function protocolsFigures(doc: ResultDoc): FigureSpec[] {
  const embedders = embeddersOf(doc);
  const strategies = orderedStrategyRecords(doc, [...new Set(embedders.flatMap((e) => getKeys(doc, ["runs", e, "strategies"])))]);
  const panels = embedders.map(embedderName);
  const rungs = LADDER_RUNGS.map(rungLabel);
  const points: Array<{ panel: string; strategy: string; rung: string; value: number; lo: number; hi: number }> = [];
  embedders.forEach((emb, ei) => {
    for (const s of orderedStrategies(doc, getKeys(doc, ["runs", emb, "strategies"]))) {
      for (const r of LADDER_RUNGS) {
        const base = ["runs", emb, "strategies", s, r.family];
        points.push({
          panel: panels[ei]!,
          strategy: s,
          rung: rungLabel(r),
          value: getNumber(doc, [...base, "values", r.measure]),
          lo: getNumber(doc, [...base, "ci95", r.measure, 0]),
          hi: getNumber(doc, [...base, "ci95", r.measure, 1]),
        });
      }
    }
  });
  const y = { field: "rung", type: "nominal", sort: rungs, title: null, axis: { labelLimit: 420 } };
  const x = { field: "value", type: "quantitative", title: "score", scale: { domain: [0, 1] }, axis: { format: ".1f" } };
  return [
    {
      id: "protocol_ladder",
      experiment: "exp5-protocols",
      caption:
        "The protocol ladder on LoCoMo — every strategy's score under each protocol (turn or session level, k, question set, gold), " +
        "with 95 % bootstrap CIs; one panel per embedder. The same rankings move from below 0.2 to above 0.8 between the first and " +
        "the last rungs.",
      spec: topLevel(
        "The protocol ladder — one set of LoCoMo rankings under each protocol",
        "dot: score · bar: 95 % percentile-bootstrap CI · rows: protocols, Persode's (top) to the vendors' session-level any@k (bottom)",
        {
          data: { values: points },
          facet: { column: { field: "panel", type: "nominal", sort: panels, title: null } },
          spacing: 16,
          spec: {
            width: 260,
            height: 28 * rungs.length,
            layer: [
              {
                mark: { type: "rule", strokeWidth: 1.5, opacity: 0.7 },
                encoding: {
                  y,
                  x: { field: "lo", type: "quantitative", title: "score" },
                  x2: { field: "hi" },
                  color: strategyColour(strategies),
                },
              },
              { mark: { type: "point", filled: true, size: 36, opacity: 0.9 }, encoding: { y, x, color: strategyColour(strategies) } },
            ],
          },
          resolve: { scale: { x: "shared" } },
        },
      ),
    },
  ];
}
