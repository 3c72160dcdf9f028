/** Exp. 2 figure: the Eq. 1 weight-ablation dot plot (docs/spec.md §7 Exp. 2). */
import { fixed } from "../format.js";
import { getArray, getKeys, getNumber, getString, hasPath, type ResultDoc } from "@persode/results";
import { SERIES_COLOURS } from "../style.js";
import { topLevel, type FigureSpec } from "./common.js";

const WEIGHTING_COLOURS = [SERIES_COLOURS.indigo, SERIES_COLOURS.wine, SERIES_COLOURS.olive, SERIES_COLOURS.sand, SERIES_COLOURS.ink];
const WEIGHTING_SHAPES = ["circle", "diamond", "square", "triangle-up", "triangle-down", "cross"];

/** Build the Exp. 2 figure spec. */
export function exp2Figures(doc: ResultDoc): FigureSpec[] {
  const weightings = getKeys(doc, ["rankings"]);
  const first = weightings[0];
  if (first === undefined) throw new Error(`${doc.file}: rankings is empty — rerun \`pnpm bench exp2\``);
  const events = getArray(doc, ["rankings", first]).map((_, i) => getString(doc, ["rankings", first, i, "event"]));
  const rows: Array<{ event: string; weighting: string; S: number }> = [];
  for (const w of weightings) {
    getArray(doc, ["rankings", w]).forEach((_, i) =>
      rows.push({ event: getString(doc, ["rankings", w, i, "event"]), weighting: w, S: getNumber(doc, ["rankings", w, i, "S"]) }),
    );
  }
  const y = {
    field: "event",
    type: "nominal",
    sort: events,
    title: null,
    axis: { labelFontSize: 12, labelColor: "#222222", labelLimit: 520 },
  };
  const layers: unknown[] = [
    {
      mark: { type: "rule", color: "#bbbbbb", strokeWidth: 1.5 },
      encoding: { y, x: { aggregate: "min", field: "S", type: "quantitative" }, x2: { aggregate: "max", field: "S" } },
    },
    {
      mark: { type: "point", filled: true, size: 90, opacity: 1, stroke: "#ffffff", strokeWidth: 1 },
      encoding: {
        y,
        x: { field: "S", type: "quantitative", axis: { title: "memory strength S at the reference date", grid: true } },
        color: {
          field: "weighting",
          type: "nominal",
          sort: weightings,
          scale: { domain: weightings, range: weightings.map((_, i) => WEIGHTING_COLOURS[i % WEIGHTING_COLOURS.length]) },
          legend: { title: null, orient: "bottom" },
        },
        shape: {
          field: "weighting",
          type: "nominal",
          sort: weightings,
          scale: { domain: weightings, range: weightings.map((_, i) => WEIGHTING_SHAPES[i % WEIGHTING_SHAPES.length]) },
          legend: { title: null, orient: "bottom" },
        },
      },
    },
  ];
  let subtitle: string | undefined;
  if (hasPath(doc, ["focus"])) {
    const event = getString(doc, ["focus", "event"]);
    const emo = getString(doc, ["findings", "emotion_heavy_weighting"]);
    const ratio = getNumber(doc, ["focus", "ratio_emotion_heavy_vs_balanced"]);
    const sMax = Math.max(...rows.filter((r) => r.event === event).map((r) => r.S));
    layers.push({
      data: { values: [{ event, S: sMax, text: `×${fixed(ratio, 1)} under ${emo}` }] },
      mark: { type: "text", align: "left", dx: 10, fontSize: 11, color: "#333333" },
      encoding: { y: { field: "event", type: "nominal", sort: events }, x: { field: "S", type: "quantitative" }, text: { field: "text" } },
    });
    const balanced = getKeys(doc, ["focus", "rank_by_weighting"])[0]!;
    const rank = (w: string) => fixed(getNumber(doc, ["focus", "rank_by_weighting", w]), 0);
    subtitle = `“${event}”: rank ${rank(balanced)} under ${balanced}, rank ${rank(emo)} under ${emo}`;
  }
  return [
    {
      id: "exp2_weight_ablation",
      experiment: "exp2",
      caption: "Exp. 2 — strength S of the ten scenario memories under four Eq. 1 weightings; events sorted by the first weighting.",
      spec: topLevel("Exp. 2 — how Eq. 1's weights (wE, wR, wC) reorder the memory store", subtitle, {
        width: 560,
        height: 28 * events.length,
        data: { values: rows },
        layer: layers,
      }),
    },
  ];
}
