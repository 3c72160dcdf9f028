/**
 * Paired comparison of several systems with one baseline on the same items, with multiple-comparison
 * control — the harness's answer to "does X beat the baseline?". Experiment-agnostic: it sees only
 * aligned per-item score arrays, so any experiment (strategies, estimators × strategies, …) can use it.
 *
 * Per system and metric: mean difference, wins/ties/losses over items, the two-sided randomization
 * (sign-flip) test (./randomization.ts), the paired t-test (./t-test.ts), and the randomization p-value
 * Holm-adjusted across all systems compared with the baseline within that metric (./holm.ts).
 */
import { pyRound } from "@persode/util";
import { holm } from "./holm.js";
import { inPhase } from "../phases.js";
import {
  DEFAULT_PERMUTATIONS,
  drawSignFlips,
  randomizationTest,
  startRandomizationTests,
  type RandomizationResult,
  type SignFlips,
} from "./randomization.js";
import { pairedTTest } from "./t-test.js";

/** How to test: B sign vectors, the seed, the label naming the stream, the family-wise α. */
export interface PairedTestSpec {
  /** Random sign vectors B (10 000). */
  samples?: number;
  seed: number;
  /** Stream label, e.g. "exp5/hashing"; one set of sign vectors per label. */
  label: string;
  /** Family-wise error rate for `significant` (0.05). */
  alpha?: number;
}

/** One system against the baseline on one metric. */
export interface PairedTest {
  /** Number of paired items. */
  n: number;
  /** mean(system) − mean(baseline), plain float means. */
  diff: number;
  /** Items where the system scores higher / equal / lower. */
  wins: number;
  ties: number;
  losses: number;
  /** Two-sided randomization test p-value, (1 + #extreme)/(B + 1). */
  pRandomization: number;
  /** Paired two-sided t-test: statistic and p-value. */
  t: number;
  pT: number;
}

/** A PairedTest with its Holm-adjusted randomization p-value and the decision at α. */
export interface AdjustedPairedTest extends PairedTest {
  pHolm: number;
  significant: boolean;
}

/** One system's per-item metric arrays. */
export interface SystemScores {
  key: string;
  values: Record<string, ArrayLike<number>>;
}

function plainMean(xs: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < xs.length; i++) s += xs[i]!;
  return s / xs.length;
}

/** Test one system against the baseline with given sign vectors (shared across a family). */
export function pairedTest(system: ArrayLike<number>, baseline: ArrayLike<number>, flips: SignFlips): PairedTest {
  return pairedTestWith(system, baseline, randomizationTest(system, baseline, flips));
}

/** pairedTest given its randomization test's outcome (computed for many pairs at once by startRandomizationTests). */
function pairedTestWith(system: ArrayLike<number>, baseline: ArrayLike<number>, r: RandomizationResult): PairedTest {
  let wins = 0;
  let ties = 0;
  for (let i = 0; i < system.length; i++) {
    if (system[i]! > baseline[i]!) wins++;
    else if (system[i] === baseline[i]) ties++;
  }
  const tt = pairedTTest(system, baseline);
  return {
    n: system.length,
    diff: plainMean(system) - plainMean(baseline),
    wins,
    ties,
    losses: system.length - wins - ties,
    pRandomization: r.p,
    t: tt.t,
    pT: tt.p,
  };
}

/**
 * Every system against `baseline` on every metric the baseline has: one set of sign vectors for the
 * label (shared by all systems and metrics), Holm across the systems within each metric.
 * Returns, per non-baseline system key, per metric, the adjusted test.
 */
export function compareWithBaseline(
  systems: readonly SystemScores[],
  baseline: string,
  spec: PairedTestSpec,
): Map<string, Record<string, AdjustedPairedTest>> {
  return startComparisonWithBaseline(systems, baseline, spec)();
}

/**
 * compareWithBaseline, started: the sign-flip tests run on the thread pool's workers while the caller goes on
 * (startRandomizationTests); the returned function waits for them and returns compareWithBaseline's result.
 */
export function startComparisonWithBaseline(
  systems: readonly SystemScores[],
  baseline: string,
  spec: PairedTestSpec,
): () => Map<string, Record<string, AdjustedPairedTest>> {
  const finish = inPhase("tests", () => compareAll(systems, baseline, spec));
  let result: Map<string, Record<string, AdjustedPairedTest>> | undefined;
  return () => (result ??= inPhase("tests", finish));
}

function compareAll(
  systems: readonly SystemScores[],
  baseline: string,
  spec: PairedTestSpec,
): () => Map<string, Record<string, AdjustedPairedTest>> {
  const base = systems.find((s) => s.key === baseline);
  if (!base)
    throw new Error(
      `paired comparison "${spec.label}": no system "${baseline}" to compare with; systems: ${systems.map((s) => s.key).join(", ")}`,
    );
  const others = systems.filter((s) => s !== base);
  const metrics = Object.keys(base.values);
  const out = new Map<string, Record<string, AdjustedPairedTest>>(others.map((s) => [s.key, {}]));
  if (metrics.length === 0 || others.length === 0) return () => out;
  const n = base.values[metrics[0]!]!.length;
  const flips = drawSignFlips(n, { samples: spec.samples ?? DEFAULT_PERMUTATIONS, seed: spec.seed }, spec.label);
  const alpha = spec.alpha ?? 0.05;
  // every system and metric's sign-flip test in one pass over the sign vectors
  const pairs = metrics.flatMap((m) =>
    others.map((s): [ArrayLike<number>, ArrayLike<number>] => {
      const v = s.values[m];
      if (!v) throw new Error(`paired comparison "${spec.label}": system "${s.key}" has no metric "${m}"`);
      return [v, base.values[m]!];
    }),
  );
  const randomized = startRandomizationTests(pairs, flips);
  return () => {
    const results = randomized();
    for (const [mi, m] of metrics.entries()) {
      const tests = others.map((_, si) => {
        const [v, b] = pairs[mi * others.length + si]!;
        return pairedTestWith(v, b, results[mi * others.length + si]!);
      });
      const adjusted = holm(tests.map((t) => t.pRandomization));
      others.forEach((s, i) => {
        out.get(s.key)![m] = { ...tests[i]!, pHolm: adjusted[i]!, significant: adjusted[i]! < alpha };
      });
    }
    return out;
  };
}

/**
 * A p-value as results files write it: Python-rounded to `digits`, null where the test is undefined (NaN: a t-test on fewer than 2 items).
 */
export function pValueForJson(p: number, digits: number): number | null {
  return Number.isNaN(p) ? null : pyRound(p, digits);
}
