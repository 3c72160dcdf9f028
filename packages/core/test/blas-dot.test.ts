import { describe, expect, it } from "vitest";
import { cosine, HashingEmbedder, MemoryStore, type Embedder } from "../src/index.js";
import { blasDot, blasDotAt, blasNorm, fma, laneDot, lanePositions } from "../src/embedders/blas-dot.js";
import { prng, randInt } from "./prng.js";

// ---- exact reference arithmetic with BigInt -------------------------------------------------

/** A finite double as the exact value sign·mant·2^exp. */
function decompose(x: number): { mant: bigint; exp: number } {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const hi = view.getUint32(0);
  const lo = view.getUint32(4);
  const negative = hi >>> 31 === 1;
  const biased = (hi >>> 20) & 0x7ff;
  const frac = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  const mant = biased === 0 ? frac : frac | (1n << 52n);
  const exp = (biased === 0 ? 1 : biased) - 1075;
  return { mant: negative ? -mant : mant, exp };
}

/** num·2^exp rounded to the nearest double, ties to even (inputs keep well inside the normal range). */
function roundToDouble(num: bigint, exp: number): number {
  if (num === 0n) return 0;
  const neg = num < 0n;
  let m = neg ? -num : num;
  const bits = m.toString(2).length;
  let e = exp;
  if (bits > 53) {
    const shift = BigInt(bits - 53);
    const q = m >> shift;
    const r = m - (q << shift);
    const half = 1n << (shift - 1n);
    m = r > half || (r === half && (q & 1n) === 1n) ? q + 1n : q;
    e += bits - 53;
  }
  const v = Number(m) * 2 ** e;
  return neg ? -v : v;
}

/** Whether num·2^exp lies exactly halfway between two doubles (for coverage accounting). */
function isTie(num: bigint): boolean {
  const m = num < 0n ? -num : num;
  const bits = m.toString(2).length;
  if (bits <= 53) return false;
  const shift = BigInt(bits - 53);
  return m - ((m >> shift) << shift) === 1n << (shift - 1n);
}

/** Exact a·b + c as num·2^exp. */
function exactFma(a: number, b: number, c: number): { num: bigint; exp: number } {
  const A = decompose(a);
  const B = decompose(b);
  const C = decompose(c);
  const pe = A.exp + B.exp;
  const e = Math.min(pe, C.exp);
  return { num: ((A.mant * B.mant) << BigInt(pe - e)) + (C.mant << BigInt(C.exp - e)), exp: e };
}

/** The correctly rounded fused multiply-add, by exact arithmetic. */
function refFma(a: number, b: number, c: number): number {
  const { num, exp } = exactFma(a, b, c);
  return roundToDouble(num, exp);
}

// ---- random inputs --------------------------------------------------------------------------

function randomDouble(rand: () => number, expLo: number, expHi: number): number {
  const mant = 1 + rand() + rand() * 2 ** -26; // 53 random-ish bits
  const v = mant * 2 ** randInt(rand, expLo, expHi);
  return rand() < 0.5 ? -v : v;
}

/** An odd 27-bit integer times a power of two: products of two of these are exact 53/54-bit values. */
function oddHalfWidth(rand: () => number, e: number): number {
  const m = 2 ** 26 + 2 * randInt(rand, 0, 2 ** 25 - 1) + 1;
  return (rand() < 0.5 ? -m : m) * 2 ** e;
}

/**
 * A case where rounding the low-order part to nearest before the final addition would be wrong:
 * c has an odd last bit and a·b = ±½ulp(c)·(1 − 2^−2k), just short of a tie, so the exact sum
 * rounds towards c while a double rounding lands on the tie and goes to the even neighbour.
 */
function doubleRoundingTrap(rand: () => number): [number, number, number] {
  const e = randInt(rand, -20, 20);
  const c = (2 ** 52 + 2 * randInt(rand, 0, 2 ** 30) + 1) * 2 ** (e - 52) * (rand() < 0.5 ? -1 : 1);
  const halfUlp = 2 ** (e - 53) * (rand() < 0.5 ? -1 : 1);
  const k = randInt(rand, 27, 50);
  return rand() < 0.5 ? [1 + 2 ** -k, halfUlp * (1 - 2 ** -k), c] : [1 - 2 ** -k, halfUlp * (1 + 2 ** -k), c];
}

