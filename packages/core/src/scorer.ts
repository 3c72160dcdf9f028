import { DECAY_RATE_PER_DAY, recallStrength } from "./forgetting.js";
import { clip, requireFinite } from "./numeric.js";

/** Eq. 1 weights wE, wR, wC (paper §4.2): each ≥ 0, sum > 0. */
export interface ScoringWeights {
  emotion: number;
  recall: number;
  context: number;
}

/** The paper's balanced weights (1, 1, 1). */
export const DEFAULT_WEIGHTS: Readonly<ScoringWeights> = Object.freeze({ emotion: 1, recall: 1, context: 1 });

/** Default consolidation protection γ = 0.9. */
export const DEFAULT_PROTECTION = 0.9;

/** Validate Eq. 1 weights; throws a RangeError that says which weight is wrong and why. */
export function validateWeights(w: ScoringWeights): ScoringWeights {
  if (w === null || typeof w !== "object") throw new TypeError("weights must be an object {emotion, recall, context}");
  for (const k of ["emotion", "recall", "context"] as const) {
    const v = requireFinite(w[k], `weight ${k}`);
    if (v < 0) throw new RangeError(`weight ${k} must be ≥ 0, got ${v}`);
  }
  if (w.emotion + w.recall + w.context <= 0) {
    throw new RangeError("weights must not all be 0 (their sum must be > 0)");
  }
  return w;
}

/** Validate the protection γ ∈ [0, 1]. */
export function validateProtection(gamma: number): number {
  requireFinite(gamma, "protection γ");
  if (gamma < 0 || gamma > 1) throw new RangeError(`protection γ must be in [0, 1], got ${gamma}`);
  return gamma;
}

/**
 * Salience k = (wE·E + wR·R + wC·C′) / (wE + wR + wC) (Eq. 1 at d = 1), with R = n / (n + 5).
 * Callers pass validated weights.
 */
export function salience(E: number, recallCount: number, C: number, w: ScoringWeights = DEFAULT_WEIGHTS): number {
  const R = recallStrength(recallCount);
  return (w.emotion * E + w.recall * R + w.context * C) / (w.emotion + w.recall + w.context);
}

/**
 * Memory strength with consolidation (Eq. 1, docs/spec.md §2): λ_eff = λ·(1 − γ·k), S = e^(−λ_eff·decayAge)·k.
 * Salient memories forget more slowly.
 */
export function strength(k: number, decayAgeDays: number, gamma: number = DEFAULT_PROTECTION, lambda: number = DECAY_RATE_PER_DAY): number {
  const lambdaEff = lambda * (1 - gamma * k);
  return Math.exp(-lambdaEff * Math.max(0, decayAgeDays)) * k;
}

/** Configuration of the Eq. 1 scorer, with the paper's defaults. */
export interface ScorerConfig {
  weights?: ScoringWeights;
  gamma?: number;
  lambda?: number;
}

/** The fields of a memory that Eq. 1 reads. */
export interface Scorable {
  emotionalIntensity: number;
  contextualRelevance: number;
  recallCount: number;
}

/** One scored item: salience k and strength S. */
export interface Score {
  salience: number;
  strength: number;
}

/**
 * Eq. 1 scorer with validated weights and γ. `queryRelevance`, when given, is clipped to [0, 1]
 * and replaces the stored C (docs/spec.md §2).
 */
export class Scorer {
  readonly weights: ScoringWeights;
  readonly gamma: number;
  readonly lambda: number;

  constructor(config: ScorerConfig = {}) {
    this.weights = Object.freeze({ ...validateWeights(config.weights ?? DEFAULT_WEIGHTS) });
    this.gamma = validateProtection(config.gamma ?? DEFAULT_PROTECTION);
    this.lambda = requireFinite(config.lambda ?? DECAY_RATE_PER_DAY, "decay rate λ");
    if (this.lambda < 0) throw new RangeError(`decay rate λ must be ≥ 0, got ${this.lambda}`);
  }

  /** Score one memory at a decay age (days). */
  score(m: Scorable, decayAgeDays: number, queryRelevance?: number): Score {
    requireFinite(decayAgeDays, "decay age");
    const C = queryRelevance === undefined ? m.contextualRelevance : clip(requireFinite(queryRelevance, "query relevance"));
    const k = salience(m.emotionalIntensity, m.recallCount, C, this.weights);
    return { salience: k, strength: strength(k, decayAgeDays, this.gamma, this.lambda) };
  }
}

/**
 * Rank items by strength S, stable and descending (docs/spec.md §2); returns indices into `items`.
 */
export function rankByStrength<T>(items: readonly T[], strengthOf: (item: T) => number): number[] {
  const s = items.map((item, i) => requireFinite(strengthOf(item), `strength of item ${i}`));
  return s.map((_, i) => i).sort((a, b) => s[b]! - s[a]! || a - b);
}
