/**
 * The paired two-sided randomization (sign-flip) test (Fisher 1935; Smucker, Allan & Carterette,
 * CIKM 2007): under H0 each per-item difference d_i = a_i − b_i is as likely to have the other sign,
 * so the statistic T = Σ d_i is compared with T_b = Σ s_bi·d_i over B random sign vectors s_b:
 *
 *   p = (1 + #{b : |T_b| ≥ |T_obs|}) / (B + 1)        (never 0; Phipson & Smyth 2010)
 *
 * Deterministic on every machine — the draw order is part of the method:
 * - generator: seedrandom's xor4096 seeded with the string `${seed}/${label}`;
 * - W = ceil(n/32) words per resample; for b = 0 … B − 1, for w = 0 … W − 1: word = int32() >>> 0;
 *   bit j (least significant first) of word w set ⇔ item 32·w + j has its sign flipped in resample b
 *   (bits past n are drawn and unused);
 * - one set of sign vectors per label, shared by every comparison that uses it.
 * Fast: T_b = Σd − 2·Σ_{flipped} d_i, and the flipped sum is read 8 items at a time from a 256-entry
 * table of subset sums per byte of items (bytes whose 8 differences are all 0 are skipped), so a
 * comparison costs at most B·n/8 lookups.
 * |T_b| counts as ≥ |T_obs| within 1e-10·Σ|d_i|: sums of the same real value taken in different orders
 * may differ in the last bits, and counting such near-ties keeps the test conservative.
 */
import seedrandom from "seedrandom";
import { checkInterrupt } from "../interrupt.js";
import { type WasmGlobals } from "./estimate-kernel.js";
import { type SignFlipJob } from "./sign-flip-kernel.js";
import { SIGN_FLIP_WASM } from "./sign-flip-wasm.js";
import { runBlocks, startBlocks } from "./thread-pool.js";

/** The default number of random sign vectors, B. */
export const DEFAULT_PERMUTATIONS = 10_000;

/** Relative tolerance of the |T_b| ≥ |T_obs| comparison (× Σ|d_i|). */
export const TIE_TOLERANCE = 1e-10;

/** B random sign vectors over n items, drawn in the documented order. */
export interface SignFlips {
  readonly n: number;
  readonly samples: number;
  /** Row-major B × W words; bit j of word w of row b flips item 32·w + j. */
  readonly words: Uint32Array;
  readonly wordsPerSample: number;
  /** The same bits as bytes, row-major B × ceil(n/8): byte g of row b is bits 8g … 8g + 7 of row b. */
  readonly bytes: Uint8Array;
  readonly bytesPerSample: number;
}

/** Draw the sign vectors for n items: B = `samples`, stream `${seed}/${label}`. */
export function drawSignFlips(n: number, spec: { samples: number; seed: number }, label: string): SignFlips {
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`randomization test "${label}": needs at least one paired item, got ${n}`);
  if (!Number.isInteger(spec.samples) || spec.samples < 1)
    throw new RangeError(`randomization test "${label}": samples must be a positive integer, got ${spec.samples}`);
  if (!Number.isSafeInteger(spec.seed)) throw new RangeError(`randomization test "${label}": seed must be an integer, got ${spec.seed}`);
  const prng = seedrandom.xor4096(`${spec.seed}/${label}`);
  const W = Math.ceil(n / 32);
  const words = new Uint32Array(spec.samples * W);
  for (let k = 0; k < words.length; k++) {
    if ((k & 0xffff) === 0) checkInterrupt();
    words[k] = prng.int32() >>> 0;
  }
  // Bytes extracted with shifts (not a typed-array view), so they do not depend on the machine's endianness.
  const G = Math.ceil(n / 8);
  // (each test job copies them into its shared memory, which the thread pool's workers read: startRandomizationTests)
  const bytes = new Uint8Array(spec.samples * G);
  for (let b = 0; b < spec.samples; b++) {
    for (let g = 0; g < G; g++) bytes[b * G + g] = (words[b * W + (g >> 2)]! >>> ((g & 3) * 8)) & 255;
  }
  return { n, samples: spec.samples, words, wordsPerSample: W, bytes, bytesPerSample: G };
}

/** Outcome of one randomization test. */
export interface RandomizationResult {
  /** Observed statistic T_obs = Σ d_i. */
  statistic: number;
  /** #{b : |T_b| ≥ |T_obs|}. */
  atLeastAsExtreme: number;
  /** (1 + atLeastAsExtreme) / (B + 1). */
  p: number;
}

/** The paired two-sided sign-flip test of a vs b (aligned per item) with precomputed sign vectors. */
export function randomizationTest(a: ArrayLike<number>, b: ArrayLike<number>, flips: SignFlips): RandomizationResult {
  return startRandomizationTests([[a, b]], flips)()[0]!;
}

