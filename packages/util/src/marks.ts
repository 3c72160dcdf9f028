/**
 * A "seen" set over small non-negative integers that is reused, not rebuilt: each pass takes a new stamp, and index i
 * is seen in the pass when `marks[i]` holds its stamp, so a hot loop (the permutation check of every ranking, the
 * session ranks of every ladder question) allocates and clears nothing per pass.
 */
export class StampedMarks {
  private array = new Int32Array(0);
  private stamp = 0;

  /** The marks: `marks[i] === stamp` when i was marked in the pass `stamp`. Read it again after cover(). */
  get marks(): Int32Array {
    return this.array;
  }

  /** Start a pass in which nothing is marked, with marks for at least 0 … size − 1; returns the pass's stamp. */
  next(size = 0): number {
    if (this.array.length < size) this.array = new Int32Array(Math.max(size, 2 * this.array.length));
    if (this.stamp === 0x7fffffff) {
      this.array.fill(0);
      this.stamp = 0;
    }
    return ++this.stamp;
  }

  /** Grow the marks to hold index i, keeping the current pass's; returns them. */
  cover(i: number): Int32Array {
    if (i >= this.array.length) {
      const grown = new Int32Array(Math.max(i + 1, 2 * this.array.length));
      grown.set(this.array);
      this.array = grown;
    }
    return this.array;
  }
}
