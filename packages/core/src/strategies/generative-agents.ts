import type { RankingContext } from "../ranking.js";
import { minMax } from "./score-utils.js";
import type { RetrievalStrategy } from "./strategy.js";

const HOUR_MS = 3_600_000;

/** Parameters of the Generative Agents retrieval score. */
export interface GenerativeAgentsOptions {
  /** Recency decay per hour since last access (0.995, paper §4.1). */
  decayPerHour?: number;
  /** Weights of recency, importance and relevance (1, 1, 1: the paper's equal weights). */
  weights?: readonly [number, number, number];
}

/**
 * The three normalised components and the score of Generative Agents' retrieval for every memory:
 * recency = 0.995^(hours since last access), importance = the analyzer's E, relevance = cosine,
 * each min-max normalised to [0, 1] over the store (a constant component becomes 0.5, as in the
 * published normalize_dict_floats), score = w_rec·recency + w_imp·importance + w_rel·relevance.
 */
export function generativeAgentsScores(
  ctx: RankingContext,
  opts: GenerativeAgentsOptions = {},
): { recency: Float64Array; importance: Float64Array; relevance: Float64Array; score: Float64Array } {
  const { recency, importance } = queryIndependent(ctx, opts.decayPerHour ?? 0.995);
  const relevance = minMax(ctx.similarity(), 0.5);
  return {
    recency: recency.slice(),
    importance: importance.slice(),
    relevance,
    score: combined(recency, importance, relevance, opts.weights),
  };
}

/** The min-max recency and importance columns: the same for every query of a store at one time, so computed once (RankingContext.storeValue). */
function queryIndependent(ctx: RankingContext, decay: number): { recency: Float64Array; importance: Float64Array } {
  return ctx.storeValue(`generative-agents recency and importance, decay ${decay}`, () => {
    const { size, decayFromMs, emotionalIntensity } = ctx.columns;
    const raw = new Float64Array(size);
    for (let i = 0; i < size; i++) raw[i] = Math.pow(decay, Math.max(0, (ctx.nowMs - decayFromMs[i]!) / HOUR_MS));
    return { recency: minMax(raw, 0.5), importance: minMax(emotionalIntensity, 0.5) };
  });
}

/** w_rec·recency + w_imp·importance + w_rel·relevance, memory by memory. */
function combined(
  recency: Float64Array,
  importance: Float64Array,
  relevance: Float64Array,
  weights: readonly [number, number, number] = [1, 1, 1],
): Float64Array {
  const [wRec, wImp, wRel] = weights;
  const score = new Float64Array(recency.length);
  for (let i = 0; i < score.length; i++) score[i] = wRec * recency[i]! + wImp * importance[i]! + wRel * relevance[i]!;
  return score;
}

/** Generative Agents' score alone, from the shared query-independent columns (no copies): what the strategy ranks by. */
function score(ctx: RankingContext, decay: number, weights: readonly [number, number, number]): Float64Array {
  const { recency, importance } = queryIndependent(ctx, decay);
  return combined(recency, importance, minMax(ctx.similarity(), 0.5), weights);
}

/**
 * Generative Agents' memory retrieval (Park et al., UIST 2023, §4.1 "Retrieval"): recency
 * (exponential decay 0.995 per game hour since the memory was last accessed), importance and
 * relevance (cosine of embeddings), each min-max normalised to [0, 1], summed with equal weights.
 *
 * Substitution: the paper asks an LLM to rate each memory's poignancy 1–10; the analyzer's emotional
 * intensity E stands in for it (min-max normalisation makes the scale irrelevant). "Last access" is
 * the store's last_recalled, else created_at.
 *
 * Where the published code differs from the paper (joonspk-research/generative_agents,
 * reverie/backend_server/persona/cognitive_modules/retrieve.py, new_retrieve): recency is
 * recency_decay^i over the memories' position i = 1, 2, … when sorted by last access ascending (not
 * per hour; recency_decay = 0.99 in scratch.py, and the oldest gets the largest value), and the weights
 * are gw = [0.5, 3, 2] for recency, relevance, importance. This module follows the paper.
 */
export function generativeAgentsStrategy(
  opts: GenerativeAgentsOptions = {},
  key = "generative agents",
  slug = "generative_agents",
): RetrievalStrategy {
  const decay = opts.decayPerHour ?? 0.995;
  if (!(decay > 0 && decay <= 1)) throw new RangeError(`Generative Agents: decay per hour must be in (0, 1], got ${decay}`);
  const w = opts.weights ?? [1, 1, 1];
  return {
    key,
    slug,
    description: `Park et al. 2023: min-max recency (${decay}^hours) + importance (analyzer E) + relevance (cosine), weights ${w.join(", ")}`,
    rank: (ctx) => ctx.order(score(ctx, decay, w)),
  };
}

/** Generative Agents with the paper's settings: 0.995 per hour, equal weights. */
export const generativeAgents: RetrievalStrategy = generativeAgentsStrategy();
