/**
 * Min-max normalisation to [0, 1]: (x − min)/(max − min). When every value is equal the result is
 * `constant` everywhere (0 by default; Generative Agents' code uses 0.5, the midpoint of the range).
 */
export function minMax(xs: ArrayLike<number>, constant = 0): Float64Array {
  const n = xs.length;
  const out = new Float64Array(n);
  if (n === 0) return out;
  let lo = Infinity;
  let hi = -Infinity;
  for (let i = 0; i < n; i++) {
    const x = xs[i]!;
    if (x < lo) lo = x;
    if (x > hi) hi = x;
  }
  const range = hi - lo;
  if (!(range > 0)) return out.fill(constant);
  for (let i = 0; i < n; i++) out[i] = (xs[i]! - lo) / range;
  return out;
}

/** 1-based rank of every memory in a full ranking (`order[r]` is the memory at rank r + 1). */
export function ranksOf(order: Int32Array): Int32Array {
  const ranks = new Int32Array(order.length);
  for (let r = 0; r < order.length; r++) ranks[order[r]!] = r + 1;
  return ranks;
}
