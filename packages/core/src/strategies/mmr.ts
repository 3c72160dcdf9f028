import type { RankingContext, StoreColumns } from "../ranking.js";
import type { RetrievalStrategy } from "./strategy.js";

/** Parameters of maximal marginal relevance. */
export interface MmrOptions {
  /** Trade-off λ between relevance and novelty (0.5). */
  lambda?: number;
  /** How many leading positions are chosen greedily (10, the deepest cut-off the experiments read). */
  depth?: number;
  /** Candidate pool: the top `pool` memories by cosine (50). */
  pool?: number;
}

/** Per store's columns (as the similarity postings are cached): each memory's non-zero components (CSR), when most are 0 (hashing vectors). */
const sparseRows = new WeakMap<StoreColumns, { start: Int32Array; at: Int32Array } | null>();

function sparseRowsOf(columns: StoreColumns): { start: Int32Array; at: Int32Array } | null {
  let rows = sparseRows.get(columns);
  const { vectors, dim } = columns;
  if (rows !== undefined) return rows;
  let nonZero = 0;
  for (let k = 0; k < vectors.length; k++) if (vectors[k] !== 0) nonZero++;
  if (nonZero * 4 > vectors.length) rows = null;
  else {
    const size = vectors.length / dim;
    const start = new Int32Array(size + 1);
    const at = new Int32Array(nonZero);
    for (let i = 0, t = 0; i < size; i++) {
      start[i] = t;
      for (let j = 0; j < dim; j++) if (vectors[i * dim + j] !== 0) at[t++] = j;
    }
    start[size] = nonZero;
    rows = { start, at };
  }
  sparseRows.set(columns, rows);
  return rows;
}

/**
 * cos(a, b) with a plain left-to-right dot over the components. With sparse rows only a's non-zero components
 * are visited, in the same order: the skipped terms are ±0 products, and adding ±0 leaves the running sum (which
 * starts at +0, so is never −0) unchanged, so the result is the same bits.
 */
function cosineBetween(
  vectors: Float64Array,
  norms: Float64Array,
  dim: number,
  rows: { start: Int32Array; at: Int32Array } | null,
  a: number,
  b: number,
): number {
  const na = norms[a]!;
  const nb = norms[b]!;
  if (na === 0 || nb === 0) return 0;
  let dot = 0;
  const oa = a * dim;
  const ob = b * dim;
  if (rows) {
    const { start, at } = rows;
    for (let t = start[a]!, end = start[a + 1]!; t < end; t++) {
      const j = at[t]!;
      dot += vectors[oa + j]! * vectors[ob + j]!;
    }
  } else for (let j = 0; j < dim; j++) dot += vectors[oa + j]! * vectors[ob + j]!;
  return dot / (na * nb);
}

/**
 * The MMR ranking (Carbonell & Goldstein, SIGIR 1998): among the `pool` memories most similar to the
 * query, repeatedly pick argmax λ·cos(q, d) − (1 − λ)·max_{s ∈ picked} cos(d, s) for the first `depth`
 * positions (ties: the candidate ranked higher by cosine); the rest follow in cosine order
 * (similarity-only's ranking, ties by insertion index).
 */
export function mmrOrder(ctx: RankingContext, opts: MmrOptions = {}): Int32Array {
  const lambda = opts.lambda ?? 0.5;
  const base = ctx.fusedOrder(1, true); // cosine, descending, ties by index
  const sim = ctx.similarity();
  const { vectors, norms, dim } = ctx.columns;
  const rows = sparseRowsOf(ctx.columns);
  const poolSize = Math.min(opts.pool ?? 50, base.length);
  const depth = Math.min(opts.depth ?? 10, poolSize);
  const cand = base.slice(0, poolSize);
  const taken = new Uint8Array(poolSize);
  const maxSim = new Float64Array(poolSize).fill(-Infinity);
  const out = new Int32Array(base.length);
  for (let r = 0; r < depth; r++) {
    let best = -1;
    let bestScore = -Infinity;
    for (let c = 0; c < poolSize; c++) {
      if (taken[c]) continue;
      const novelty = r === 0 ? 0 : maxSim[c]!;
      const s = lambda * sim[cand[c]!]! - (1 - lambda) * novelty;
      if (s > bestScore) {
        bestScore = s;
        best = c;
      }
    }
    taken[best] = 1;
    const picked = cand[best]!;
    out[r] = picked;
    if (r + 1 === depth) break; // no later pick reads maxSim
    for (let c = 0; c < poolSize; c++) {
      if (taken[c]) continue;
      const x = cosineBetween(vectors, norms, dim, rows, cand[c]!, picked);
      if (x > maxSim[c]!) maxSim[c] = x;
    }
  }
  let r = depth;
  for (let c = 0; c < poolSize; c++) if (!taken[c]) out[r++] = cand[c]!;
  for (let i = poolSize; i < base.length; i++) out[r++] = base[i]!;
  return out;
}

/**
 * Maximal marginal relevance over cosine (Carbonell & Goldstein 1998), λ = 0.5: the first 10
 * positions are chosen greedily from the 50 memories most similar to the query, as retrieval
 * libraries do (a candidate pool, fetch_k, re-ranked for the top k); the rest keep cosine order.
 */
export function mmrStrategy(opts: MmrOptions = {}, key = "mmr (λ = 0.5)", slug = "mmr"): RetrievalStrategy {
  const lambda = opts.lambda ?? 0.5;
  if (!(lambda >= 0 && lambda <= 1)) throw new RangeError(`MMR: λ must be in [0, 1], got ${lambda}`);
  for (const k of ["depth", "pool"] as const) {
    const v = opts[k];
    if (v !== undefined && !(Number.isInteger(v) && v >= 1)) throw new RangeError(`MMR: ${k} must be a positive integer, got ${v}`);
  }
  return {
    key,
    slug,
    description: `maximal marginal relevance over cosine, λ = ${lambda}, top ${opts.depth ?? 10} picked greedily from the ${opts.pool ?? 50} most similar`,
    rank: (ctx) => mmrOrder(ctx, { ...opts, lambda }),
  };
}

/** MMR with λ = 0.5, depth 10, pool 50. */
export const mmr: RetrievalStrategy = mmrStrategy();