/** A mix of generic and adversarial (a, b, c): ties, near-ties, cancellation, huge/tiny addends. */
function fmaCases(seed: number, count: number): [number, number, number][] {
  const rand = prng(seed);
  const out: [number, number, number][] = [];
  for (let i = 0; i < count; i++) {
    const kind = i % 7;
    if (kind === 0) out.push([randomDouble(rand, -30, 30), randomDouble(rand, -30, 30), randomDouble(rand, -60, 60)]);
    else if (kind === 6) out.push(doubleRoundingTrap(rand));
    else if (kind === 1) {
      // c cancels the rounded product: the result is the product's rounding error
      const a = randomDouble(rand, -20, 20);
      const b = randomDouble(rand, -20, 20);
      out.push([a, b, -(a * b)]);
    } else {
      const ea = randInt(rand, -40, 0);
      const eb = randInt(rand, -40, 0);
      const a = oddHalfWidth(rand, ea);
      const b = oddHalfWidth(rand, eb);
      const p = a * b;
      const ulp = 2 ** (Math.floor(Math.log2(Math.abs(p))) - 52);
      if (kind === 2)
        out.push([a, b, (rand() < 0.5 ? -1 : 1) * ulp * 2 ** -randInt(rand, 5, 40)]); // a tiny nudge off a tie
      else if (kind === 3)
        out.push([a, b, (rand() < 0.5 ? -1 : 1) * ulp * randInt(rand, 1, 7) * 0.5]); // sums on half-ulps
      else if (kind === 4)
        out.push([a, b, oddHalfWidth(rand, ea + eb + randInt(rand, 20, 60))]); // product is the low part
      else out.push([a, b, randomDouble(rand, Math.floor(Math.log2(Math.abs(p))) - 3, Math.floor(Math.log2(Math.abs(p))) + 3)]);
    }
  }
  return out;
}

describe("fma (exactly rounded fused multiply-add)", () => {
  it("the BigInt reference itself is sane", () => {
    expect(refFma(3, 5, 7)).toBe(22);
    expect(refFma(0.1, 10, -1)).toBe(5.551115123125783e-17); // the exact error of 0.1·10
    expect(roundToDouble(1n, -1)).toBe(0.5);
    expect(roundToDouble((1n << 53n) + 1n, 0)).toBe(2 ** 53); // tie → even
    expect(roundToDouble((1n << 53n) + 3n, 0)).toBe(2 ** 53 + 4); // tie → even (up)
  });

  it("equals exact arithmetic rounded once, on 6000 random and adversarial inputs", () => {
    const cases = fmaCases(20250124, 6000);
    let naiveDiffers = 0;
    let ties = 0;
    const bad: string[] = [];
    for (const [a, b, c] of cases) {
      const want = refFma(a, b, c);
      const got = fma(a, b, c);
      if (!Object.is(got, want)) bad.push(`fma(${a}, ${b}, ${c}) = ${got}, exact ${want}`);
      if (a * b + c !== want) naiveDiffers++;
      if (isTie(exactFma(a, b, c).num)) ties++;
    }
    expect(bad.slice(0, 5)).toEqual([]);
    // the inputs really stress the emulation: plain a*b+c is wrong on many of them, and exact ties occur
    expect(naiveDiffers).toBeGreaterThan(1000);
    expect(ties).toBeGreaterThan(100);
  });

  it("handles zero addends and exact cancellation", () => {
    expect(fma(3, 4, 0)).toBe(12);
    expect(fma(0.1, 0.1, 0)).toBe(0.1 * 0.1);
    expect(fma(2, 3, -6)).toBe(0);
    expect(fma(0, 5, 1.5)).toBe(1.5);
  });

  it("rounds once: a·b just short of half an ulp of an odd c does not tip over the tie", () => {
    // exact: 1 + 2^−52 + 2^−53 − 2^−113, just below the midpoint of 1 + 2^−52 and 1 + 2^−51
    const a = 1 + 2 ** -30;
    const b = 2 ** -53 * (1 - 2 ** -30);
    const c = 1 + 2 ** -52;
    expect(fma(a, b, c)).toBe(1 + 2 ** -52);
    expect(refFma(a, b, c)).toBe(1 + 2 ** -52);
    expect(a * b + c).toBe(1 + 2 ** -51); // the doubly rounded answer
  });

  it("follows IEEE signed zeros: (−3)·0 + (+0) is +0, (−3)·0 + (−0) is −0", () => {
    expect(Object.is(fma(-3, 0, 0), 0)).toBe(true);
    expect(Object.is(fma(3, 0, -0), 0)).toBe(true);
    expect(Object.is(fma(-3, 0, -0), -0)).toBe(true);
    expect(Object.is(fma(-3, 0, 0), refFma(-3, 0, 0))).toBe(true);
    // so an orthogonal pair has cosine +0, as numpy's ddot gives
    expect(Object.is(blasDot([0], [-2]), 0)).toBe(true);
  });
});

