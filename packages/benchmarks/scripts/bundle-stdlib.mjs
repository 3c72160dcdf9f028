#!/usr/bin/env node
// The build step after tsc (`pnpm build`): @stdlib's Student-t CDF and p-value adjustment, with the ≈ 340 small
// modules they require, bundled into one CommonJS file, dist/stats/stdlib-bundle.cjs. It is the installed packages'
// own code, unchanged (no minification): loading it takes ≈ 15 ms, where resolving and loading the 345 modules one
// by one takes ≈ 170 ms of every run that computes a test (Exp. 5–8). src/stats/stdlib.ts loads it.
import { fileURLToPath } from "node:url";
import { build } from "rolldown";

/** The bundle's entry, as if it were a file of this package (so the packages resolve from here): what the bundle exports. */
const ENTRY = fileURLToPath(new URL("../stdlib-bundle-entry.js", import.meta.url));
const SOURCE = `export { default as tCdf } from "@stdlib/stats-base-dists-t-cdf";
export { default as padjust } from "@stdlib/stats-padjust";
`;

await build({
  input: ENTRY,
  platform: "node",
  logLevel: "warn",
  plugins: [
    {
      name: "stdlib-entry",
      resolveId: (id) => (id === ENTRY ? ENTRY : null),
      load: (id) => (id === ENTRY ? SOURCE : null),
    },
  ],
  output: { file: fileURLToPath(new URL("../dist/stats/stdlib-bundle.cjs", import.meta.url)), format: "cjs" },
});
