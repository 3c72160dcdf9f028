import { hash } from "node:crypto";
import type { Embedder } from "./embedder.js";

const TOKEN_RE = /[a-z0-9']+/g;

/**
 * Tokens the hashing embedder counts: `[a-z0-9']+` over the lowercased text, repeats kept (docs/spec.md §4).
 * @internal exported for tests only: test/hashing.test.ts pins the tokenizer on its own.
 */
export function hashingTokens(text: string): string[] {
  return text.toLowerCase().match(TOKEN_RE) ?? [];
}

/** Whether a UTF-16 code unit is one TOKEN_RE's class [a-z0-9'] matches. */
function isTokenUnit(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 39;
}

/**
 * Bucket and sign of one token: h = MD5(token) as an unsigned 128-bit big-endian integer,
 * index = h mod dim, sign = +1 iff ⌊h / 256⌋ is even (docs/spec.md §4).
 * @internal exported for tests only: test/hashing.test.ts checks index and sign against a BigInt re-derivation.
 */
export function hashToken(token: string, dim: number): { index: number; sign: 1 | -1 } {
  // one-shot MD5 of the token's UTF-8 bytes (the same digest as createHash("md5").update(token, "utf8"), without a Hash object per token)
  const digest = hash("md5", token, "buffer");
  const sign: 1 | -1 = (digest[14]! & 1) === 0 ? 1 : -1;
  let index: number;
  if (dim === 256) index = digest[15]!;
  else index = Number(BigInt("0x" + digest.toString("hex")) % BigInt(dim));
  return { index, sign };
}

/**
 * The offline, deterministic hashing embedder (docs/spec.md §4): signed token counts in `dim`
 * buckets, L2-normalised. Exact float64, so every published hashing number is reproducible.
 */
export class HashingEmbedder implements Embedder {
  readonly name = "hashing";
  readonly id: string;
  readonly dim: number;
  private readonly buckets = new Map<string, number>(); // token -> signed (index + 1)

  constructor(dim = 256) {
    if (!Number.isInteger(dim) || dim < 1) throw new RangeError(`HashingEmbedder: dim must be a positive integer, got ${dim}`);
    this.dim = dim;
    this.id = `hashing-md5-${dim}`;
  }

  /** Synchronous embedding; the hashing embedder needs no I/O. */
  embedSync(text: string): Float64Array {
    return this.embedInto(text, new Float64Array(this.dim));
  }

  /**
   * The embedding of `text` written into `v` (zeros, length dim). The tokens are hashingTokens(text), found by one
   * scan of the lowercased text's UTF-16 code units for runs of [a-z0-9'] (what the regular expression matches,
   * without its array of matches); the bucket sums and the norm are the same additions in the same order.
   */
  private embedInto(text: string, v: Float64Array): Float64Array {
    if (typeof text !== "string") throw new TypeError(`HashingEmbedder: text must be a string, got ${typeof text}`);
    const s = text.toLowerCase();
    const n = s.length;
    for (let i = 0; i < n;) {
      if (!isTokenUnit(s.charCodeAt(i))) {
        i++;
        continue;
      }
      const start = i++;
      while (i < n && isTokenUnit(s.charCodeAt(i))) i++;
      const tok = s.slice(start, i);
      let b = this.buckets.get(tok);
      if (b === undefined) {
        const { index, sign } = hashToken(tok, this.dim);
        b = sign * (index + 1);
        this.buckets.set(tok, b);
      }
      if (b > 0) v[b - 1]! += 1;
      else v[-b - 1]! -= 1;
    }
    let ss = 0;
    for (let i = 0; i < v.length; i++) ss += v[i]! * v[i]!;
    if (ss > 0) {
      const norm = Math.sqrt(ss);
      for (let i = 0; i < v.length; i++) v[i] = v[i]! / norm;
    }
    return v;
  }

  async embed(text: string): Promise<Float64Array> {
    return this.embedSync(text);
  }

  /** Every text's embedding, each a view of its own dim-long part of one buffer for the batch (one allocation, not one per text). */
  async embedBatch(texts: readonly string[]): Promise<Float64Array[]> {
    const all = new Float64Array(texts.length * this.dim);
    return texts.map((t, k) => this.embedInto(t, all.subarray(k * this.dim, (k + 1) * this.dim)));
  }
}
