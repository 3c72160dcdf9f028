/** What a progress bar counts: items (shown as done/total and a rate) or bytes (shown in MB and percent). */
export type ProgressUnit = "items" | "bytes";

/** Options of a progress bar; every field has a default. */
export interface ProgressOptions {
  /** The expected total; unknown totals show the count only. */
  total?: number;
  /** What is counted (default "items"). */
  unit?: ProgressUnit;
  /** Draw at all (default: only when stderr is a TTY, so logs and CI stay clean). */
  enabled?: boolean;
  /** Draw only once the work has run this long (default 500 ms); shorter work leaves no trace. */
  delayMs?: number;
  /** Where to draw (default stderr). */
  stream?: NodeJS.WritableStream;
}

/**
 * The one progress bar of the tree: a single line on stderr, redrawn at most every 100 ms, for work
 * that runs longer than `delayMs`; its final state is drawn when it finishes.
 */
export class Progress {
  private count = 0;
  private readonly start = Date.now();
  private lastDraw = 0;
  private drawn = false;
  private readonly total: number | undefined;
  private readonly unit: ProgressUnit;
  private readonly enabled: boolean;
  private readonly delayMs: number;
  private readonly stream: NodeJS.WritableStream;

  constructor(
    private readonly label: string,
    options: ProgressOptions = {},
  ) {
    this.total = options.total;
    this.unit = options.unit ?? "items";
    this.enabled = options.enabled ?? process.stderr.isTTY === true;
    this.delayMs = options.delayMs ?? 500;
    this.stream = options.stream ?? process.stderr;
  }

  /** Advance by n. */
  tick(n = 1): void {
    this.update(this.count + n);
  }

  /** Set the amount done so far. */
  update(done: number): void {
    this.count = done;
    if (!this.enabled) return;
    const now = Date.now();
    if (now - this.start < this.delayMs || now - this.lastDraw < 100) return;
    this.lastDraw = now;
    this.draw(now);
  }

  /** End the bar: draw the final state (and " (failed)" when `ok` is false) if the work ran past the delay. */
  finish(ok = true): void {
    if (!this.enabled) return;
    const now = Date.now();
    if (!this.drawn && now - this.start < this.delayMs) return;
    if (ok) this.draw(now);
    if (this.drawn) this.stream.write(ok ? "\n" : " (failed)\n");
  }

  private draw(now: number): void {
    const total = this.total !== undefined && this.total > 0 ? this.total : undefined;
    const width = 28;
    const bar = (frac: number) => {
      const filled = Math.round(Math.min(1, frac) * width);
      return `[${"#".repeat(filled)}${"-".repeat(width - filled)}]`;
    };
    let line: string;
    if (this.unit === "bytes") {
      const mb = (n: number) => (n / 1_048_576).toFixed(1);
      line = total
        ? `${this.label} ${bar(this.count / total)} ${Math.floor(Math.min(1, this.count / total) * 100)}% ${mb(this.count)}/${mb(total)} MB`
        : `${this.label} ${mb(this.count)} MB`;
    } else {
      const rate = this.count / Math.max(0.001, (now - this.start) / 1000);
      line = `${this.label} ${total ? `${bar(this.count / total)} ${this.count}/${total}` : this.count} ${rate.toFixed(0)}/s`;
    }
    this.stream.write(`\r${line}\x1b[K`);
    this.drawn = true;
  }
}
