/** Shared pieces of the figure specs: the figure record, the strategy colour encoding and the chart shapes reused across experiments. */
import type { PathSegment } from "@persode/results";
import { getNumber, hasPath, type ResultDoc, type StrategyRecord } from "@persode/results";
import type { SectionId } from "../content.js";
import { baseConfig, strategyColours } from "../style.js";

/** Vega-Lite schema URL recorded in every spec (informational; nothing is fetched). */
const VEGA_LITE_SCHEMA = "https://vega.github.io/schema/vega-lite/v6.json";

/** One figure: its id (file stem), the experiment it belongs to, a caption and the Vega-Lite spec. */
export interface FigureSpec {
  id: string;
  experiment: SectionId;
  caption: string;
  spec: Record<string, unknown>;
}

/** A complete top-level spec: schema, shared config, title and the given body. */
export function topLevel(title: string, subtitle: string | string[] | undefined, body: Record<string, unknown>): Record<string, unknown> {
  return {
    $schema: VEGA_LITE_SCHEMA,
    title: subtitle === undefined ? { text: title } : { text: title, subtitle },
    ...body,
    config: baseConfig(),
  };
}

/** Colour encoding for a `strategy` field: each strategy's fixed colour, in the order given (presentation order), legend at the bottom. */
export function strategyColour(ordered: readonly StrategyRecord[], legend = true): Record<string, unknown> {
  const keys = ordered.map((r) => r.key);
  return {
    field: "strategy",
    type: "nominal",
    title: null,
    sort: keys,
    scale: { domain: keys, range: strategyColours(ordered) },
    legend: legend ? { title: null } : null,
  };
}

/** Rows for a strategy-bar grid: one bar per strategy in each (row, column) panel. */
export interface GridBar {
  row: string;
  column: string;
  strategy: string;
  value: number;
  label: string;
}

/** Bars per strategy in a grid of panels (rows × columns), value labels on top, y in [0, 1]. */
export function strategyBarGrid(
  bars: GridBar[],
  o: { strategies: readonly StrategyRecord[]; rows: string[]; columns: string[]; yTitle: string; width?: number },
): Record<string, unknown> {
  return {
    data: { values: bars },
    facet: {
      row: { field: "row", type: "nominal", sort: o.rows, title: null, header: { labelFontSize: 12 } },
      column: {
        field: "column",
        type: "nominal",
        sort: o.columns,
        title: null,
        header: { labelFontSize: 12, labelFontWeight: "normal", labelExpr: "split(datum.label, '|')" },
      },
    },
    spacing: { row: 18, column: 22 },
    spec: {
      width: o.width ?? 150,
      height: 150,
      layer: [
        {
          mark: { type: "bar", cornerRadiusEnd: 1 },
          encoding: {
            x: {
              field: "strategy",
              type: "nominal",
              sort: o.strategies.map((r) => r.key),
              axis: { labels: false, ticks: false, title: null, domain: true },
            },
            y: {
              field: "value",
              type: "quantitative",
              scale: { domain: [0, 1.08], nice: false },
              axis: { title: o.yTitle, values: [0, 0.25, 0.5, 0.75, 1], format: ".2f" },
            },
            color: strategyColour(o.strategies),
          },
        },
        {
          mark: { type: "text", baseline: "bottom", dy: -2, fontSize: 9 },
          encoding: {
            x: { field: "strategy", type: "nominal", sort: o.strategies.map((r) => r.key) },
            y: { field: "value", type: "quantitative" },
            text: { field: "label" },
          },
        },
      ],
    },
  };
}

/**
 * The top of a [0, 1] score axis scaled to the data: the largest value (whiskers included) rounded up
 * to a multiple of 0.05 (0.1 above 0.5), at most 1 — LoCoMo's recalls (≈ 0.2) would be slivers on [0, 1].
 * @internal exported for tests only: test/figures.test.ts checks the rounding.
 */
export function scoreAxisTop(max: number): number {
  const step = max > 0.5 ? 0.1 : 0.05;
  const top = Math.max(step, Math.ceil(max / step - 1e-9) * step);
  return Math.min(1, Number(top.toFixed(2))); // 7 × 0.05 is 0.35000000000000003 in binary
}

/** Rows for grouped bars with CI whiskers. */
export interface CiBar {
  panel: string;
  group: string;
  strategy: string;
  value: number;
  lo: number | null;
  hi: number | null;
}

