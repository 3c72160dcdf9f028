// The build's one-file bundle of @stdlib's t CDF and padjust (scripts/bundle-stdlib.mjs, loaded by src/stats/stdlib.ts in
// dist/) computes the same bits as the packages it was made from, which the tests on the sources load.
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { stdlib } from "../src/stats/stdlib.js";

const BUNDLE = fileURLToPath(new URL("../dist/stats/stdlib-bundle.cjs", import.meta.url));
const require = createRequire(import.meta.url);

describe("the bundled @stdlib functions", () => {
  it("the build made the bundle, and it is what dist/ loads", () => {
    expect(existsSync(BUNDLE), `${BUNDLE} is missing: build first with \`pnpm --filter @persode/benchmarks build\``).toBe(true);
    expect(Object.keys(require(BUNDLE)).sort()).toEqual(["padjust", "tCdf"]);
  });

  it("t CDF: bit for bit the package's, over t from −40 to 40 and df from 1 to 2 000", () => {
    const bundled = require(BUNDLE).tCdf as (x: number, v: number) => number;
    const { tCdf } = stdlib();
    let compared = 0;
    for (const df of [1, 2, 3, 4.5, 9, 29, 99, 503, 1999]) {
      for (let x = -40; x <= 40; x += 0.37) {
        const want = tCdf(x, df);
        expect(Object.is(bundled(x, df), want), `t = ${x}, df = ${df}`).toBe(true);
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(1900);
    expect(bundled(-2.1, 100)).toBeCloseTo(0.0191226, 6); // a textbook value: the bundle is not a constant
  });

  it("Holm adjustment: the package's, on families of 1 to 40 p-values", () => {
    const bundled = require(BUNDLE).padjust as (p: number[], method: string) => number[];
    const { padjust } = stdlib();
    let s = 7;
    const next = () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 4294967296;
    for (let m = 1; m <= 40; m++) {
      const ps = Array.from({ length: m }, () => next() ** 3);
      expect(bundled([...ps], "holm")).toEqual(padjust([...ps], "holm"));
    }
    expect(bundled([0.01, 0.04, 0.03], "holm")).toEqual([0.03, 0.06, 0.06]);
  });
});
