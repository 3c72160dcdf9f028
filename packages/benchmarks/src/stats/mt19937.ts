/**
 * MT19937 seeded and read the way CPython's `random.Random(int)` does, so that the
 * EpiRec official evaluator's bootstrap resamples (docs/spec.md §7, "EpiRec official
 * evaluation") are reproduced draw for draw.
 *
 * - seeding: `init_by_array(key)`, where key holds the 32-bit words of |seed|,
 *   least significant first (`[seed]` for seeds below 2^32, `[0]` for 0);
 * - `random()`: genrand_res53, `((a >>> 5) · 2^26 + (b >>> 6)) / 2^53`;
 * - `draw(n)`: `floor(random() · n)`, the index rule of `random.choices(items, k=…)`.
 */

const N = 624;
const M = 397;
const MATRIX_A = 0x9908b0df;
const UPPER_MASK = 0x80000000;
const LOWER_MASK = 0x7fffffff;
const TWO_POW_32 = 4294967296;

/** The raw Mersenne Twister MT19937 word generator (32-bit outputs). */
export class MT19937 {
  /** The 624-word state; read by bulk generators in this module. */
  readonly mt = new Uint32Array(N);
  /** Next state word to temper; N means a twist is due. */
  index = N;

  /** Seed with `init_by_array(key)` (Matsumoto–Nishimura 2002); every word must be a uint32. */
  constructor(key: readonly number[]) {
    if (key.length === 0) throw new RangeError("MT19937: the seed key must hold at least one 32-bit word");
    for (const w of key) {
      if (!Number.isInteger(w) || w < 0 || w >= TWO_POW_32) {
        throw new RangeError(`MT19937: seed key words must be integers in [0, 2^32), got ${w}`);
      }
    }
    this.initByArray(key);
  }

  private initGenrand(s: number): void {
    const mt = this.mt;
    mt[0] = s >>> 0;
    for (let i = 1; i < N; i++) {
      const prev = mt[i - 1]!;
      mt[i] = (Math.imul(1812433253, prev ^ (prev >>> 30)) + i) >>> 0;
    }
  }

  private initByArray(key: readonly number[]): void {
    const mt = this.mt;
    this.initGenrand(19650218);
    let i = 1;
    let j = 0;
    for (let k = Math.max(N, key.length); k > 0; k--) {
      const prev = mt[i - 1]!;
      // (x ^ y) is a signed int32; the sum stays far below 2^53 and >>> 0 reduces it mod 2^32.
      mt[i] = ((mt[i]! ^ Math.imul(prev ^ (prev >>> 30), 1664525)) + key[j]! + j) >>> 0;
      i++;
      j++;
      if (i >= N) {
        mt[0] = mt[N - 1]!;
        i = 1;
      }
      if (j >= key.length) j = 0;
    }
    for (let k = N - 1; k > 0; k--) {
      const prev = mt[i - 1]!;
      mt[i] = ((mt[i]! ^ Math.imul(prev ^ (prev >>> 30), 1566083941)) - i) >>> 0;
      i++;
      if (i >= N) {
        mt[0] = mt[N - 1]!;
        i = 1;
      }
    }
    mt[0] = 0x80000000;
    this.index = N;
  }

  /** Regenerate all N state words (called when `index` reaches N). */
  twist(): void {
    const mt = this.mt;
    let kk = 0;
    for (; kk < N - M; kk++) {
      const y = (mt[kk]! & UPPER_MASK) | (mt[kk + 1]! & LOWER_MASK);
      mt[kk] = mt[kk + M]! ^ (y >>> 1) ^ (-(y & 1) & MATRIX_A);
    }
    for (; kk < N - 1; kk++) {
      const y = (mt[kk]! & UPPER_MASK) | (mt[kk + 1]! & LOWER_MASK);
      mt[kk] = mt[kk + M - N]! ^ (y >>> 1) ^ (-(y & 1) & MATRIX_A);
    }
    const y = (mt[N - 1]! & UPPER_MASK) | (mt[0]! & LOWER_MASK);
    mt[N - 1] = mt[M - 1]! ^ (y >>> 1) ^ (-(y & 1) & MATRIX_A);
    this.index = 0;
  }

  /** Next tempered 32-bit output as an unsigned integer (genrand_int32). */
  nextUint32(): number {
    if (this.index >= N) this.twist();
    let y = this.mt[this.index++]!;
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    y ^= y >>> 18;
    return y >>> 0;
  }
}

/** The init_by_array key CPython derives from an integer seed: 32-bit words of |seed|, low word first. */
export function cpythonSeedKey(seed: number): number[] {
  if (!Number.isSafeInteger(seed)) {
    throw new RangeError(`PyRandom: the seed must be a safe integer (|seed| < 2^53), got ${seed}`);
  }
  let rest = Math.abs(seed);
  const key: number[] = [];
  do {
    key.push(rest % TWO_POW_32);
    rest = Math.floor(rest / TWO_POW_32);
  } while (rest > 0);
  return key;
}

/** CPython's `random.Random(seed)` for an integer seed: the same `random()` stream, and its `choices` index rule. */
export class PyRandom {
  private readonly mt: MT19937;

  /** Seed like `random.Random(seed)` (CPython ≥ 3.2, integer seeds; negative seeds use |seed| as CPython does). */
  constructor(seed: number) {
    this.mt = new MT19937(cpythonSeedKey(seed));
  }

  /** A float in [0, 1) with 53 random bits, identical to CPython's `random()`. */
  random(): number {
    const a = this.mt.nextUint32() >>> 5;
    const b = this.mt.nextUint32() >>> 6;
    return (a * 67108864 + b) / 9007199254740992;
  }

  /** An index in [0, n): `floor(random() · n)`, the draw `random.choices(population, k=…)` makes per element. */
  draw(n: number): number {
    return Math.floor(this.random() * n);
  }

  /** Fill `out` with `out.length` draws over [0, n), in order (one `choices(range(n), k=out.length)` call). */
  fillDraws(out: Uint32Array, n: number): void {
    const gen = this.mt;
    const state = gen.mt;
    let k = gen.index;
    for (let i = 0; i < out.length; i++) {
      // two tempered words, inlined for speed (same as nextUint32)
      if (k >= N) {
        gen.twist();
        k = 0;
      }
      let a = state[k++]!;
      a ^= a >>> 11;
      a ^= (a << 7) & 0x9d2c5680;
      a ^= (a << 15) & 0xefc60000;
      a ^= a >>> 18;
      if (k >= N) {
        gen.twist();
        k = 0;
      }
      let b = state[k++]!;
      b ^= b >>> 11;
      b ^= (b << 7) & 0x9d2c5680;
      b ^= (b << 15) & 0xefc60000;
      b ^= b >>> 18;
      out[i] = Math.floor((((a >>> 5) * 67108864 + (b >>> 6)) / 9007199254740992) * n);
    }
    gen.index = k;
  }
}
