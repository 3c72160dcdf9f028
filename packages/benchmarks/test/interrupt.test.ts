// A stop signal written to the interrupt file (what scripts/bench.mjs does when it receives one) is
// seen between chunks of long synchronous work, which then throws Interrupted; and nothing is
// published once it has arrived. (Own file: a noted interrupt stays for the rest of the process.)
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { writeFileAtomic } from "@persode/util";
import { Interrupted, checkInterrupt } from "../src/interrupt.js";
import { StagedResults } from "../src/staging.js";
import { resampleTable } from "../src/stats/bootstrap.js";
import { drawSignFlips } from "../src/stats/randomization.js";

const dir = mkdtempSync(join(tmpdir(), "persode-interrupt-"));
const flag = join(dir, "flag");
process.env.PERSODE_INTERRUPT_FILE = flag; // as scripts/bench.mjs sets it for the run
afterAll(() => {
  delete process.env.PERSODE_INTERRUPT_FILE;
  rmSync(dir, { recursive: true, force: true });
});

describe("the interrupt file stops long work between chunks", () => {
  it("no file, or a file without a signal's name: work goes on", () => {
    expect(() => checkInterrupt()).not.toThrow();
    writeFileSync(flag, "nonsense");
    expect(() => resampleTable({ a: [0, 1, 1, 0] }, { samples: 1000, seed: 1 }, "t")).not.toThrow();
  });

  it("an already-published run is unaffected; a run staged before the signal publishes nothing after it", async () => {
    const out = join(dir, "out");
    mkdirSync(out);
    writeFileSync(join(out, "exp1.json"), "old\n");
    const staged = StagedResults.begin(out);
    await writeFileAtomic(join(staged.dir, "exp1.json"), "new\n");
    writeFileSync(flag, "SIGTERM\n");
    expect(() => staged.publish()).toThrow(Interrupted);
    staged.discard();
    expect(readFileSync(join(out, "exp1.json"), "utf8")).toBe("old\n");
    expect(readdirSync(out)).toEqual(["exp1.json"]);
  });

  it("inside the bootstrap and the sign-flip draws", () => {
    const xs = Float64Array.from({ length: 500 }, (_, i) => i % 3);
    expect(() => resampleTable({ a: xs }, { samples: 100_000, seed: 1 }, "t")).toThrow(new Interrupted("SIGTERM"));
    expect(() => drawSignFlips(500, { samples: 100_000, seed: 1 }, "t")).toThrow(/interrupted \(SIGTERM\)/);
  });
});