/**
 * Several sign-flip tests over the same sign vectors (e.g. every system and metric against one baseline), each
 * exactly as randomizationTest computes it alone; the sign vectors are walked in blocks on every core
 * (./thread-pool.ts). A test's count of extreme resamples is an integer, the same however the blocks are shared.
 * Started: the blocks are handed to the pool's workers now (startBlocks) and the returned function (memoised) waits
 * for them, computing those no worker has started, so the caller can do other work meanwhile.
 */
export function startRandomizationTests(
  pairs: readonly (readonly [ArrayLike<number>, ArrayLike<number>])[],
  flips: SignFlips,
): () => RandomizationResult[] {
  const n = flips.n;
  const groups = flips.bytesPerSample;
  const prepared = pairs.map(([a, b]) => {
    if (a.length !== n || b.length !== n)
      throw new RangeError(
        `randomization test: ${a.length} and ${b.length} values for sign vectors over ${n} items; the arrays must be aligned per item`,
      );
    const d = new Float64Array(n);
    let total = 0;
    let absTotal = 0;
    for (let i = 0; i < n; i++) {
      const x = a[i]! - b[i]!;
      if (!Number.isFinite(x)) throw new RangeError(`randomization test: item ${i} has a non-finite difference (${a[i]} − ${b[i]})`);
      d[i] = x;
      total += x;
      absTotal += Math.abs(x);
    }
    // Only bytes of items with a non-zero difference contribute (ties are common between rankings).
    const active: number[] = [];
    for (let g = 0; g < groups; g++) {
      for (let i = g * 8; i < Math.min(n, g * 8 + 8); i++) {
        if (d[i] !== 0) {
          active.push(g);
          break;
        }
      }
    }
    return { d, total, threshold: Math.abs(total) - TIE_TOLERANCE * absTotal, active };
  });
  const tables = prepared.reduce((t, p) => t + p.active.length, 0);
  const tests = pairs.length;
  const blocks = Math.ceil(flips.samples / SIGN_FLIP_BLOCK);
  // one shared memory for the WebAssembly loop (the pool's workers read it without a copy), arrays 8-byte aligned
  let bytes = 0;
  const take = (size: number) => {
    const at = bytes;
    bytes = Math.ceil((bytes + size) / 8) * 8;
    return at;
  };
  const layout = {
    bytes: take(flips.bytes.length),
    start: take((tests + 1) * 4),
    offsets: take(tables * 4),
    table: take(tables * 256 * 8),
    total: take(tests * 8),
    threshold: take(tests * 8),
    count: take(tests * blocks * 4),
  };
  const wasm = (globalThis as unknown as { WebAssembly: WasmGlobals }).WebAssembly;
  const pages = Math.max(1, Math.ceil(bytes / 65_536));
  const memory = new wasm.Memory({ initial: pages, maximum: pages, shared: true });
  const buffer = memory.buffer;
  new Uint8Array(buffer, layout.bytes, flips.bytes.length).set(flips.bytes);
  const start = new Int32Array(buffer, layout.start, tests + 1);
  const offsets = new Int32Array(buffer, layout.offsets, tables);
  const table = new Float64Array(buffer, layout.table, tables * 256);
  const total = new Float64Array(buffer, layout.total, tests);
  const threshold = new Float64Array(buffer, layout.threshold, tests);
  const counts = new Int32Array(buffer, layout.count, tests * blocks);
  const job: SignFlipJob = {
    memory,
    wasm: SIGN_FLIP_WASM,
    ...layout,
    bytesPerSample: groups,
    tests,
    blockSize: SIGN_FLIP_BLOCK,
    blocks,
  };
  // table[k·256 + m] = Σ of d over the items of active byte k whose bits are set in m.
  let k = 0;
  prepared.forEach((p, t) => {
    start[t] = k;
    total[t] = p.total;
    threshold[t] = p.threshold;
    for (const g of p.active) {
      offsets[k] = g;
      const base = k * 256;
      for (let m = 1; m < 256; m++) {
        const i = g * 8 + (31 - Math.clz32(m & -m));
        table[base + m] = table[base + (m & (m - 1))]! + (i < n ? p.d[i]! : 0);
      }
      k++;
    }
  });
  start[tests] = k;
  const lookups = flips.samples * tables;
  const pending = lookups >= PARALLEL_LOOKUPS ? startBlocks("signFlipBlock", job, flips.samples, SIGN_FLIP_BLOCK) : undefined;
  let results: RandomizationResult[] | undefined;
  return () => {
    if (results) return results;
    if (pending) pending.finish();
    else runBlocks("signFlipBlock", job, flips.samples, SIGN_FLIP_BLOCK, false);
    results = prepared.map((p, t) => {
      let count = 0;
      for (let u = 0; u < blocks; u++) count += counts[t * blocks + u]!;
      return { statistic: p.total, atLeastAsExtreme: count, p: (1 + count) / (flips.samples + 1) };
    });
    return results;
  };
}

/** Sign vectors per block of the pool's work. */
const SIGN_FLIP_BLOCK = 512;

/** Below this many table lookups the tests run on the main thread alone. */
const PARALLEL_LOOKUPS = 20_000_000;
