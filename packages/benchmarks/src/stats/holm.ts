/**
 * Holm–Bonferroni step-down adjustment (Holm, Scand. J. Statist. 1979): with the m p-values sorted
 * ascending, p̃_(i) = max_{j ≤ i} min(1, (m − j + 1)·p_(j)); returned in the input order. Rejecting
 * where p̃ < α controls the family-wise error rate at α. Computed by @stdlib's padjust (loaded by ./stdlib.ts).
 */
import { stdlib } from "./stdlib.js";

/** Holm-adjusted p-values, in the order given (an empty family gives an empty list). */
export function holm(pValues: readonly number[]): number[] {
  pValues.forEach((p, i) => {
    if (!(p >= 0 && p <= 1)) throw new RangeError(`Holm adjustment: p-value ${i} is ${p}, expected a probability in [0, 1]`);
  });
  if (pValues.length === 0) return [];
  return stdlib().padjust([...pValues], "holm");
}
