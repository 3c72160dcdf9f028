/**
 * The shared visual style: the Okabe–Ito colour-blind-safe palette, one fixed colour per
 * strategy across every figure, display names for strategies and embedders, and the
 * Vega-Lite config every figure uses (one font, DejaVu Sans, so SVG and PNG agree).
 */
import type { StrategyRecord } from "@persode/results";

/** Okabe & Ito (2008) colours; distinguishable under the common colour-vision deficiencies. */
export const OKABE_ITO = {
  black: "#000000",
  orange: "#E69F00",
  skyBlue: "#56B4E9",
  bluishGreen: "#009E73",
  yellow: "#F0E442",
  blue: "#0072B2",
  vermillion: "#D55E00",
  reddishPurple: "#CC79A7",
} as const;

/**
 * Colours for everything that is not a strategy — Exp. 1's decay curve and salience profiles, Exp. 2's
 * weightings, Exp. 3's α-sweep metrics, Exp. 4's check marks — from Paul Tol's colour-blind-safe
 * "muted" scheme, in hues the strategy colours do not use, so a strategy's colour means that strategy
 * in every figure and nothing else. `profiles` is a light-to-dark ramp of one hue for ordered series.
 */
export const SERIES_COLOURS = {
  ink: "#3B3B3B",
  indigo: "#332288",
  wine: "#882255",
  olive: "#8A8A2E",
  sand: "#C9B65A",
  profiles: ["#2A1C70", "#6B58B0", "#A99BD6"],
} as const;

/** Neutral grey for the recency baseline (carries no hue, so it never competes with the palette). */
export const BASELINE_GREY = "#8C8C8C";

/**
 * The colours of the paper's five built-in strategies, in their presentation order (recency-only,
 * similarity-only, salience-only, fused, gated): the recency baseline neutral grey, the rest distinct hues.
 */
const BUILT_IN_COLOURS = [BASELINE_GREY, OKABE_ITO.blue, OKABE_ITO.reddishPurple, OKABE_ITO.vermillion, OKABE_ITO.bluishGreen] as const;

/** Colours handed to every other strategy (extensions, plugins), in presentation order (cycled when exhausted). */
export const EXTRA_STRATEGY_COLOURS = [OKABE_ITO.orange, OKABE_ITO.skyBlue, OKABE_ITO.black, OKABE_ITO.yellow] as const;

/**
 * The colour of each strategy record, from what the results file records about it (never from its name): a
 * built-in strategy keeps the colour of its recorded order (the registry puts the five first, so a figure
 * showing only some of them colours each the same), every other one gets the next extra colour.
 */
export function strategyColours(records: readonly StrategyRecord[]): string[] {
  let extra = 0;
  return records.map((r) =>
    r.built_in ? BUILT_IN_COLOURS[r.order % BUILT_IN_COLOURS.length]! : EXTRA_STRATEGY_COLOURS[extra++ % EXTRA_STRATEGY_COLOURS.length]!,
  );
}

const EMBEDDER_NAMES: Readonly<Record<string, string>> = {
  hashing: "hashing",
  "sentence-transformers": "MiniLM (reference)",
};

/** Human name of a run key: "hashing", or the model's own name the run is filed under (never a guessed family name). */
export function embedderName(key: string): string {
  return EMBEDDER_NAMES[key] ?? key;
}

/** Embedders in display order: hashing first (the reproducible one), the rest in file order. */
export function orderEmbedders(keys: readonly string[]): string[] {
  return [...keys.filter((k) => k === "hashing"), ...keys.filter((k) => k !== "hashing")];
}

/** Whether results from this embedder are exactly reproducible (pure arithmetic, no model inference). */
export function isExactEmbedder(key: string): boolean {
  return key === "hashing";
}

/** The single font used everywhere; the PNG renderer loads exactly this family from disk. */
export const FONT_FAMILY = "DejaVu Sans";

/** Vega-Lite config shared by every figure. */
export function baseConfig(): Record<string, unknown> {
  const ink = "#222222";
  const soft = "#555555";
  return {
    background: "#ffffff",
    padding: 12,
    font: FONT_FAMILY,
    view: { stroke: null, continuousWidth: 360, continuousHeight: 240 },
    title: { fontSize: 15, fontWeight: "bold", color: ink, anchor: "start", subtitleFontSize: 12, subtitleColor: soft, offset: 10 },
    axis: {
      labelFontSize: 11,
      titleFontSize: 12,
      titleFontWeight: "normal",
      labelColor: soft,
      titleColor: ink,
      domainColor: "#999999",
      tickColor: "#999999",
      gridColor: "#e6e6e6",
      labelLimit: 360,
    },
    axisX: { grid: false },
    legend: {
      labelFontSize: 11,
      titleFontSize: 12,
      titleFontWeight: "normal",
      orient: "bottom",
      direction: "horizontal",
      columns: 3,
      labelLimit: 420,
      symbolStrokeWidth: 0,
    },
    header: { labelFontSize: 13, labelFontWeight: "bold", labelColor: ink, titleFontSize: 12, titleFontWeight: "normal", labelLimit: 420 },
    text: { fontSize: 10, color: soft },
    // A colour field without its own scale is never a strategy (strategies always carry theirs).
    range: { category: [SERIES_COLOURS.indigo, SERIES_COLOURS.wine, SERIES_COLOURS.olive, SERIES_COLOURS.sand, SERIES_COLOURS.ink] },
  };
}
