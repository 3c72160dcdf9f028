import { blasDot, blasNorm } from "./blas-dot.js";

/**
 * What a text is to the retrieval model (issue 21): a "query" (a question, a probe) or a "document" (a
 * memory). Instruction-tuned models embed the two differently (BGE's query instruction, E5's
 * "query: " / "passage: "); symmetric models ignore it.
 */
export type EmbedRole = "query" | "document";

/**
 * The embedder contract (docs/spec.md §4): text in, a dense float64 vector out.
 * Async so that neural models (transformers.js) fit; batch so they run efficiently.
 */
export interface Embedder {
  /** Short family name used on the command line and in result keys, e.g. "hashing", "minilm". */
  readonly name: string;
  /** Unique identity of the exact vector space (model id, revision, dtype, dim) for caches. */
  readonly id: string;
  /** Output dimension. */
  readonly dim: number;
  /** For a neural embedder: which weights produced the vectors (model id, revision, dtype). */
  readonly model?: EmbedderModel;
  /** Text each role's inputs are prefixed with before the model sees them ("" = none); absent = the role changes nothing. */
  readonly prefixes?: Readonly<Record<EmbedRole, string>>;
  /** Embed one text in a role (default "document"). */
  embed(text: string, role?: EmbedRole): Promise<Float64Array>;
  /** Embed many texts in one role (default "document"); result i belongs to texts[i]. */
  embedBatch(texts: readonly string[], role?: EmbedRole): Promise<Float64Array[]>;
  /** Release resources (model sessions); optional. */
  dispose?(): Promise<void>;
}

/** The identity of a neural embedder's weights, recorded with every run it produces (issue 12). */
export interface EmbedderModel {
  /** Model id, e.g. "Xenova/all-MiniLM-L6-v2". */
  readonly id: string;
  /** Hub revision (commit) the files are pinned to, or "main"/a local label when unpinned. */
  readonly revision: string;
  /** Weight dtype, e.g. "fp32". */
  readonly dtype: string;
}

/**
 * Cosine similarity (docs/spec.md §4): 0 when either norm is 0, else dot / (‖a‖·‖b‖), with numpy/OpenBLAS
 * float semantics (see blas-dot.ts) so rankings reproduce the reference bit for bit.
 */
export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  return cosineWithNorms(a, b, blasNorm(a), blasNorm(b));
}

/** `cosine(a, b)` given the norms `na` = ‖a‖ and `nb` = ‖b‖ already computed (for a vector compared many times). */
function cosineWithNorms(a: ArrayLike<number>, b: ArrayLike<number>, na: number, nb: number): number {
  if (a.length !== b.length) throw new RangeError(`cosine: dimension mismatch (${a.length} vs ${b.length})`);
  if (na === 0 || nb === 0) return 0;
  return blasDot(a, b) / (na * nb);
}
