import { defineConfig } from "vitest/config";

/**
 * The vitest configuration every package shares: tests under test/, a generous per-test timeout
 * (the suite runs on 2-core CI machines), no progress output, and a JSON report that scripts/test-summary.mjs sums
 * into the suite's closing line.
 */
export function packageTestConfig() {
  return defineConfig({
    test: {
      include: ["test/**/*.test.ts"],
      testTimeout: 60_000,
      hookTimeout: 120_000,
      reporters: ["default", "json"],
      outputFile: { json: "./.vitest-results.json" },
      // Runs spawned by tests inherit this: progress lines (drawn on a pipe every few seconds) would make
      // a slow machine's stderr differ from a fast one's. Progress itself is tested with its own stream.
      // The result cache is off too: a run a test starts computes (tests that check the cache turn it on themselves).
      env: { PERSODE_PROGRESS: "0", PERSODE_RESULT_CACHE: "0" },
    },
  });
}
