/** Order statistics by selection: the element a full sort would put at rank k, without sorting (percentile CIs). */

/**
 * Rearrange a[lo..hi] so that a[k] holds the element a full sort by `less` would put there, everything before it
 * not greater and everything after it not less (Hoare's selection, median-of-three pivots). Which of several equal
 * elements lands at k is unspecified: callers read only the value there, the same for all of them.
 */
export function selectRank<A extends Float64Array | Int32Array>(
  a: A,
  lo: number,
  hi: number,
  k: number,
  less: (x: number, y: number) => boolean,
): void {
  while (hi > lo) {
    const mid = (lo + hi) >>> 1;
    // median of three to a[mid]
    if (less(a[mid]!, a[lo]!)) swap(a, mid, lo);
    if (less(a[hi]!, a[lo]!)) swap(a, hi, lo);
    if (less(a[hi]!, a[mid]!)) swap(a, hi, mid);
    const pivot = a[mid]!;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (less(a[i]!, pivot)) i++;
      while (less(pivot, a[j]!)) j--;
      if (i <= j) {
        swap(a, i, j);
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return;
  }
}

function swap(a: Float64Array | Int32Array, i: number, j: number): void {
  const t = a[i]!;
  a[i] = a[j]!;
  a[j] = t;
}

/**
 * The values Float64Array#sort (numeric, −0 before +0; no NaN) puts at ranks lo ≤ hi of a, without sorting and
 * without changing a. Each rank is first bracketed from one sorted sample of a (bracketOf): one pass then counts, for
 * both ranks, the values below each bracket and gathers those inside it (without a branch per value), and each rank
 * is selected among its few. Where a bracket misses its rank (values far from the sample's spread), that rank is
 * selected in a copy of the whole array. Equal values are interchangeable but for the sign of zero, so a zero found at
 * a rank is given the sign the sort would put there: −0 for ranks below the count of negatives and −0s.
 */
export function selectSortedPair(a: Float64Array, lo: number, hi: number): [number, number] {
  const n = a.length;
  const step = Math.max(1, Math.floor(n / BRACKET_SAMPLE));
  const m = Math.ceil(n / step);
  let x: number;
  let y: number;
  if (m < 2 * BRACKET_MARGIN + 2) {
    x = selectedCopy(a, lo);
    y = lo === hi ? x : selectedCopy(a, hi);
  } else {
    // the scratch holds the sample, then each rank's gathered values (one spare slot each: every value is written
    // before it is counted)
    if (bracketScratch.length < m + 2 * (n + 1)) bracketScratch = new Float64Array(Math.max(m + 2 * (n + 1), 2 * bracketScratch.length));
    const sample = bracketScratch.subarray(0, m);
    const inLo = bracketScratch.subarray(m, m + n + 1);
    const inHi = bracketScratch.subarray(m + n + 1, m + 2 * (n + 1));
    for (let j = 0; j < m; j++) sample[j] = a[j * step]!;
    sample.sort();
    const [l1, u1] = bracketOf(sample, n, lo);
    const [l2, u2] = bracketOf(sample, n, hi);
    let below1 = 0;
    let below2 = 0;
    let inside1 = 0;
    let inside2 = 0;
    for (let i = 0; i < n; i++) {
      const v = a[i]!;
      below1 += +(v < l1);
      inLo[inside1] = v;
      inside1 += +(v >= l1 && v <= u1);
      below2 += +(v < l2);
      inHi[inside2] = v;
      inside2 += +(v >= l2 && v <= u2);
    }
    x = rankIn(inLo, inside1, lo - below1) ?? selectedCopy(a, lo);
    y = rankIn(inHi, inside2, hi - below2) ?? selectedCopy(a, hi);
  }
  if (x === 0 || y === 0) {
    let below = 0; // negatives and −0s: the ranks a sort fills before the first +0
    for (let i = 0; i < a.length; i++) {
      const v = a[i]!;
      if (v < 0 || (v === 0 && 1 / v < 0)) below++;
    }
    if (x === 0) x = lo < below ? -0 : 0;
    if (y === 0) y = hi < below ? -0 : 0;
  }
  return [x, y];
}

/** Values of a sampled to bracket a rank (every step-th), and the sampled ranks kept on each side of the estimate. */
const BRACKET_SAMPLE = 128;
const BRACKET_MARGIN = 6;

/** selectSortedPair's scratch (the sample, then the values inside each bracket), grown on demand. */
let bracketScratch = new Float64Array(0);

/**
 * The bracket [l, u] of rank k of n values from a sorted sample of them: the sampled values BRACKET_MARGIN sampled
 * ranks either side of k's estimated place (−∞ or +∞ past the sample's ends).
 */
function bracketOf(sample: Float64Array, n: number, k: number): [number, number] {
  const m = sample.length;
  const at = Math.floor((k * m) / n);
  const l = at - BRACKET_MARGIN <= 0 ? -Infinity : sample[at - BRACKET_MARGIN]!;
  const u = at + BRACKET_MARGIN >= m - 1 ? Infinity : sample[at + BRACKET_MARGIN]!;
  return [l, u];
}

/** The value at rank r of the first `count` values of buf (buf rearranged), or undefined when r is not among them. */
function rankIn(buf: Float64Array, count: number, r: number): number | undefined {
  if (r < 0 || r >= count) return undefined;
  selectFloat(buf, 0, count - 1, r);
  return buf[r]!;
}

/** The value at rank k of a (numeric order), selected in a copy. */
function selectedCopy(a: Float64Array, k: number): number {
  const c = a.slice();
  selectFloat(c, 0, c.length - 1, k);
  return c[k]!;
}

/** selectRank for plain numeric order on a Float64Array (−0 and +0 equal), the comparisons inline. */
function selectFloat(a: Float64Array, lo: number, hi: number, k: number): void {
  while (hi > lo) {
    const mid = (lo + hi) >>> 1;
    let x = a[mid]!;
    let y = a[lo]!;
    if (x < y) {
      a[mid] = y;
      a[lo] = x;
    }
    x = a[hi]!;
    y = a[lo]!;
    if (x < y) {
      a[hi] = y;
      a[lo] = x;
    }
    x = a[hi]!;
    y = a[mid]!;
    if (x < y) {
      a[hi] = y;
      a[mid] = x;
    }
    const pivot = a[mid]!;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i]! < pivot) i++;
      while (pivot < a[j]!) j--;
      if (i <= j) {
        const t = a[i]!;
        a[i] = a[j]!;
        a[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return;
  }
}
