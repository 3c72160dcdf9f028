/**
 * The @stdlib functions the tests call (the Student-t CDF, Holm's adjustment), loaded once. The build bundles
 * both packages into dist/stats/stdlib-bundle.cjs (scripts/bundle-stdlib.mjs: their own code in one file, ≈ 15 ms
 * to load instead of ≈ 170 ms for 345 modules); where it is absent (tests running on the sources) the packages
 * themselves are loaded. Either way the same installed code runs, so the values are the same bits.
 */
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import type tCdfFn from "@stdlib/stats-base-dists-t-cdf";
import type padjustFn from "@stdlib/stats-padjust";

/** The functions, by the names the bundle exports them under. */
interface Stdlib {
  tCdf: typeof tCdfFn;
  padjust: typeof padjustFn;
}

const BUNDLE = new URL("./stdlib-bundle.cjs", import.meta.url);

let loaded: Stdlib | undefined;

/** The functions: from the bundle when the build made one, else from the packages. */
export function stdlib(): Stdlib {
  if (loaded) return loaded;
  const require = createRequire(import.meta.url);
  loaded = existsSync(BUNDLE)
    ? (require(fileURLToPath(BUNDLE)) as Stdlib)
    : { tCdf: require("@stdlib/stats-base-dists-t-cdf") as typeof tCdfFn, padjust: require("@stdlib/stats-padjust") as typeof padjustFn };
  return loaded;
}
