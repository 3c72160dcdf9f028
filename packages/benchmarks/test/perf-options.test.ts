// `pnpm bench:perf` bounds its numeric options too, refusing an out-of-range value up front (exit 2)
// with the bound named, before any timing run starts.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const PERF = fileURLToPath(new URL("../dist/perf.js", import.meta.url));

describe("bench:perf option bounds", () => {
  for (const [args, message] of [
    [["--repeat", "1000"], "--repeat must be at most 100, got 1000"],
    [["--repeat", "0"], "--repeat must be at least 1, got 0"],
    [["--embedding", "--limit", "99999999"], "--limit must be at most 1000000, got 99999999"],
  ] as const) {
    it(args.join(" "), () => {
      const r = spawnSync(process.execPath, [PERF, ...args], { encoding: "utf8", timeout: 30_000 });
      expect(r.stderr).toContain(message);
      expect(r.stdout).toBe("");
      expect(r.status).toBe(2);
    });
  }
});
