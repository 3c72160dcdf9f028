/** Exp. 3 figures: strategy bars for both probe conditions, recall by category with intrusion, and the α sweep (docs/spec.md §7 Exp. 3). */
import { fixed, shortest } from "../format.js";
import { getArray, getNumber, strategyRecordOf, type ResultDoc } from "@persode/results";
import { SERIES_COLOURS } from "../style.js";
import { exp3Strategies } from "../sections/exp3.js";
import { strategyBarGrid, topLevel, type FigureSpec, type GridBar } from "./common.js";

const CONDITIONS = [
  { key: "vague", label: "vague probes" },
  { key: "plain", label: "plain probes" },
];

/** Build the Exp. 3 figure specs. */
export function exp3Figures(doc: ResultDoc): FigureSpec[] {
  const strategies = exp3Strategies(doc);
  const records = strategies.map((k) => strategyRecordOf(doc, k));
  const queries = getNumber(doc, ["protocol", "query_count"]);
  const topK = getNumber(doc, ["protocol", "top_k"]);
  const rowLabel = (c: { label: string }) => c.label;
  const protocolNote = `${fixed(queries, 0)} probes per condition, top-${fixed(topK, 0)}, pre-registered protocol (no tuning)`;

  const metrics = [
    { key: "target_recall", label: "target recall@3" },
    { key: "target_mrr", label: "target MRR" },
    { key: "topical_precision", label: "topical precision@3" },
  ];
  const bars: GridBar[] = [];
  for (const c of CONDITIONS) {
    for (const m of metrics) {
      for (const s of strategies) {
        const value = getNumber(doc, ["conditions", c.key, s, m.key]);
        bars.push({ row: rowLabel(c), column: m.label, strategy: s, value, label: fixed(value, 2) });
      }
    }
  }

  const first = strategies[0]!;
  const count = (cat: string) => fixed(getNumber(doc, ["conditions", "vague", first, "query_count_by_category", cat]), 0);
  const categories = [
    { key: "emotional_long", label: `long-term emotional (n=${count("emotional_long")})` },
    { key: "emotional_recent", label: `recent emotional (n=${count("emotional_recent")})` },
    { key: "neutral_recent", label: `neutral recent (n=${count("neutral_recent")})` },
  ];
  const intrusionLabel = `emotional intrusion|(${fixed(getNumber(doc, ["conditions", "vague", first, "neutral_query_count"]), 0)} neutral probes, lower is better)`;
  const catBars: GridBar[] = [];
  for (const c of CONDITIONS) {
    for (const s of strategies) {
      for (const cat of categories) {
        const value = getNumber(doc, ["conditions", c.key, s, "recall_by_category", cat.key]);
        catBars.push({ row: rowLabel(c), column: `recall@3|${cat.label}`, strategy: s, value, label: fixed(value, 2) });
      }
      const intrusion = getNumber(doc, ["conditions", c.key, s, "emotional_intrusion"]);
      catBars.push({ row: rowLabel(c), column: intrusionLabel, strategy: s, value: intrusion, label: fixed(intrusion, 2) });
    }
  }

  const n = getArray(doc, ["alpha_curve"]).length;
  const sweepMetrics = [
    { key: "target_recall", label: "target recall@3 (all probes)", colour: SERIES_COLOURS.indigo, shape: "circle" },
    { key: "long_term_recall", label: "recall@3 (long-term emotional)", colour: SERIES_COLOURS.wine, shape: "triangle-up" },
    { key: "target_mrr", label: "target MRR (all probes)", colour: SERIES_COLOURS.olive, shape: "square" },
  ];
  const sweep: Array<{ alpha: number; metric: string; value: number }> = [];
  for (let i = 0; i < n; i++) {
    const alpha = getNumber(doc, ["alpha_curve", i, "alpha"]);
    for (const m of sweepMetrics) sweep.push({ alpha, metric: m.label, value: getNumber(doc, ["alpha_curve", i, m.key]) });
  }
  const bumpFrom = getNumber(doc, ["findings", "long_term_plateau", "from_alpha"]);
  const bumpTo = getNumber(doc, ["findings", "long_term_plateau", "to_alpha"]);
  const alpha = getNumber(doc, ["protocol", "alpha"]);
  const labels = sweepMetrics.map((m) => m.label);
  const sweepSpec = {
    width: 620,
    height: 280,
    layer: [
      {
        data: { values: [{ a: bumpFrom, b: bumpTo }] },
        mark: { type: "rect", color: "#f3e3d6" },
        encoding: { x: { field: "a", type: "quantitative" }, x2: { field: "b" } },
      },
      {
        data: { values: [{ a: alpha, y: 1.02, text: `α = ${shortest(alpha, 2)} (pre-registered)` }] },
        mark: { type: "text", align: "left", dx: 4, fontSize: 10, color: "#444444", baseline: "top" },
        encoding: { x: { field: "a", type: "quantitative" }, y: { field: "y", type: "quantitative" }, text: { field: "text" } },
      },
      {
        data: { values: [{ a: alpha }] },
        mark: { type: "rule", strokeDash: [5, 4], color: "#555555" },
        encoding: { x: { field: "a", type: "quantitative" } },
      },
      {
        data: { values: sweep },
        mark: { type: "line", point: { filled: true, size: 40 }, strokeWidth: 2.2 },
        encoding: {
          x: {
            field: "alpha",
            type: "quantitative",
            scale: { domain: [0, 1], nice: false },
            axis: { title: "α — fusion weight on semantic similarity", format: ".1f" },
          },
          y: {
            field: "value",
            type: "quantitative",
            scale: { domain: [0, 1.05], nice: false },
            axis: { title: "score (higher is better)", values: [0, 0.2, 0.4, 0.6, 0.8, 1] },
          },
          color: {
            field: "metric",
            type: "nominal",
            sort: labels,
            scale: { domain: labels, range: sweepMetrics.map((m) => m.colour) },
            legend: { title: null },
          },
          shape: {
            field: "metric",
            type: "nominal",
            sort: labels,
            scale: { domain: labels, range: sweepMetrics.map((m) => m.shape) },
            legend: { title: null },
          },
        },
      },
    ],
  };

  return [
    {
      id: "exp3_strategies",
      experiment: "exp3",
      caption: "Exp. 3 — target recall@3, target MRR and topical precision@3 per strategy, vague and plain probes.",
      spec: topLevel(
        "Exp. 3 — Memory Selection Block vs baselines",
        protocolNote,
        strategyBarGrid(bars, {
          strategies: records,
          rows: CONDITIONS.map(rowLabel),
          columns: metrics.map((m) => m.label),
          yTitle: "score",
        }),
      ),
    },
    {
      id: "exp3_categories",
      experiment: "exp3",
      caption: "Exp. 3 — recall@3 by target category and emotional intrusion on neutral probes (lower is better) per strategy.",
      spec: topLevel(
        "Exp. 3 — where fusion gains and where it costs",
        "recall@3 by target category · emotional memories intruding on neutral probes",
        strategyBarGrid(catBars, {
          strategies: records,
          rows: CONDITIONS.map(rowLabel),
          columns: [...categories.map((c) => `recall@3|${c.label}`), intrusionLabel],
          yTitle: "share",
          width: 160,
        }),
      ),
    },
    {
      id: "exp3_alpha_sweep",
      experiment: "exp3",
      caption: `Exp. 3 — α sweep of the fused strategy on vague probes; shaded: α range where long-term emotional recall stays at its maximum (${fixed(bumpFrom, 2)}–${fixed(bumpTo, 2)}).`,
      spec: topLevel("Exp. 3 — α fusion sweep (vague probes)", "α = 0 is salience-dominant; α = 1 is pure similarity", sweepSpec),
    },
  ];
}
