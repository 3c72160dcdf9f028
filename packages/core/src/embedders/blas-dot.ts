/**
 * Dot products with the exact floating-point behaviour of the reference implementation's
 * numpy/OpenBLAS `ddot` on x86-64 (the AVX2 kernel used on Haswell and Zen cores): sixteen
 * running lanes, lane l accumulating the elements i ≡ l (mod 16) with fused multiply-adds,
 * then a fixed reduction tree; a tail past the last multiple of 16 is added sequentially.
 *
 * Why: cosine ties and near-ties decide rankings, and the published hashing results were
 * computed this way. A plain left-to-right sum differs in the last bit often enough to
 * reorder ~10 % of EpiRec rankings. JavaScript has no fma, so it is emulated exactly
 * (Boldo & Melquiond 2008: exact product, exact sum, round-to-odd, final round-to-nearest).
 */

const SPLITTER = 134217729; // 2^27 + 1, Veltkamp splitting for binary64

const f64 = new Float64Array(1);
const u32 = new Uint32Array(f64.buffer); // little-endian: [low word, high word]

/** The float next to s in the direction of `towardPositive`. s must be finite and non-zero. */
function step(s: number, towardPositive: boolean): number {
  f64[0] = s;
  const up = s > 0 === towardPositive; // magnitude grows
  if (up) {
    u32[0] = (u32[0]! + 1) >>> 0;
    if (u32[0] === 0) u32[1] = (u32[1]! + 1) >>> 0;
  } else {
    if (u32[0] === 0) u32[1] = (u32[1]! - 1) >>> 0;
    u32[0] = (u32[0]! - 1) >>> 0;
  }
  return f64[0]!;
}

/** a + b rounded to odd (exact result when representable, else the neighbour with an odd last bit). */
function addRoundToOdd(a: number, b: number): number {
  const s = a + b;
  const bb = s - a;
  const err = a - (s - bb) + (b - bb);
  if (err === 0) return s;
  f64[0] = s;
  if ((u32[0]! & 1) === 1) return s;
  return step(s, err > 0);
}

/** Exactly-rounded fused multiply-add a·b + c (no overflow/underflow handling needed here). */
export function fma(a: number, b: number, c: number): number {
  const p = a * b;
  if (c === 0) return p + c; // RN(a·b + 0) = RN(a·b); "+ c" keeps IEEE signed zeros: −0 + (+0) = +0
  let t = SPLITTER * a;
  const ah = t - (t - a);
  const al = a - ah;
  t = SPLITTER * b;
  const bh = t - (t - b);
  const bl = b - bh;
  const pl = ah * bh - p + ah * bl + al * bh + al * bl; // p + pl == a·b exactly
  if (pl === 0) return p + c;
  const th = c + p;
  const z = th - c;
  const tl = c - (th - z) + (p - z); // th + tl == c + p exactly
  return th + addRoundToOdd(tl, pl);
}

const lanes = new Float64Array(16);

/**
 * Reduce 16 lanes (l[o..o+16)) in the kernel's fixed order: each 4-lane register's halves, then
 * registers pairwise, then the horizontal add.
 */
export function reduceLanes(l: Float64Array = lanes, o = 0): number {
  const a0 = l[o]! + l[o + 2]!,
    b0 = l[o + 1]! + l[o + 3]!;
  const a1 = l[o + 4]! + l[o + 6]!,
    b1 = l[o + 5]! + l[o + 7]!;
  const a2 = l[o + 8]! + l[o + 10]!,
    b2 = l[o + 9]! + l[o + 11]!;
  const a3 = l[o + 12]! + l[o + 14]!,
    b3 = l[o + 13]! + l[o + 15]!;
  const A = a0 + a1 + (a2 + a3);
  const B = b0 + b1 + (b2 + b3);
  return A + B;
}

/** OpenBLAS-compatible dot product of x[xOff..xOff+n) and y[yOff..yOff+n). */
export function blasDot(x: ArrayLike<number>, y: ArrayLike<number>, n = x.length, xOff = 0, yOff = 0): number {
  const n1 = n & -16;
  let dot = 0;
  if (n1 > 0) {
    lanes.fill(0);
    for (let i = 0; i < n1; i++) {
      const a = x[xOff + i]!;
      const b = y[yOff + i]!;
      if (a === 0 || b === 0) continue; // fma(a, b, acc) == acc when a·b == 0
      const k = i & 15;
      lanes[k] = fma(a, b, lanes[k]!);
    }
    dot = reduceLanes();
  }
  for (let i = n1; i < n; i++) dot = fma(y[yOff + i]!, x[xOff + i]!, dot);
  return dot;
}