/** Grouped bars (group on x, one bar per strategy) with 95 % CI whiskers; one panel per embedder. */
export function groupedBarsWithCi(
  bars: CiBar[],
  o: { strategies: readonly StrategyRecord[]; panels: string[]; groups: string[]; yTitle: string; width: number },
): Record<string, unknown> {
  const withCi = bars.filter((b) => b.lo !== null && b.hi !== null);
  const yTop = scoreAxisTop(Math.max(...bars.map((b) => Math.max(b.value, b.hi ?? 0))));
  // Multi-word groups ("reflective explicit") break into lines instead of being cut off.
  const x = {
    field: "group",
    type: "nominal",
    sort: o.groups,
    title: null,
    axis: { labelAngle: 0, labelLimit: 150, labelExpr: "split(datum.label, ' ')" },
  };
  const xOffset = { field: "strategy", type: "nominal", sort: o.strategies.map((r) => r.key), scale: { paddingInner: 0.08 } };
  return {
    data: { values: bars },
    facet: { column: { field: "panel", type: "nominal", sort: o.panels, title: null } },
    spacing: 24,
    spec: {
      width: o.width,
      height: 230,
      layer: [
        {
          mark: { type: "bar" },
          encoding: {
            x,
            xOffset,
            y: {
              field: "value",
              type: "quantitative",
              scale: { domain: [0, yTop], nice: false },
              axis: { title: o.yTitle, format: ".2~f" },
            },
            color: strategyColour(o.strategies),
          },
        },
        ...(withCi.length
          ? [
              {
                transform: [{ filter: "datum.lo !== null && datum.hi !== null" }],
                mark: { type: "rule", color: "#222222", strokeWidth: 1.2 },
                encoding: { x, xOffset, y: { field: "lo", type: "quantitative" }, y2: { field: "hi" } },
              },
            ]
          : []),
      ],
    },
  };
}

/** Rows for paired differences to similarity-only. */
export interface PairedDiff {
  panel: string;
  metric: string;
  strategy: string;
  diff: number;
  lo: number;
  hi: number;
}

/** Dot-and-whisker plot of paired differences to similarity-only, zero marked; rows = metric, columns = embedder. */
export function pairedDiffPlot(
  rows: PairedDiff[],
  o: { strategies: readonly StrategyRecord[]; panels: string[]; metrics: string[]; xTitle: string },
): Record<string, unknown> {
  const y = { field: "strategy", type: "nominal", sort: o.strategies.map((r) => r.key), title: null };
  return {
    data: { values: rows },
    facet: {
      row: {
        field: "metric",
        type: "nominal",
        sort: o.metrics,
        title: null,
        header: { labelAngle: 0, labelAlign: "left", labelAnchor: "start", labelOrient: "top" },
      },
      column: { field: "panel", type: "nominal", sort: o.panels, title: null },
    },
    spacing: { row: 14, column: 24 },
    spec: {
      width: 300,
      height: 16 * Math.max(1, o.strategies.length),
      layer: [
        { mark: { type: "rule", color: "#999999", strokeDash: [4, 3] }, encoding: { x: { datum: 0, type: "quantitative" } } },
        {
          mark: { type: "rule", strokeWidth: 2 },
          encoding: {
            y,
            x: { field: "lo", type: "quantitative", title: o.xTitle },
            x2: { field: "hi" },
            color: strategyColour(o.strategies),
          },
        },
        {
          mark: { type: "point", filled: true, size: 55, opacity: 1 },
          encoding: { y, x: { field: "diff", type: "quantitative" }, color: strategyColour(o.strategies) },
        },
      ],
    },
    resolve: { scale: { x: "shared" } },
  };
}

/**
 * One strategy's bar for a CI-bar chart (value, and its 95 % CI when the file records one) plus its
 * paired difference to similarity-only when the file records that, read from the given paths.
 */
export function barAndPairedDiff(
  doc: ResultDoc,
  at: { panel: string; group: string; strategy: string; metric: string },
  paths: { value: PathSegment[]; ci: PathSegment[]; paired: PathSegment[] },
): { bar: CiBar; paired?: PairedDiff } {
  const hasCi = hasPath(doc, paths.ci);
  const bar: CiBar = {
    panel: at.panel,
    group: at.group,
    strategy: at.strategy,
    value: getNumber(doc, paths.value),
    lo: hasCi ? getNumber(doc, [...paths.ci, 0]) : null,
    hi: hasCi ? getNumber(doc, [...paths.ci, 1]) : null,
  };
  if (!hasPath(doc, paths.paired)) return { bar };
  const p = paths.paired;
  return {
    bar,
    paired: {
      panel: at.panel,
      metric: at.metric,
      strategy: at.strategy,
      diff: getNumber(doc, [...p, "diff"]),
      lo: getNumber(doc, [...p, "ci95", 0]),
      hi: getNumber(doc, [...p, "ci95", 1]),
    },
  };
}
