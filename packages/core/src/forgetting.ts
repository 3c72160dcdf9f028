import { requireFinite } from "./numeric.js";

/**
 * Ebbinghaus forgetting (paper §4.2, docs/spec.md §1): d(Δt) = e^(−λ·max(0, Δt)) with λ = ln 4 / 6 per day,
 * so a memory keeps 25 % after the six-day short-term window and halves every 3 days.
 */

/** λ, the decay rate per day: ln 4 / 6 ≈ 0.231049, calibrated so d(6 d) = 0.25. */
export const DECAY_RATE_PER_DAY = Math.log(4) / 6;

/** The short-term window in days: a memory is short-term iff its age ≤ 6 d. */
export const SHORT_TERM_WINDOW_DAYS = 6;

/** Retention d(Δt) = e^(−λ·max(0, Δt)) for an age in days. */
export function decay(ageDays: number, lambda: number = DECAY_RATE_PER_DAY): number {
  return Math.exp(-lambda * Math.max(0, requireFinite(ageDays, "age (days)")));
}

/** Half-life in days, ln 2 / λ (3 d for the default λ). */
export function halfLifeDays(lambda: number = DECAY_RATE_PER_DAY): number {
  return Math.log(2) / lambda;
}

/** Recall strength R = n / (n + 5) for a recall count n. */
export function recallStrength(recallCount: number): number {
  return recallCount / (recallCount + 5);
}

/** Whether an age (days) lies inside the short-term window. */
export function isShortTerm(ageDays: number, windowDays: number = SHORT_TERM_WINDOW_DAYS): boolean {
  return requireFinite(ageDays, "age (days)") <= requireFinite(windowDays, "short-term window (days)");
}
