/** Exp. 1 figure: the forgetting curve and the consolidation curves, six-day window shaded (docs/spec.md §7 Exp. 1). */
import { fixed } from "../format.js";
import { getArray, getNumber, getNumberArray, getString, type ResultDoc } from "@persode/results";
import { SERIES_COLOURS } from "../style.js";
import { topLevel, type FigureSpec } from "./common.js";

/** Profiles are ordered from most to least emotional: darkest to lightest of one hue. */
const PROFILE_COLOURS = SERIES_COLOURS.profiles;
const PROFILE_DASHES = [
  [1, 0],
  [7, 3],
  [2, 2],
  [9, 3, 2, 3],
  [4, 4],
];

/** Build the Exp. 1 figure spec. */
export function exp1Figures(doc: ResultDoc): FigureSpec[] {
  const ages = getNumberArray(doc, ["curves", "age_days"]);
  const decay = getNumberArray(doc, ["curves", "decay"]);
  if (decay.length !== ages.length)
    throw new Error(
      `${doc.file}: curves.decay has ${decay.length} points but curves.age_days has ${ages.length} — rerun \`pnpm bench exp1\``,
    );
  const window = getNumber(doc, ["short_term_window_days"]);
  const half = getNumber(doc, ["half_life_days"]);
  const r6 = getNumber(doc, ["retention_at_6_days"]);
  const lambda = getNumber(doc, ["lambda_per_day"]);
  const maxAge = ages[ages.length - 1] ?? 30;
  const labels: string[] = [];
  const strength: Array<{ age: number; S: number; profile: string }> = [];
  getArray(doc, ["curves", "profiles"]).forEach((_, i) => {
    const label = getString(doc, ["curves", "profiles", i, "label"]);
    const s = getNumberArray(doc, ["curves", "profiles", i, "strength"]);
    if (s.length !== ages.length)
      throw new Error(
        `${doc.file}: curves.profiles[${i}].strength has ${s.length} points, expected ${ages.length} — rerun \`pnpm bench exp1\``,
      );
    labels.push(label);
    s.forEach((S, k) => strength.push({ age: ages[k]!, S, profile: label }));
  });
  const xScale = { domain: [0, maxAge], nice: false };
  const windowLayer = (yMax: number) => [
    {
      data: { values: [{ x0: 0, x1: window }] },
      mark: { type: "rect", color: "#ededed" },
      encoding: { x: { field: "x0", type: "quantitative", scale: xScale }, x2: { field: "x1" } },
    },
    {
      data: { values: [{ x: window + 0.4, y: yMax * 0.98, text: `◂ short-term window (${fixed(window, 0)} days)` }] },
      mark: { type: "text", fontSize: 10, color: "#666666", baseline: "top", align: "left" },
      encoding: { x: { field: "x", type: "quantitative" }, y: { field: "y", type: "quantitative" }, text: { field: "text" } },
    },
  ];
  const points = [
    { t: half, d: 0.5, text: `half-life ${fixed(half, 1)} d` },
    { t: window, d: r6, text: `day ${fixed(window, 0)}: d = ${fixed(r6, 2)}` },
  ];
  const left = {
    width: 380,
    height: 260,
    title: { text: "Retention d(Δt) = e^(−λ·Δt)", subtitle: `λ = ln 4 / 6 = ${fixed(lambda, 4)} per day`, fontSize: 13 },
    layer: [
      ...windowLayer(1),
      {
        data: { values: ages.map((a, k) => ({ age: a, d: decay[k] })) },
        mark: { type: "line", color: SERIES_COLOURS.ink, strokeWidth: 2.5 },
        encoding: {
          x: { field: "age", type: "quantitative", scale: xScale, axis: { title: "elapsed time Δt (days)" } },
          y: { field: "d", type: "quantitative", scale: { domain: [0, 1] }, axis: { title: "retention d(Δt)" } },
        },
      },
      {
        data: { values: points },
        mark: { type: "point", filled: true, size: 70, color: SERIES_COLOURS.ink, stroke: "#ffffff", strokeWidth: 1.5, opacity: 1 },
        encoding: { x: { field: "t", type: "quantitative" }, y: { field: "d", type: "quantitative" } },
      },
      {
        data: { values: points },
        mark: { type: "text", align: "left", dx: 9, dy: -8, fontSize: 11, color: "#333333" },
        encoding: { x: { field: "t", type: "quantitative" }, y: { field: "d", type: "quantitative" }, text: { field: "text" } },
      },
    ],
  };
  const sMax = Math.max(...strength.map((r) => r.S));
  const labelAt = ages.findIndex((a) => a >= window + 1);
  const labelRows = labels.map((profile) => strength.filter((r) => r.profile === profile)[labelAt < 0 ? 0 : labelAt]!);
  const yMax = Math.ceil(sMax * 10) / 10;
  const right = {
    width: 380,
    height: 260,
    title: { text: "Memory strength S by salience (Eq. 1)", subtitle: "salient memories decay more slowly", fontSize: 13 },
    layer: [
      ...windowLayer(yMax),
      {
        data: { values: strength },
        mark: { type: "line", strokeWidth: 2.5 },
        encoding: {
          x: { field: "age", type: "quantitative", scale: xScale, axis: { title: "memory age (days)" } },
          y: { field: "S", type: "quantitative", scale: { domain: [0, yMax] }, axis: { title: "memory strength S" } },
          color: {
            field: "profile",
            type: "nominal",
            sort: labels,
            scale: { domain: labels, range: labels.map((_, i) => PROFILE_COLOURS[i % PROFILE_COLOURS.length]) },
            legend: null,
          },
          strokeDash: {
            field: "profile",
            type: "nominal",
            sort: labels,
            scale: { domain: labels, range: labels.map((_, i) => PROFILE_DASHES[i % PROFILE_DASHES.length]) },
            legend: null,
          },
        },
      },
      {
        // direct labels just right of the window instead of a legend
        data: { values: labelRows },
        mark: { type: "text", align: "left", baseline: "bottom", dx: 4, dy: -3, fontSize: 11, fontWeight: "bold" },
        encoding: {
          x: { field: "age", type: "quantitative" },
          y: { field: "S", type: "quantitative" },
          text: { field: "profile" },
          color: {
            field: "profile",
            type: "nominal",
            sort: labels,
            scale: { domain: labels, range: labels.map((_, i) => PROFILE_COLOURS[i % PROFILE_COLOURS.length]) },
            legend: null,
          },
        },
      },
    ],
  };
  return [
    {
      id: "exp1_forgetting",
      experiment: "exp1",
      caption:
        "Exp. 1 — Ebbinghaus retention (left) and memory strength for three salience profiles (right); the six-day short-term window is shaded.",
      spec: topLevel("Exp. 1 — forgetting curve and consolidation", undefined, { hconcat: [left, right], spacing: 40 }),
    },
  ];
}
