/**
 * Builds a rankings JSONL file as bytes: one line per query, each ending in its ranking — the whole of it, or
 * its first `depth` ids — written as a JSON array with Python's `json.dumps` spacing (", "), so files diff
 * cleanly against the reference's. Ids are encoded once (`encodeIds`), each with its ", " separator, into
 * fixed-width 32-bit words: writing one ranked id is a few unaligned word stores and a length add, no strings,
 * no per-byte loop; only the ids written are touched, so the cost scales with the depth.
 */
export class RankingsWriter {
  private buf: Buffer;
  private view: DataView;
  private len = 0;
  /** The last ranking written and where its array bytes sit, so a repeated (query-independent) ranking is one memmove. */
  private last?: { order: Int32Array; ids: EncodedIds; from: number; to: number };
  /** Lines written so far, and the fewest and most ids one of them lists. */
  private stats = { lines: 0, minIds: Infinity, maxIds: 0 };

  /**
   * `capacity`: initial buffer size in bytes (it grows as needed; a good estimate saves the copies of growing).
   * `depth`: ids written per line at most (a ranking's first `depth`; Infinity, the default: every id).
   */
  constructor(
    capacity = 1 << 20,
    readonly depth = Infinity,
  ) {
    if (!(depth === Infinity || (Number.isSafeInteger(depth) && depth >= 1)))
      throw new RangeError(`RankingsWriter: depth must be a positive integer or Infinity, got ${depth}`);
    this.buf = Buffer.allocUnsafe(Math.max(64, capacity));
    this.view = new DataView(this.buf.buffer, this.buf.byteOffset, this.buf.length);
  }

  /** How many ids a line of a ranking of `size` items lists: min(size, depth). */
  written(size: number): number {
    return Math.min(size, this.depth);
  }

  /** The ids of one store as JSON strings (`"D1:3"`), encoded once for `line()`. */
  static encodeIds(ids: readonly string[]): EncodedIds {
    const encoded = ids.map((id) => Buffer.from(JSON.stringify(id) + ", ", "utf8"));
    const width = Math.max(1, ...encoded.map((b) => Math.ceil(b.length / 4)));
    const bytes = new Uint8Array(ids.length * width * 4);
    const length = new Int32Array(ids.length);
    encoded.forEach((b, i) => {
      bytes.set(b, i * width * 4);
      length[i] = b.length;
    });
    const words = new Uint32Array(ids.length * width);
    const dv = new DataView(bytes.buffer);
    for (let k = 0; k < words.length; k++) words[k] = dv.getUint32(k * 4, true);
    return { words, width, length };
  }

  /** Append `prefix` + the ranking's first `written(order.length)` ids as a JSON array + `suffix` + "\n". */
  line(prefix: string, order: Int32Array, ids: EncodedIds, suffix = "}"): void {
    const n = this.written(order.length);
    const st = this.stats;
    st.lines++;
    if (n < st.minIds) st.minIds = n;
    if (n > st.maxIds) st.maxIds = n;
    this.text(prefix);
    const last = this.last;
    if (last && last.order === order && last.ids === ids) {
      const bytes = last.to - last.from;
      this.ensure(bytes);
      this.buf.copyWithin(this.len, last.from, last.to);
      this.last = { order, ids, from: this.len, to: this.len + bytes };
      this.len += bytes;
      this.text(suffix + "\n");
      return;
    }
    const { words, width, length } = ids;
    // every id takes at most width words; the bytes stored past an id's end are overwritten by the next one
    this.ensure(2 + n * width * 4);
    const buf = this.buf;
    const dv = this.view;
    const from = this.len;
    let len = from;
    buf[len++] = 0x5b; // [
    if (width === 3) {
      for (let r = 0; r < n; r++) {
        const i = order[r]!;
        const w = i * 3;
        dv.setUint32(len, words[w]!, true);
        dv.setUint32(len + 4, words[w + 1]!, true);
        dv.setUint32(len + 8, words[w + 2]!, true);
        len += length[i]!;
      }
    } else if (width === 2) {
      for (let r = 0; r < n; r++) {
        const i = order[r]!;
        const w = i * 2;
        dv.setUint32(len, words[w]!, true);
        dv.setUint32(len + 4, words[w + 1]!, true);
        len += length[i]!;
      }
    } else {
      for (let r = 0; r < n; r++) {
        const i = order[r]!;
        for (let w = i * width, end = w + width, at = len; w < end; w++, at += 4) dv.setUint32(at, words[w]!, true);
        len += length[i]!;
      }
    }
    if (n > 0) len -= 2; // the last id's ", "
    buf[len++] = 0x5d; // ]
    this.last = { order, ids, from, to: len };
    this.len = len;
    this.text(suffix + "\n");
  }

  /** The file's bytes so far. */
  bytes(): Uint8Array {
    return new Uint8Array(this.buf.buffer, this.buf.byteOffset, this.len);
  }

  /** Lines written so far and the fewest and most ids a line lists (0 and 0 before the first line). */
  counts(): { lines: number; idsPerLine: { min: number; max: number } } {
    const { lines, minIds, maxIds } = this.stats;
    return { lines, idsPerLine: lines === 0 ? { min: 0, max: 0 } : { min: minIds, max: maxIds } };
  }

  private text(s: string): void {
    this.ensure(s.length * 3);
    this.len += this.buf.write(s, this.len, "utf8");
  }

  private ensure(extra: number): void {
    // 4 bytes of slack: an id's last word may be stored up to 3 bytes past the array's end
    if (this.len + extra + 4 <= this.buf.length) return;
    let cap = this.buf.length * 2;
    while (cap < this.len + extra + 4) cap *= 2;
    // not zero-filled: every byte below len is copied in, and nothing reads past len
    const next = Buffer.allocUnsafe(cap);
    next.set(this.buf.subarray(0, this.len));
    this.buf = next;
    this.view = new DataView(next.buffer, next.byteOffset, next.length);
  }
}

/**
 * The end of a rankings line: `}`, or `, "near_ties": [p, …]}` when some adjacent ranks of a model run scored
 * within the tie threshold, so the results checker accepts a CPU's reordering there and nowhere else
 * (docs/reproducibility.md). Exact runs never have near-ties recorded, so their lines are unchanged. A line
 * listing only its ranking's first `written` ids keeps the positions p < written: p = written − 1 says that its
 * last id tied with the first one not written.
 */
export function lineEnd(nearTies: Int32Array | undefined, written = Infinity): string {
  if (!nearTies || nearTies.length === 0) return "}";
  const kept = written === Infinity ? Array.from(nearTies) : Array.from(nearTies).filter((p) => p < written);
  return kept.length > 0 ? `, "near_ties": [${kept.join(", ")}]}` : "}";
}

/**
 * A store's ids as JSON-string bytes followed by ", ", little-endian in `width` 32-bit words per id: id i is
 * the first length[i] bytes of words[i·width … (i + 1)·width).
 */
export interface EncodedIds {
  words: Uint32Array;
  width: number;
  length: Int32Array;
}
