import { pyRound } from "@persode/util";
import { mean } from "./metrics.js";
import type { BootstrapSpec } from "./stats/bootstrap.js";
import { resampleIntervals } from "./stats/estimated-intervals.js";

/** One strategy's per-item metric arrays (all aligned on the same items). */
export interface StrategyMetrics {
  key: string;
  values: Record<string, ArrayLike<number>>;
}

/** CIs of one strategy, and its paired difference from the baseline (absent for the baseline). */
export interface StrategyUncertainty {
  ci95: Record<string, [number, number]>;
  paired?: Record<string, { diff: number; ci95: [number, number] }>;
}

/**
 * Bootstrap 95 % CIs for every strategy and metric, and for each strategy its paired difference
 * from `baseline` — all from ONE set of resamples (label-seeded), so "fusion costs recall" is a
 * statement with an interval computed on exactly the same resampled questions. Rounded to `digits`.
 */
export function strategyUncertainty(
  strategies: readonly StrategyMetrics[],
  spec: BootstrapSpec,
  label: string,
  digits: number,
  baseline = "similarity-only",
): Map<string, StrategyUncertainty> {
  const cols: Record<string, ArrayLike<number>> = {};
  strategies.forEach((s, si) => {
    for (const [m, v] of Object.entries(s.values)) cols[`${si}\u0000${m}`] = v;
  });
  const intervals = resampleIntervals(cols, spec, label, digits);
  const r = (x: number) => pyRound(x, digits);
  const bi = strategies.findIndex((s) => s.key === baseline);
  const out = new Map<string, StrategyUncertainty>();
  strategies.forEach((s, si) => {
    const u: StrategyUncertainty = { ci95: {} };
    for (const m of Object.keys(s.values)) {
      u.ci95[m] = intervals.ci(`${si}\u0000${m}`);
    }
    if (bi >= 0 && si !== bi) {
      u.paired = {};
      for (const m of Object.keys(s.values)) {
        const base = strategies[bi]!.values[m];
        if (!base) continue;
        u.paired[m] = { diff: r(mean(s.values[m]!) - mean(base)), ci95: intervals.paired(`${si}\u0000${m}`, `${bi}\u0000${m}`) };
      }
    }
    out.set(s.key, u);
  });
  return out;
}
