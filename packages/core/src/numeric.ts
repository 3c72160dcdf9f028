import { describe } from "@persode/util";

/**
 * Numeric conventions of the memory model (docs/spec.md, preamble): float64 throughout, validated finite
 * inputs. Python-compatible rounding (pyRound) lives in @persode/util.
 */

/** Clip to [lo, hi]. */
export function clip(x: number, lo = 0, hi = 1): number {
  return x < lo ? lo : x > hi ? hi : x;
}

/** Throw a RangeError naming `what` unless `x` is a finite number. */
export function requireFinite(x: unknown, what: string): number {
  if (typeof x !== "number" || !Number.isFinite(x)) {
    throw new RangeError(`${what} must be a finite number, got ${describe(x)}`);
  }
  return x;
}
