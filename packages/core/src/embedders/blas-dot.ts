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
  const up = (s > 0) === towardPositive; // magnitude grows
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
  const a0 = l[o]! + l[o + 2]!, b0 = l[o + 1]! + l[o + 3]!;
  const a1 = l[o + 4]! + l[o + 6]!, b1 = l[o + 5]! + l[o + 7]!;
  const a2 = l[o + 8]! + l[o + 10]!, b2 = l[o + 9]! + l[o + 11]!;
  const a3 = l[o + 12]! + l[o + 14]!, b3 = l[o + 13]! + l[o + 15]!;
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

/** ‖x‖ as numpy computes it for a 1-D float64 array: sqrt(ddot(x, x)). */
export function blasNorm(x: ArrayLike<number>, n = x.length, off = 0): number {
  return Math.sqrt(blasDot(x, x, n, off, off));
}
