// The supervisor of a `pnpm bench` run (src/supervise.ts) removes the run's staging folder once the run's thread has
// ended, so a write still in flight when a stop signal discarded the folder cannot leave it behind.
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runSupervised } from "../src/supervise.js";

const root = mkdtempSync(join(tmpdir(), "persode-supervise-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const STAGING = new URL("../dist/staging.js", import.meta.url).href;

describe("runSupervised", () => {
  it("removes a staging folder the run reported, even one created again after the run's own discard", async () => {
    const out = join(root, "out");
    const script = join(root, "late-write.mjs");
    writeFileSync(
      script,
      `import { mkdirSync, writeFileSync } from "node:fs";
import { StagedResults } from ${JSON.stringify(STAGING)};
const staged = StagedResults.begin(process.argv[2]);
writeFileSync(process.argv[2] + "/mine.txt", "the user's\\n");
staged.discard();
// what a write still in flight at a stop signal does after the discard: the folder is back, with a file
mkdirSync(staged.dir);
writeFileSync(staged.dir + "/late.tmp", "x");
process.exit(130);
`,
    );
    expect(await runSupervised(script, [out])).toBe(130);
    expect(readdirSync(out)).toEqual(["mine.txt"]);
  });

  it("leaves a folder alone that the run did not report as its staging", async () => {
    const out = join(root, "other");
    const script = join(root, "no-staging.mjs");
    writeFileSync(
      script,
      `import { mkdirSync } from "node:fs";
mkdirSync(process.argv[2] + "/.persode-staging-" + process.pid, { recursive: true });
process.exit(1);
`,
    );
    expect(await runSupervised(script, [out])).toBe(1);
    expect(readdirSync(out)).toEqual([`.persode-staging-${process.pid}`]);
  });
});
