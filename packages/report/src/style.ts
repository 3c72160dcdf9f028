/**
 * The shared visual style: the Okabe–Ito colour-blind-safe palette, one fixed colour per
 * strategy across every figure, display names for strategies and embedders, and the
 * Vega-Lite config every figure uses (one font, DejaVu Sans, so SVG and PNG agree).
 */

/** The built-in strategies, in registry order (docs/spec.md §5). */
export const REGISTRY_STRATEGIES = ["recency-only", "similarity-only", "salience-only", "fused (Persode)", "gated (Persode)"] as const;

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

const REGISTRY_COLOURS: Readonly<Record<string, string>> = {
  "recency-only": BASELINE_GREY,
  "similarity-only": OKABE_ITO.blue,
  "salience-only": OKABE_ITO.reddishPurple,
  "fused (Persode)": OKABE_ITO.vermillion,
  "gated (Persode)": OKABE_ITO.bluishGreen,
};

/** Colours handed to user-registered strategies, in order of first appearance (cycled when exhausted). */
export const EXTRA_STRATEGY_COLOURS = [OKABE_ITO.orange, OKABE_ITO.skyBlue, OKABE_ITO.black, OKABE_ITO.yellow] as const;

/** Registry strategies first (in registry order), then any extra strategies in the order given. */
export function orderStrategies(keys: readonly string[]): string[] {
  const known = REGISTRY_STRATEGIES.filter((k) => keys.includes(k));
  const extras: string[] = [];
  for (const k of keys) if (!(REGISTRY_STRATEGIES as readonly string[]).includes(k) && !extras.includes(k)) extras.push(k);
  return [...known, ...extras];
}

/** The colour of every strategy in `ordered` (registry colours fixed; extras from EXTRA_STRATEGY_COLOURS). */
export function strategyColours(ordered: readonly string[]): string[] {
  let extra = 0;
  return ordered.map((k) => REGISTRY_COLOURS[k] ?? EXTRA_STRATEGY_COLOURS[extra++ % EXTRA_STRATEGY_COLOURS.length]!);
}

/** Identifier-safe slug of a strategy key, matching the rankings file names ("fused (Persode)" → "fused_persode"). */
export function strategySlug(key: string): string {
  const slug = key
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, "_")
    .replace(/^_+|_+$/g, "");
  if (slug === "") throw new Error(`strategy key ${JSON.stringify(key)} has no letters or digits to build a slug from`);
  return slug;
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
    legend: { labelFontSize: 11, titleFontSize: 12, titleFontWeight: "normal", orient: "bottom", direction: "horizontal", columns: 3, labelLimit: 420, symbolStrokeWidth: 0 },
    header: { labelFontSize: 13, labelFontWeight: "bold", labelColor: ink, titleFontSize: 12, titleFontWeight: "normal", labelLimit: 420 },
    text: { fontSize: 10, color: soft },
    // A colour field without its own scale is never a strategy (strategies always carry theirs).
    range: { category: [SERIES_COLOURS.indigo, SERIES_COLOURS.wine, SERIES_COLOURS.olive, SERIES_COLOURS.sand, SERIES_COLOURS.ink] },
  };
}
