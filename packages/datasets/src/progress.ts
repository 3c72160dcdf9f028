/** A minimal one-line download progress bar on stderr; silent unless enabled (by default only when stderr is a TTY). */
export class ProgressBar {
  private lastDraw = 0;
  private drawn = false;

  constructor(
    private readonly label: string,
    private readonly total: number | undefined,
    private readonly enabled: boolean = process.stderr.isTTY === true,
    private readonly stream: NodeJS.WritableStream = process.stderr,
  ) {}

  /** Report the number of bytes received so far (redraws at most every 100 ms). */
  update(received: number, force = false): void {
    if (!this.enabled) return;
    const now = Date.now();
    if (!force && now - this.lastDraw < 100) return;
    this.lastDraw = now;
    this.drawn = true;
    const mb = (n: number) => (n / 1_048_576).toFixed(1);
    let line: string;
    if (this.total && this.total > 0) {
      const frac = Math.min(1, received / this.total);
      const width = 24;
      const full = Math.round(frac * width);
      line = `${this.label} [${"#".repeat(full)}${"-".repeat(width - full)}] ${Math.floor(frac * 100)}% ${mb(received)}/${mb(this.total)} MB`;
    } else {
      line = `${this.label} ${mb(received)} MB`;
    }
    this.stream.write(`\r${line}\x1b[K`);
  }

  /** Finish the bar: draw the final state and end the line. */
  finish(received: number, ok: boolean): void {
    if (!this.enabled) return;
    if (ok) this.update(received, true);
    if (this.drawn) this.stream.write(ok ? "\n" : " (failed)\n");
  }
}
