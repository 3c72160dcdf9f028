import { parseEnvFlag } from "./env-flag.js";

/** What a progress bar counts: items (shown as done/total and a rate) or bytes (shown in MB and percent). */
export type ProgressUnit = "items" | "bytes";

/** Options of a progress bar; every field has a default. */
export interface ProgressOptions {
  /** The expected total; unknown totals show the count only. */
  total?: number;
  /** What is counted (default "items"). */
  unit?: ProgressUnit;
  /** Draw at all (default: unless PERSODE_PROGRESS=0). */
  enabled?: boolean;
  /**
   * Plain lines instead of a redrawn bar: one line every `intervalMs`, for logs and pipes (default: when
   * the stream is not a TTY).
   */
  lines?: boolean;
  /** Lines mode: the interval between lines (default 5 s). */
  intervalMs?: number;
  /** Draw only once the work has run this long (default 500 ms for the bar, `intervalMs` for lines); shorter work leaves no trace. */
  delayMs?: number;
  /** Where to draw (default stderr). */
  stream?: NodeJS.WritableStream;
}

/** "ETA 42 s", "ETA 3 min 05 s", "ETA 2 h 10 min": the time left at the rate so far. */
function formatEta(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return "ETA unknown";
  const s = Math.round(seconds);
  if (s < 60) return `ETA ${s} s`;
  if (s < 3600) return `ETA ${Math.floor(s / 60)} min ${String(s % 60).padStart(2, "0")} s`;
  return `ETA ${Math.floor(s / 3600)} h ${String(Math.floor((s % 3600) / 60)).padStart(2, "0")} min`;
}

/**
 * The one progress bar of the tree, on stderr, for work that runs longer than `delayMs`, with the rate
 * and the time left: on a TTY a single line redrawn at most every 100 ms; on a pipe or log (CI) a plain
 * line every few seconds, so a long run is never silent. PERSODE_PROGRESS=0 turns it off.
 */
export class Progress {
  private count = 0;
  private readonly start = Date.now();
  private lastDraw = 0;
  private drawn = false;
  private readonly total: number | undefined;
  private readonly unit: ProgressUnit;
  private readonly enabled: boolean;
  private readonly lines: boolean;
  private readonly intervalMs: number;
  private readonly delayMs: number;
  private readonly stream: NodeJS.WritableStream;

  constructor(
    private readonly label: string,
    options: ProgressOptions = {},
  ) {
    this.total = options.total;
    this.unit = options.unit ?? "items";
    this.stream = options.stream ?? process.stderr;
    this.enabled =
      options.enabled ?? (process.env.PERSODE_PROGRESS === undefined || parseEnvFlag("PERSODE_PROGRESS", process.env.PERSODE_PROGRESS));
    this.lines = options.lines ?? (this.stream as { isTTY?: boolean }).isTTY !== true;
    this.intervalMs = options.intervalMs ?? 5000;
    this.delayMs = options.delayMs ?? (this.lines ? this.intervalMs : 500);
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
    if (now - this.start < this.delayMs || now - this.lastDraw < (this.lines ? this.intervalMs : 100)) return;
    this.lastDraw = now;
    this.draw(now);
  }

  /** End the bar: draw the final state (and " (failed)" when `ok` is false) if the work ran past the delay. */
  finish(ok = true): void {
    if (!this.enabled) return;
    const now = Date.now();
    if (!this.drawn && now - this.start < this.delayMs) return;
    if (this.lines) {
      if (this.drawn)
        this.stream.write(`${this.label}: ${ok ? "done" : "failed"}, ${this.amount()} in ${((now - this.start) / 1000).toFixed(1)} s\n`);
      return;
    }
    if (ok) this.draw(now);
    if (this.drawn) this.stream.write(ok ? "\n" : " (failed)\n");
  }

  /** What has been done, as the bar states it ("120/1535", "12.0/80.0 MB"). */
  private amount(): string {
    const mb = (n: number) => (n / 1_048_576).toFixed(1);
    const total = this.total !== undefined && this.total > 0 ? this.total : undefined;
    if (this.unit === "bytes") return total ? `${mb(this.count)}/${mb(total)} MB` : `${mb(this.count)} MB`;
    return total ? `${this.count}/${total}` : String(this.count);
  }

  /** The time left at the rate so far, when the total is known. */
  private eta(now: number): string {
    const total = this.total !== undefined && this.total > 0 ? this.total : undefined;
    if (!total || this.count <= 0) return "";
    const seconds = ((now - this.start) / 1000) * ((total - this.count) / this.count);
    return `, ${formatEta(Math.max(0, seconds))}`;
  }

  private draw(now: number): void {
    if (this.lines) {
      const total = this.total !== undefined && this.total > 0 ? this.total : undefined;
      const pct = total ? ` (${Math.floor(Math.min(1, this.count / total) * 100)}%)` : "";
      const rate = this.unit === "items" ? `, ${(this.count / Math.max(0.001, (now - this.start) / 1000)).toFixed(0)}/s` : "";
      this.stream.write(`${this.label}: ${this.amount()}${pct}${rate}${this.eta(now)}\n`);
      this.drawn = true;
      return;
    }
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
    this.stream.write(`\r${line}${this.eta(now)}\x1b[K`);
    this.drawn = true;
  }
}
