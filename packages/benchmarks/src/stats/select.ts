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
