/**
 * Exact means with Python `statistics.mean` semantics (docs/spec.md §7, "EpiRec official
 * evaluation"): the floats' binary values are summed exactly, the sum is divided by n,
 * and the quotient is rounded once to the nearest double (ties to even). A plain
 * left-to-right float sum can differ in the last bit, e.g. mean([0.1, 0.1, 0.1]).
 */

const TWO_POW_26 = 67108864;
const TWO_POW_53 = 9007199254740992;

const f64 = new Float64Array(1);
const u32 = new Uint32Array(f64.buffer);
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
const LO = LITTLE_ENDIAN ? 0 : 1;
const HI = LITTLE_ENDIAN ? 1 : 0;

/** A finite nonzero double as `mant · 2^exp`, `mant` an odd integer with |mant| < 2^53. */
interface Dyadic {
  mant: number;
  exp: number;
}

function decompose(x: number): Dyadic {
  f64[0] = x;
  const hi = u32[HI]!;
  const lo = u32[LO]!;
  const biased = (hi >>> 20) & 0x7ff;
  let mant = (hi & 0xfffff) * 4294967296 + lo;
  let exp: number;
  if (biased === 0) {
    exp = -1074;
  } else {
    mant += 4503599627370496; // implicit leading bit, 2^52
    exp = biased - 1075;
  }
  // strip trailing zero bits so the integers stay small (mant ≠ 0 for nonzero x)
  while (mant % 2 === 0) {
    mant /= 2;
    exp += 1;
  }
  return { mant: x < 0 ? -mant : mant, exp };
}

/** 2^k exactly, for integer k in [-1074, 1023]. */
function pow2(k: number): number {
  if (k >= -1022) {
    u32[HI] = (k + 1023) << 20;
    u32[LO] = 0;
  } else {
    const bit = k + 1074; // 0..51: position of the single fraction bit of a subnormal
    u32[HI] = bit >= 32 ? 2 ** (bit - 32) : 0;
    u32[LO] = bit < 32 ? 2 ** bit : 0;
  }
  return f64[0]!;
}

function bitLength(x: bigint): number {
  if (x === 0n) return 0;
  const hex = x.toString(16);
  return (hex.length - 1) * 4 + (32 - Math.clz32(parseInt(hex[0]!, 16)));
}

/**
 * The double nearest to `num / den · 2^exp2` (ties to even), computed exactly:
 * what Python's `Fraction` → float conversion does. `den` must be positive.
 */
export function ratioToDouble(num: bigint, den: bigint, exp2 = 0): number {
  if (den <= 0n) throw new RangeError("ratioToDouble: the denominator must be positive");
  if (num === 0n) return 0;
  const negative = num < 0n;
  const a = negative ? -num : num;
  // scale so that q = floor(a · 2^s / den) has at least 56 bits
  const s = 56 - bitLength(a) + bitLength(den);
  const scaledNum = s >= 0 ? a << BigInt(s) : a;
  const scaledDen = s >= 0 ? den : den << BigInt(-s);
  const q = scaledNum / scaledDen;
  const sticky = scaledNum % scaledDen !== 0n;
  const qBits = bitLength(q);
  const lsbExp = exp2 - s; // value = (q + fraction) · 2^lsbExp
  // bits to drop: down to 53 significant bits, or fewer when the result is subnormal
  const drop = Math.max(qBits - 53, -1074 - lsbExp);
  if (lsbExp + drop > 971) return negative ? -Infinity : Infinity;
  const dropBig = BigInt(drop);
  let m = q >> dropBig;
  const rem = q - (m << dropBig);
  const half = 1n << (dropBig - 1n);
  if (rem > half || (rem === half && (sticky || (m & 1n) === 1n))) m += 1n;
  const result = Number(m) * pow2(lsbExp + drop);
  return negative ? -result : result;
}

/**
 * Mean with Python `statistics.mean` semantics: exact over the binary values, one final
 * rounding. Fast when few distinct values occur (counts them and multiplies). Non-finite
 * inputs follow IEEE arithmetic as Python does (inf stays inf, inf − inf is NaN).
 */