/**
 * The positions i < n − n mod 16 where x[i] ≠ 0 (NaN included), ascending: the only lane terms blasDot(x, ·, n)
 * adds (it skips a zero factor), for blasDotAt.
 */
export function lanePositions(x: ArrayLike<number>, n = x.length): Int32Array {
  const n1 = n & -16;
  let k = 0;
  for (let i = 0; i < n1; i++) if (x[i] !== 0) k++;
  const out = new Int32Array(k);
  k = 0;
  for (let i = 0; i < n1; i++) if (x[i] !== 0) out[k++] = i;
  return out;
}

/**
 * blasDot(x, y, n) given `at` = lanePositions(x, n), bit for bit: the same fused multiply-adds in the same order in each
 * lane, visiting only x's non-zeros — for a sparse x (a hashing embedding) compared with many y.
 */
export function blasDotAt(at: Int32Array, x: ArrayLike<number>, y: ArrayLike<number>, n = x.length): number {
  const n1 = n & -16;
  let dot = 0;
  if (n1 > 0) {
    lanes.fill(0);
    for (let t = 0; t < at.length; t++) {
      const i = at[t]!;
      const b = y[i]!;
      if (b === 0) continue;
      const k = i & 15;
      lanes[k] = fma(x[i]!, b, lanes[k]!);
    }
    dot = reduceLanes();
  }
  for (let i = n1; i < n; i++) dot = fma(y[i]!, x[i]!, dot);
  return dot;
}

/**
 * The same sixteen lanes and reduction tree as blasDot, with a rounded multiply and a rounded add in place of
 * each fused multiply-add: for model vectors (neural embedders), whose values are compared within a measured
 * tolerance rather than bit for bit (docs/reproducibility.md). About ten times faster than the emulated fma;
 * it differs from blasDot in the last bits of some dots, far below the near-tie threshold.
 */
export function laneDot(x: ArrayLike<number>, y: ArrayLike<number>, n = x.length, xOff = 0, yOff = 0): number {
  const n1 = n & -16;
  let l0 = 0,
    l1 = 0,
    l2 = 0,
    l3 = 0,
    l4 = 0,
    l5 = 0,
    l6 = 0,
    l7 = 0;
  let l8 = 0,
    l9 = 0,
    l10 = 0,
    l11 = 0,
    l12 = 0,
    l13 = 0,
    l14 = 0,
    l15 = 0;
  for (let i = 0; i < n1; i += 16) {
    const a = xOff + i,
      b = yOff + i;
    l0 += x[a]! * y[b]!;
    l1 += x[a + 1]! * y[b + 1]!;
    l2 += x[a + 2]! * y[b + 2]!;
    l3 += x[a + 3]! * y[b + 3]!;
    l4 += x[a + 4]! * y[b + 4]!;
    l5 += x[a + 5]! * y[b + 5]!;
    l6 += x[a + 6]! * y[b + 6]!;
    l7 += x[a + 7]! * y[b + 7]!;
    l8 += x[a + 8]! * y[b + 8]!;
    l9 += x[a + 9]! * y[b + 9]!;
    l10 += x[a + 10]! * y[b + 10]!;
    l11 += x[a + 11]! * y[b + 11]!;
    l12 += x[a + 12]! * y[b + 12]!;
    l13 += x[a + 13]! * y[b + 13]!;
    l14 += x[a + 14]! * y[b + 14]!;
    l15 += x[a + 15]! * y[b + 15]!;
  }
  const A = l0 + l2 + (l4 + l6) + (l8 + l10 + (l12 + l14));
  const B = l1 + l3 + (l5 + l7) + (l9 + l11 + (l13 + l15));
  let dot = n1 > 0 ? A + B : 0;
  for (let i = n1; i < n; i++) dot += y[yOff + i]! * x[xOff + i]!;
  return dot;
}

/** ‖x‖ as numpy computes it for a 1-D float64 array: sqrt(ddot(x, x)). */
export function blasNorm(x: ArrayLike<number>, n = x.length, off = 0): number {
  return Math.sqrt(blasDot(x, x, n, off, off));
}