// ---- the 16-lane kernel ---------------------------------------------------------------------

/**
 * The reference dot product, written from the description of OpenBLAS's x86-64 AVX2 ddot: 16 lanes
 * (four 4-wide registers) of FMAs over the first ⌊n/16⌋·16 elements; each register folds its upper
 * pair onto its lower pair, registers are added (0+1) and (2+3), then together, then the two
 * remaining halves; the tail is accumulated sequentially with FMAs (dot += y[i]·x[i]).
 */
function referenceDot(x: ArrayLike<number>, y: ArrayLike<number>): number {
  const n = x.length;
  const n1 = n - (n % 16);
  let dot = 0;
  if (n1 > 0) {
    const lane = new Array<number>(16).fill(0);
    for (let i = 0; i < n1; i++) lane[i % 16] = refFma(x[i]!, y[i]!, lane[i % 16]!);
    const reg = [0, 1, 2, 3].map((r) => [lane[4 * r]! + lane[4 * r + 2]!, lane[4 * r + 1]! + lane[4 * r + 3]!] as const);
    const s01 = [reg[0]![0] + reg[1]![0], reg[0]![1] + reg[1]![1]];
    const s23 = [reg[2]![0] + reg[3]![0], reg[2]![1] + reg[3]![1]];
    const s = [s01[0]! + s23[0]!, s01[1]! + s23[1]!];
    dot = s[0]! + s[1]!;
  }
  for (let i = n1; i < n; i++) dot = refFma(y[i]!, x[i]!, dot);
  return dot;
}

describe("blasDot (numpy/OpenBLAS ddot semantics)", () => {
  const rand = prng(99);
  const vec = (n: number, sparse = false) =>
    Float64Array.from({ length: n }, () => (sparse && rand() < 0.7 ? 0 : (rand() - 0.5) * 2 ** randInt(rand, -4, 4)));

  it("equals the 16-lane FMA reference bit for bit, for many lengths", () => {
    let differsFromSequential = 0;
    for (const n of [0, 1, 2, 5, 15, 16, 17, 31, 32, 33, 47, 64, 100, 255, 256, 257, 300, 384]) {
      for (let t = 0; t < 6; t++) {
        const x = vec(n, t % 2 === 1);
        const y = vec(n);
        const want = referenceDot(x, y);
        expect(Object.is(blasDot(x, y), want), `n=${n} trial ${t}`).toBe(true);
        expect(Object.is(blasNorm(x), Math.sqrt(referenceDot(x, x)))).toBe(true);
        let seq = 0;
        for (let i = 0; i < n; i++) seq += x[i]! * y[i]!;
        if (seq !== want) differsFromSequential++;
      }
    }
    // the summation order matters: a plain loop disagrees in the last bits on a good share
    expect(differsFromSequential).toBeGreaterThan(20);
  });

  it("honours n and offsets", () => {
    const x = vec(70);
    const y = vec(90);
    expect(Object.is(blasDot(x, y, 33, 5, 40), referenceDot(x.subarray(5, 38), y.subarray(40, 73)))).toBe(true);
    expect(Object.is(blasNorm(y, 20, 50), Math.sqrt(referenceDot(y.subarray(50, 70), y.subarray(50, 70))))).toBe(true);
  });
});