export function exactMean(xs: ArrayLike<number>): number {
  const n = xs.length;
  if (n === 0) throw new RangeError("exactMean: needs at least one value (statistics.mean raises on empty data)");
  const counts = new Map<number, number>();
  let floatSum = 0;
  let finite = true;
  for (let i = 0; i < n; i++) {
    const x = xs[i]!;
    if (typeof x !== "number") throw new TypeError(`exactMean: value ${i} is not a number`);
    if (!Number.isFinite(x)) finite = false;
    floatSum += x;
    if (x !== 0) counts.set(x, (counts.get(x) ?? 0) + 1);
  }
  if (!finite) return floatSum / n;
  if (counts.size === 0) return 0;
  const parts: Array<{ d: Dyadic; count: number }> = [];
  let minExp = Infinity;
  for (const [x, count] of counts) {
    const d = decompose(x);
    if (d.exp < minExp) minExp = d.exp;
    parts.push({ d, count });
  }
  let total = 0n;
  for (const { d, count } of parts) {
    total += (BigInt(d.mant) * BigInt(count)) << BigInt(d.exp - minExp);
  }
  return ratioToDouble(total, BigInt(n), minExp);
}

/**
 * Values rewritten on a common binary grid, `value_i = (hi_i · 2^26 + lo_i) · 2^exp`, with
 * |hi_i|, |lo_i| small enough that any sum of up to `maxTerms` of them is exact in float64.
 * This lets a bootstrap accumulate exact resample sums without BigInt in the inner loop.
 */
export interface FixedPointSplit {
  exp: number;
  hi: Float64Array;
  lo: Float64Array;
}

/** Split finite values onto a common grid for exact sums of up to `maxTerms` terms; null when the exponent spread is too wide. */
export function splitFixedPoint(values: ArrayLike<number>, maxTerms: number): FixedPointSplit | null {
  const n = values.length;
  if (!Number.isInteger(maxTerms) || maxTerms < 1)
    throw new RangeError(`splitFixedPoint: maxTerms must be a positive integer, got ${maxTerms}`);
  if (maxTerms >= TWO_POW_26) return null;
  const hi = new Float64Array(n);
  const lo = new Float64Array(n);
  let minExp = Infinity;
  const ds: Array<Dyadic | null> = new Array(n);
  for (let i = 0; i < n; i++) {
    const x = values[i]!;
    if (!Number.isFinite(x)) throw new RangeError(`splitFixedPoint: value ${i} is not finite (${x})`);
    const d = x === 0 ? null : decompose(x);
    ds[i] = d;
    if (d && d.exp < minExp) minExp = d.exp;
  }
  if (minExp === Infinity) return { exp: 0, hi, lo };
  for (let i = 0; i < n; i++) {
    const d = ds[i];
    if (!d) continue;
    // |M_i| = |mant| · 2^(exp − minExp): exact (power-of-two scaling), Infinity when far too wide
    const magnitude = Math.abs(d.mant) * 2 ** (d.exp - minExp);
    const h = Math.floor(magnitude / TWO_POW_26);
    // any sum of maxTerms hi parts, plus the carry from the lo parts (< maxTerms), must stay exact
    if (!((h + 1) * maxTerms <= TWO_POW_53)) return null;
    const l = magnitude - h * TWO_POW_26;
    hi[i] = d.mant < 0 ? -h : h;
    lo[i] = d.mant < 0 ? -l : l;
  }
  return { exp: minExp, hi, lo };
}

/**
 * Bring every exact split sum (H[b] · 2^26 + L[b]) to the canonical form with 0 ≤ L[b] < 2^26, in place (one pass over
 * typed arrays, no pair allocated per sum).
 */
export function canonicalizeSplitSums(h: Float64Array, l: Float64Array): void {
  for (let b = 0; b < h.length; b++) {
    const carry = Math.floor(l[b]! / TWO_POW_26);
    h[b] = h[b]! + carry;
    l[b] = l[b]! - carry * TWO_POW_26;
  }
}

/** The correctly rounded mean of n values whose exact split sum is H · 2^26 + L on `split`'s grid. */
export function splitSumMean(h: number, l: number, split: FixedPointSplit, n: number): number {
  const total = (BigInt(h) << 26n) + BigInt(l);
  return ratioToDouble(total, BigInt(n), split.exp);
}
