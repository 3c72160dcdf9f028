/**
 * Builds a rankings JSONL file as bytes: one line per query, each ending in a full ranking written
 * as a JSON array with Python's `json.dumps` spacing (", "), so files diff cleanly against the
 * reference's. Ids are encoded once (`encodeIds`) and copied byte by byte, so writing millions of
 * ranked ids makes no strings at all.
 */
export class RankingsWriter {
  private buf: Uint8Array = Buffer.allocUnsafe(1 << 20);
  private len = 0;
  /** The last ranking written and where its array bytes sit, so a repeated (query-independent) ranking is one memmove. */
  private last?: { order: Int32Array; ids: EncodedIds; from: number; to: number };

  /** The ids of one store as JSON strings (`"D1:3"`), encoded once into one byte pool for `line()`. */
  static encodeIds(ids: readonly string[]): EncodedIds {
    const encoded = ids.map((id) => Buffer.from(JSON.stringify(id), "utf8"));
    const pool = Buffer.concat(encoded);
    const start = new Int32Array(ids.length + 1);
    encoded.forEach((b, i) => (start[i + 1] = start[i]! + b.length));
    return { pool, start };
  }

  /** Append `prefix` + the ranking as a JSON array + `suffix` + "\n". */
  line(prefix: string, order: Int32Array, ids: EncodedIds, suffix = "}"): void {
    this.text(prefix);
    const last = this.last;
    if (last && last.order === order && last.ids === ids) {
      const n = last.to - last.from;
      this.ensure(n);
      this.buf.copyWithin(this.len, last.from, last.to);
      this.last = { order, ids, from: this.len, to: this.len + n };
      this.len += n;
      this.text(suffix + "\n");
      return;
    }
    const { pool, start } = ids;
    let size = 2 + Math.max(0, order.length - 1) * 2;
    for (let r = 0; r < order.length; r++) size += start[order[r]! + 1]! - start[order[r]!]!;
    this.ensure(size);
    const buf = this.buf;
    let len = this.len;
    buf[len++] = 0x5b; // [
    for (let r = 0; r < order.length; r++) {
      if (r > 0) {
        buf[len++] = 0x2c; // ,
        buf[len++] = 0x20;
      }
      const i = order[r]!;
      for (let k = start[i]!, end = start[i + 1]!; k < end; k++) buf[len++] = pool[k]!;
    }
    buf[len++] = 0x5d; // ]
    this.last = { order, ids, from: this.len, to: len };
    this.len = len;
    this.text(suffix + "\n");
  }

  /** The file's bytes so far. */
  bytes(): Uint8Array {
    return new Uint8Array(this.buf.buffer, this.buf.byteOffset, this.len);
  }

  private text(s: string): void {
    this.ensure(s.length * 3);
    this.len += Buffer.from(this.buf.buffer, this.buf.byteOffset, this.buf.length).write(s, this.len, "utf8");
  }

  private ensure(extra: number): void {
    if (this.len + extra <= this.buf.length) return;
    let cap = this.buf.length * 2;
    while (cap < this.len + extra) cap *= 2;
    // not zero-filled: every byte below len is copied in, and nothing reads past len
    const next = Buffer.allocUnsafe(cap);
    next.set(this.buf.subarray(0, this.len));
    this.buf = next;
  }
}

/**
 * The end of a rankings line: `}`, or `, "near_ties": [p, …]}` when some adjacent ranks of a model run scored
 * within the tie threshold, so the results checker accepts a CPU's reordering there and nowhere else
 * (docs/reproducibility.md). Exact runs never have near-ties recorded, so their lines are unchanged.
 */
export function lineEnd(nearTies: Int32Array | undefined): string {
  return nearTies && nearTies.length > 0 ? `, "near_ties": [${Array.from(nearTies).join(", ")}]}` : "}";
}

/** A store's ids as JSON-string bytes: id i is pool[start[i] .. start[i + 1]). */
export interface EncodedIds {
  pool: Uint8Array;
  start: Int32Array;
}