describe("blasDotAt (blasDot over the non-zeros of a sparse x)", () => {
  const rand = prng(5);
  const vec = (n: number, zeros: number) =>
    Float64Array.from({ length: n }, () => (rand() < zeros ? (rand() < 0.5 ? 0 : -0) : (rand() - 0.5) * 2 ** randInt(rand, -4, 4)));

  it("equals blasDot bit for bit, signed zeros, NaN and the tail included", () => {
    let visited = 0;
    for (const n of [0, 1, 15, 16, 17, 33, 100, 256, 257, 384]) {
      for (let t = 0; t < 8; t++) {
        const x = vec(n, [0, 0.5, 0.9, 1][t % 4]!);
        const y = vec(n, t < 4 ? 0.3 : 0.95);
        if (t === 7 && n > 20) x[3] = Number.NaN;
        const at = lanePositions(x);
        expect(Array.from(at), `n=${n} trial ${t}`).toEqual(Array.from(x.subarray(0, n & -16)).flatMap((v, i) => (v !== 0 ? [i] : [])));
        expect(Object.is(blasDotAt(at, x, y), blasDot(x, y)), `n=${n} trial ${t}`).toBe(true);
        visited += at.length;
      }
    }
    expect(visited).toBeLessThan(0.6 * 8 * [0, 1, 15, 16, 17, 33, 100, 256, 257, 384].reduce((a, n) => a + (n & -16), 0));
  });

  it("gives blasNorm as sqrt(blasDotAt(x, x)), bit for bit (the prototype estimator's norm of a hashing vector)", () => {
    for (const n of [16, 17, 256, 257, 384])
      for (const zeros of [0, 0.5, 0.9, 1]) {
        const x = vec(n, zeros);
        expect(Object.is(Math.sqrt(blasDotAt(lanePositions(x), x, x)), blasNorm(x)), `n=${n} zeros ${zeros}`).toBe(true);
      }
  });

  it("honours n", () => {
    const x = vec(70, 0.8);
    const y = vec(70, 0);
    expect(Object.is(blasDotAt(lanePositions(x, 40), x, y, 40), blasDot(x, y, 40))).toBe(true);
  });
});

describe("laneDot (the fast kernel for model vectors)", () => {
  const rand = prng(7);
  const vec = (n: number) => Float64Array.from({ length: n }, () => (rand() - 0.5) * 2 ** randInt(rand, -4, 4));

  /** The same 16 lanes and reduction tree as referenceDot, each fma replaced by a rounded product and a rounded sum. */
  function referenceLaneDot(x: ArrayLike<number>, y: ArrayLike<number>): number {
    const n = x.length;
    const n1 = n - (n % 16);
    let dot = 0;
    if (n1 > 0) {
      const lane = new Array<number>(16).fill(0);
      for (let i = 0; i < n1; i++) lane[i % 16] = lane[i % 16]! + x[i]! * y[i]!;
      const reg = [0, 1, 2, 3].map((r) => [lane[4 * r]! + lane[4 * r + 2]!, lane[4 * r + 1]! + lane[4 * r + 3]!] as const);
      const s01 = [reg[0]![0] + reg[1]![0], reg[0]![1] + reg[1]![1]];
      const s23 = [reg[2]![0] + reg[3]![0], reg[2]![1] + reg[3]![1]];
      dot = s01[0]! + s23[0]! + (s01[1]! + s23[1]!);
    }
    for (let i = n1; i < n; i++) dot = dot + y[i]! * x[i]!;
    return dot;
  }

  it("follows its documented order bit for bit and stays within a few ulps of blasDot", () => {
    let differsFromBlas = 0;
    for (const n of [0, 1, 15, 16, 17, 33, 100, 384, 385]) {
      for (let t = 0; t < 8; t++) {
        const x = vec(n);
        const y = vec(n);
        const got = laneDot(x, y);
        expect(Object.is(got, referenceLaneDot(x, y)), `n=${n} trial ${t}`).toBe(true);
        const exact = blasDot(x, y);
        const scale = x.reduce((s, v, i) => s + Math.abs(v * y[i]!), 0);
        expect(Math.abs(got - exact)).toBeLessThanOrEqual(scale * 2 ** -48);
        if (got !== exact) differsFromBlas++;
      }
    }
    // it is a different kernel: some dots differ in their last bits
    expect(differsFromBlas).toBeGreaterThan(0);
  });

  it("honours n and offsets", () => {
    const x = vec(70);
    const y = vec(90);
    expect(Object.is(laneDot(x, y, 33, 5, 40), referenceLaneDot(x.subarray(5, 38), y.subarray(40, 73)))).toBe(true);
  });
});

// ---- the store's ranking context uses the same arithmetic --------------------------------------

