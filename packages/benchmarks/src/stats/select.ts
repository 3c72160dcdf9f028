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
 * The values Float64Array#sort (numeric, −0 before +0; no NaN) puts at ranks lo ≤ hi of a, by selection with plain
 * comparisons (a is rearranged). Equal values are interchangeable but for the sign of zero, so a zero found at a
 * rank is given the sign the sort would put there: −0 for ranks below the count of negatives and −0s.
 */
export function selectSortedPair(a: Float64Array, lo: number, hi: number): [number, number] {
  selectFloat(a, 0, a.length - 1, hi);
  // everything before hi is now not greater than a[hi]
  if (lo < hi) selectFloat(a, 0, hi - 1, lo);
  let x = a[lo]!;
  let y = a[hi]!;
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
