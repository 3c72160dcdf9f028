/**
 * Okapi BM25 over a fixed set of texts (Robertson & Zaragoza, "The Probabilistic Relevance Framework:
 * BM25 and Beyond", FnTIR 2009, Eq. 3.15; idf as in Lucene's BM25Similarity):
 *
 *   score(q, d) = Σ_{t ∈ q} idf(t) · tf(t, d)·(k1 + 1) / (tf(t, d) + k1·(1 − b + b·|d|/avgdl))
 *   idf(t)      = ln(1 + (N − n(t) + 0.5) / (n(t) + 0.5))
 *
 * with k1 = 1.2, b = 0.75, N the number of texts, n(t) how many contain t, |d| the token count of d.
 * Query terms are summed with their repetitions (Robertson's k3 → ∞, as rank_bm25's get_scores does).
 * The index is built once; a query visits only the postings of its own terms.
 */

/** BM25 parameters. */
export interface Bm25Params {
  /** Term-frequency saturation k1 (1.2). */
  k1: number;
  /** Length normalisation b (0.75). */
  b: number;
}

/** The defaults: k1 = 1.2, b = 0.75 (Robertson & Zaragoza 2009, §3.5; Lucene's defaults). */
export const BM25_DEFAULTS: Readonly<Bm25Params> = Object.freeze({ k1: 1.2, b: 0.75 });

const TOKEN_RE = /[\p{L}\p{N}]+/gu;
// eslint-disable-next-line no-control-regex -- an ASCII-only test: NUL is part of the ASCII range on purpose
const ASCII_RE = /^[\x00-\x7f]*$/;

/**
 * The BM25 tokenizer: Unicode NFKC, lower case, then maximal runs of letters and digits
 * (`[\p{L}\p{N}]+`); everything else separates tokens. No stemming, no stop words.
 * "Caroline: I'm 25!" → ["caroline", "i", "m", "25"].
 */
export function bm25Tokens(text: string): string[] {
  // NFKC leaves ASCII unchanged; skipping it there makes indexing a large store noticeably faster.
  return (ASCII_RE.test(text) ? text : text.normalize("NFKC")).toLowerCase().match(TOKEN_RE) ?? [];
}

/** An inverted index over texts with the per-posting BM25 term-frequency factor precomputed. */
export class Bm25Index {
  /** Number of indexed texts N. */
  readonly size: number;
  /** Mean token count of the texts (avgdl). */
  readonly avgdl: number;
  readonly params: Readonly<Bm25Params>;
  private readonly terms = new Map<string, number>();
  private readonly idfs: Float64Array;
  private readonly docs: Int32Array[];
  private readonly weights: Float64Array[];

  constructor(texts: readonly string[], params: Partial<Bm25Params> = {}) {
    const k1 = params.k1 ?? BM25_DEFAULTS.k1;
    const b = params.b ?? BM25_DEFAULTS.b;
    if (!(Number.isFinite(k1) && k1 >= 0)) throw new RangeError(`BM25: k1 must be a finite number ≥ 0, got ${k1}`);
    if (!(Number.isFinite(b) && b >= 0 && b <= 1)) throw new RangeError(`BM25: b must be in [0, 1], got ${b}`);
    this.params = Object.freeze({ k1, b });
    const n = texts.length;
    this.size = n;
    // Per text: its distinct term ids (first-occurrence order) and their term frequencies.
    const docIds: Int32Array[] = [];
    const docTfs: Int32Array[] = [];
    const lengths = new Float64Array(n);
    const df: number[] = [];
    let count = new Int32Array(1024);
    let total = 0;
    for (let d = 0; d < n; d++) {
      const toks = bm25Tokens(texts[d]!);
      const touched: number[] = [];
      for (const tok of toks) {
        let id = this.terms.get(tok);
        if (id === undefined) {
          id = this.terms.size;
          this.terms.set(tok, id);
          df.push(0);
          if (id >= count.length) {
            const grown = new Int32Array(count.length * 2);
            grown.set(count);
            count = grown;
          }
        }
        if (count[id]!++ === 0) touched.push(id);
      }
      const ids = Int32Array.from(touched);
      const tfs = new Int32Array(ids.length);
      for (let k = 0; k < ids.length; k++) {
        const id = ids[k]!;
        tfs[k] = count[id]!;
        count[id] = 0;
        df[id]!++;
      }
      docIds.push(ids);
      docTfs.push(tfs);
      lengths[d] = toks.length;
      total += toks.length;
    }
    this.avgdl = n > 0 ? total / n : 0;
    this.docs = df.map((c) => new Int32Array(c));
    this.weights = df.map((c) => new Float64Array(c));
    this.idfs = new Float64Array(df.length);
    for (let t = 0; t < df.length; t++) this.idfs[t] = Math.log(1 + (n - df[t]! + 0.5) / (df[t]! + 0.5));
    const fill = new Int32Array(df.length);
    for (let d = 0; d < n; d++) {
      // avgdl is 0 only when every text is empty, and then no postings exist.
      const norm = k1 * (1 - b + (b * lengths[d]!) / (this.avgdl || 1));
      const ids = docIds[d]!;
      const tfs = docTfs[d]!;
      for (let k = 0; k < ids.length; k++) {
        const id = ids[k]!;
        const tf = tfs[k]!;
        const p = fill[id]!++;
        this.docs[id]![p] = d;
        this.weights[id]![p] = (tf * (k1 + 1)) / (tf + norm);
      }
    }
  }

  /** idf(t) of an indexed term (undefined for a term no text contains). */
  idf(term: string): number | undefined {
    const id = this.terms.get(term);
    return id === undefined ? undefined : this.idfs[id];
  }

  /** BM25 score of every text for a query text (0 where no query term occurs). */
  scores(query: string): Float64Array {
    return this.scoreTokens(bm25Tokens(query));
  }

  /** BM25 score of every text for already tokenized query terms (repetitions count). */
  scoreTokens(tokens: readonly string[]): Float64Array {
    const out = new Float64Array(this.size);
    for (const tok of tokens) {
      const id = this.terms.get(tok);
      if (id === undefined) continue;
      const idf = this.idfs[id]!;
      const docs = this.docs[id]!;
      const w = this.weights[id]!;
      for (let p = 0; p < docs.length; p++) {
        const d = docs[p]!;
        out[d] = out[d]! + idf * w[p]!;
      }
    }
    return out;
  }
}