/** A fake dense embedder: deterministic random unit vectors, 384-d, keyed by text. */
class RandomUnitEmbedder implements Embedder {
  readonly name = "random-unit";
  readonly id = "random-unit-384";
  readonly dim = 384;
  async embed(text: string): Promise<Float64Array> {
    let seed = 0;
    for (const ch of text) seed = (Math.imul(seed, 31) + ch.codePointAt(0)!) >>> 0;
    const r = prng(seed);
    const v = Float64Array.from({ length: this.dim }, () => r() - 0.5);
    const norm = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
    return v.map((x) => x / norm);
  }
  async embedBatch(texts: readonly string[]): Promise<Float64Array[]> {
    return Promise.all(texts.map((t) => this.embed(t)));
  }
}

const WORDS = "dog cat park rain exam bus pasta friend sunset laundry closet graduation dinner outfit water car".split(" ");

async function fillStore(store: MemoryStore, count: number, seed: number): Promise<void> {
  const rand = prng(seed);
  for (let i = 0; i < count; i++) {
    const text = i % 17 === 5 ? "" : Array.from({ length: randInt(rand, 1, 9) }, () => WORDS[randInt(rand, 0, WORDS.length - 1)]).join(" ");
    await store.add({ text, emotionalIntensity: rand(), contextualRelevance: rand(), createdAt: Date.UTC(2025, 0, 1) + i * 3_600_000 });
  }
}

describe("RankingContext.similarity equals cosine() bit for bit", () => {
  const now = "2025-02-01T00:00:00Z";
  const queries = ["dog park rain", "graduation dinner with my friend friend", "nothing matches xyz", "", "car water outfit outfit outfit"];

  for (const dim of [256, 300, 20]) {
    it(`sparse hashing store, dim ${dim}`, async () => {
      const store = new MemoryStore({ embedder: new HashingEmbedder(dim) });
      await fillStore(store, 120, dim);
      for (const q of queries) {
        const vector = await store.embedder.embed(q);
        const sim = store.context({ text: q, vector }, now).similarity();
        expect(sim).toHaveLength(120);
        for (let i = 0; i < store.size; i++) {
          expect(Object.is(sim[i], cosine(vector, store.embeddingAt(i))), `query "${q}", memory ${i}`).toBe(true);
        }
      }
    });
  }

  it("dense store: random unit vectors, dim 384, through a fake Embedder", async () => {
    const store = new MemoryStore({ embedder: new RandomUnitEmbedder() });
    await fillStore(store, 60, 5);
    for (const q of queries) {
      const vector = await store.embedder.embed(q);
      const sim = store.context({ text: q, vector }, now).similarity();
      for (let i = 0; i < store.size; i++)
        expect(Object.is(sim[i], cosine(vector, store.embeddingAt(i))), `query "${q}", memory ${i}`).toBe(true);
    }
  });

  it("dense store of a model embedder (tolerance-checked vectors): laneDot over the exact norms", async () => {
    const base = new RandomUnitEmbedder();
    const model: Embedder = {
      name: "fake-model",
      id: "fake-model-384",
      dim: 384,
      model: { id: "fake/model", revision: "r", dtype: "fp32" },
      embed: (t) => base.embed(t),
      embedBatch: (t) => base.embedBatch(t),
    };
    const store = new MemoryStore({ embedder: model });
    await fillStore(store, 60, 5);
    let differsFromExact = 0;
    for (const q of queries) {
      const vector = await model.embed(q);
      const sim = store.context({ text: q, vector }, now).similarity();
      for (let i = 0; i < store.size; i++) {
        const m = store.embeddingAt(i);
        const want = blasNorm(m) === 0 ? 0 : laneDot(vector, m) / (blasNorm(vector) * blasNorm(m));
        expect(Object.is(sim[i], want), `query "${q}", memory ${i}`).toBe(true);
        if (sim[i] !== cosine(vector, m)) differsFromExact++;
        expect(Math.abs(sim[i]! - cosine(vector, m))).toBeLessThan(1e-14);
      }
    }
    expect(differsFromExact).toBeGreaterThan(0);
  });

  it("a zero query vector or a query of the wrong dimension", async () => {
    const store = new MemoryStore();
    await fillStore(store, 10, 1);
    const sim = store.context({ text: "", vector: new Float64Array(256) }, now).similarity();
    expect(Array.from(sim)).toEqual(new Array(10).fill(0));
    expect(() => store.context({ text: "x", vector: new Float64Array(10) }, now).similarity()).toThrow(
      /query embedding has 10 dimensions, the store has 256/,
    );
  });
});
