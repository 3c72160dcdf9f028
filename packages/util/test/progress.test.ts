import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
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
    const bar = new Progress("Downloading x", { total: 2_097_152, unit: "bytes", delayMs: 0, enabled: true, stream: out.stream });
    bar.update(1_048_576);
    bar.finish();
    expect(out.text()).toContain("Downloading x [##############--------------] 50% 1.0/2.0 MB");
    expect(out.text().endsWith("\n")).toBe(true);
  });

  it("counts items against the total and marks a failure", () => {
    const out = sink();
    const bar = new Progress("ranking", { total: 4, delayMs: 0, enabled: true, stream: out.stream });
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
