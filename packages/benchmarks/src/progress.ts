/**
 * A minimal progress bar on stderr, drawn only when stderr is a TTY (so logs and CI stay clean)
 * and only for steps that run longer than half a second.
 */
export class Progress {
  private done_ = 0;
  private readonly start = Date.now();
  private lastDraw = 0;
  private drawn = false;

  constructor(
    private readonly label: string,
    private readonly total: number,
    private readonly stream: NodeJS.WriteStream = process.stderr,
  ) {}

  /** Advance by n items. */
  tick(n = 1): void {
    this.done_ += n;
    const now = Date.now();
    if (!this.stream.isTTY || now - this.start < 500 || now - this.lastDraw < 100) return;
    this.lastDraw = now;
    this.draw(now);
  }

  /** Finish the bar (prints a final line only if a bar was drawn). */
  done(): void {
    if (this.drawn) {
      this.draw(Date.now());
      this.stream.write("\n");
    }
  }

  private draw(now: number): void {
    const frac = this.total > 0 ? Math.min(1, this.done_ / this.total) : 1;
    const width = 28;
    const filled = Math.round(frac * width);
    const rate = this.done_ / Math.max(0.001, (now - this.start) / 1000);
    this.stream.write(`\r${this.label} [${"#".repeat(filled)}${"-".repeat(width - filled)}] ${this.done_}/${this.total} ${rate.toFixed(0)}/s`);
    this.drawn = true;
  }
}
