/**
 * Exp. 7 figure: estimator quality (ρ with EpiRec's intensity band) against retrieval gain on reflective probes, one panel per embedder.
 */
import { getNumber, hasPath, type ResultDoc } from "@persode/results";
import { embedderName, OKABE_ITO, BASELINE_GREY } from "../style.js";
import { embeddersOf } from "../sections/common.js";
import { EXP7_MODES, estimatorLabel, estimatorsOf } from "../sections/exp7.js";
import { topLevel, type FigureSpec } from "./common.js";

/** Fixed colours per estimator (Okabe–Ito; the oracle grey, since it is a bound and not a method). */
const ESTIMATOR_COLOURS: Readonly<Record<string, string>> = {
  lexicon: OKABE_ITO.vermillion,
  vader: OKABE_ITO.blue,
  afinn: OKABE_ITO.bluishGreen,
  emobank: OKABE_ITO.orange,
  prototype: OKABE_ITO.reddishPurple,
  llm: OKABE_ITO.skyBlue,
};

interface Point {
  panel: string;
  estimator: string;
  strategy: string;
  rho: number;
  rho_lo: number;
  rho_hi: number;
  diff: number;
  lo: number;
  hi: number;
}

/** Build the Exp. 7 figure spec. */
export function exp7Figures(doc: ResultDoc): FigureSpec[] {
  const panels: string[] = [];
  const points: Point[] = [];
  const labels: string[] = [];
  const colours: string[] = [];
  for (const emb of embeddersOf(doc)) {
    const panel = `${embedderName(emb)} embedder`;
    panels.push(panel);
    const { real, bounds } = estimatorsOf(doc, emb);
    for (const name of [...real, ...bounds]) {
      const label = estimatorLabel(doc, emb, name);
      if (!labels.includes(label)) {
        labels.push(label);
        colours.push(ESTIMATOR_COLOURS[name] ?? BASELINE_GREY);
      }
      const q = ["runs", emb, "quality", name, "epirec_episodes", "spearman_band"];
      const hasCi = hasPath(doc, [...q, "ci95", 0]);
      const rho = getNumber(doc, [...q, "value"]);
      for (const m of EXP7_MODES) {
        const p = ["runs", emb, "retrieval", `${name}/${m.key}`, "reflective", "paired_vs_similarity"];
        points.push({
          panel,
          estimator: label,
          strategy: m.label,
          rho,
          rho_lo: hasCi ? getNumber(doc, [...q, "ci95", 0]) : rho,
          rho_hi: hasCi ? getNumber(doc, [...q, "ci95", 1]) : rho,
          diff: getNumber(doc, [...p, "diff"]),
          lo: getNumber(doc, [...p, "ci95", 0]),
          hi: getNumber(doc, [...p, "ci95", 1]),
        });
      }
    }
  }
  const colour = {
    field: "estimator",
    type: "nominal",
    title: null,
    sort: labels,
    scale: { domain: labels, range: colours },
    legend: { title: null, orient: "bottom" },
  };
  const shape = {
    field: "strategy",
    type: "nominal",
    title: null,
    scale: { domain: EXP7_MODES.map((m) => m.label), range: ["circle", "triangle-up"] },
    legend: { title: null, orient: "bottom" },
  };
  const x = {
    field: "rho",
    type: "quantitative",
    title: "estimator quality: Spearman ρ of episode E with EpiRec intensity band",
    scale: { domain: [-0.4, 1.05] },
  };
  const y = { field: "diff", type: "quantitative", title: "recall@3 − similarity-only (reflective probes)" };
  return [
    {
      id: "exp7_quality_gain",
      experiment: "exp7",
      caption:
        "Exp. 7 — each estimator's quality (Spearman ρ of episode E with EpiRec's authored intensity band, 95 % CI horizontal) " +
        "against the paired recall@3 difference to similarity-only on reflective probes (95 % CI vertical), always-on fusion " +
        "(circles) and the gate (triangles); below the dashed line = worse than similarity-only. The oracle reads the authored " +
        "labels: an upper bound, not a method.",
      spec: topLevel(
        "Exp. 7 — does a better emotion estimator buy retrieval?",
        "x: ρ with EpiRec intensity band · y: paired recall@3 difference to similarity-only on reflective probes · whiskers: 95 % bootstrap CIs",
        {
          data: { values: points },
          facet: { column: { field: "panel", type: "nominal", sort: panels, title: null } },
          spacing: 24,
          spec: {
            width: 380,
            height: 260,
            layer: [
              { mark: { type: "rule", color: "#999999", strokeDash: [4, 3] }, encoding: { y: { datum: 0, type: "quantitative" } } },
              {
                mark: { type: "rule", strokeWidth: 1.2, opacity: 0.7 },
                encoding: { x, y: { field: "lo", type: "quantitative" }, y2: { field: "hi" }, color: colour },
              },
              {
                mark: { type: "rule", strokeWidth: 1.2, opacity: 0.7 },
                encoding: { x: { field: "rho_lo", type: "quantitative" }, x2: { field: "rho_hi" }, y, color: colour },
              },
              { mark: { type: "point", filled: true, size: 70, opacity: 1 }, encoding: { x, y, color: colour, shape } },
            ],
          },
        },
      ),
    },
  ];
}
