import { Writable } from "node:stream";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Progress } from "../src/index.js";

/** A stream that records what the bar writes. */
function sink(): { stream: Writable; text: () => string } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, cb) {
      chunks.push(chunk.toString());
      cb();
    },
  });
  return { stream, text: () => chunks.join("") };
}

describe("Progress", () => {
  it("draws bytes in MB with a percentage and ends the line", () => {
    const out = sink();
    const bar = new Progress("Downloading x", {
      total: 2_097_152,
      unit: "bytes",
      delayMs: 0,
      enabled: true,
      lines: false,
      stream: out.stream,
    });
    bar.update(1_048_576);
    bar.finish();
    expect(out.text()).toContain("Downloading x [##############--------------] 50% 1.0/2.0 MB");
    expect(out.text().endsWith("\n")).toBe(true);
  });

  it("counts items against the total and marks a failure", () => {
    const out = sink();
    const bar = new Progress("ranking", { total: 4, delayMs: 0, enabled: true, lines: false, stream: out.stream });
    bar.tick();
    bar.finish(false);
    expect(out.text()).toContain("ranking [#######---------------------] 1/4");
    expect(out.text().endsWith(" (failed)\n")).toBe(true);
  });

  it("stays silent when disabled and for work shorter than its delay", () => {
    const out = sink();
    const off = new Progress("x", { total: 3, delayMs: 0, enabled: false, stream: out.stream });
    off.tick(3);
    off.finish();
    const quick = new Progress("y", { total: 3, delayMs: 60_000, enabled: true, stream: out.stream });
    quick.tick(3);
    quick.finish();
    expect(out.text()).toBe("");
  });
});

describe("Progress on a pipe or log (not a TTY): a plain line every few seconds, with the time left", () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllEnvs();
  });

  it("one line per interval with count, percent, rate and ETA; a closing line; nothing before the first interval", () => {
    vi.useFakeTimers({ now: 0 });
    const out = sink();
    const bar = new Progress("exp5 (hashing): ranking", { total: 1000, enabled: true, stream: out.stream });
    bar.tick(50);
    vi.setSystemTime(4_000);
    bar.tick(50);
    expect(out.text()).toBe("");
    vi.setSystemTime(5_000);
    bar.tick(100); // 200 of 1000 in 5 s: 40/s, 20 s left
    vi.setSystemTime(6_000);
    bar.tick(100); // within the interval: no line
    vi.setSystemTime(10_000);
    bar.tick(100); // 400 in 10 s: 15 s left
    vi.setSystemTime(80_000);
    bar.tick(100); // 500 in 80 s: 80 s left
    vi.setSystemTime(90_000);
    bar.finish();
    expect(out.text().split("\n")).toEqual([
      "exp5 (hashing): ranking: 200/1000 (20%), 40/s, ETA 20 s",
      "exp5 (hashing): ranking: 400/1000 (40%), 40/s, ETA 15 s",
      "exp5 (hashing): ranking: 500/1000 (50%), 6/s, ETA 1 min 20 s",
      "exp5 (hashing): ranking: done, 500/1000 in 90.0 s",
      "",
    ]);
    expect(out.text().includes("\r") || out.text().includes("\u001b")).toBe(false);
  });

  it("PERSODE_PROGRESS=0 turns it off, =1 on; any other value is an error naming the variable", () => {
    vi.useFakeTimers({ now: 0 });
    for (const [value, drawn] of [
      ["0", false],
      ["off", false],
      ["1", true],
    ] as const) {
      vi.stubEnv("PERSODE_PROGRESS", value);
      const out = sink();
      const bar = new Progress("x", { total: 2, stream: out.stream });
      vi.setSystemTime(Date.now() + 6_000);
      bar.tick();
      expect(out.text() !== "", value).toBe(drawn);
    }
    vi.stubEnv("PERSODE_PROGRESS", "sometimes");
    expect(() => new Progress("x")).toThrow('PERSODE_PROGRESS="sometimes" is not a boolean');
  });
});
