/**
 * Where an experiment's time goes, by phase (`pnpm bench:perf` prints it): exclusive wall time per phase —
 * time inside a nested phase counts for the inner phase only, time in no phase is "other". Phases are
 * switched by the code that does the work (embedding, ranking, bootstrap…); the accounting costs two
 * performance.now() calls per switch, so it is always on. Timings are machine-dependent and never asserted.
 */

/** The phases of a dataset experiment, in the order they run. */
export const PHASES = ["load", "embed", "rank", "metrics", "bootstrap", "tests", "write", "render"] as const;

/** One phase of PHASES. */
export type Phase = (typeof PHASES)[number];

let current: Phase | "other" = "other";
let since = performance.now();
const totals = new Map<Phase | "other", number>();

function switchTo(next: Phase | "other"): Phase | "other" {
  const now = performance.now();
  totals.set(current, (totals.get(current) ?? 0) + now - since);
  since = now;
  const prev = current;
  current = next;
  return prev;
}

/** Run `f` as phase `p`. */
export function inPhase<T>(p: Phase, f: () => T): T {
  const prev = switchTo(p);
  try {
    return f();
  } finally {
    switchTo(prev);
  }
}

/** Run the async `f` as phase `p` (experiments run one at a time, so nothing else is counted meanwhile). */
export async function inPhaseAsync<T>(p: Phase, f: () => Promise<T>): Promise<T> {
  const prev = switchTo(p);
  try {
    return await f();
  } finally {
    switchTo(prev);
  }
}

/** Seconds per phase (and "other") since the last reset. */
export function phaseSeconds(): Record<Phase | "other", number> {
  switchTo(current);
  const out = {} as Record<Phase | "other", number>;
  for (const p of [...PHASES, "other"] as const) out[p] = (totals.get(p) ?? 0) / 1000;
  return out;
}

/** Start counting afresh. */
export function resetPhases(): void {
  totals.clear();
  since = performance.now();
}
