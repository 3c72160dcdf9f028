// @ts-check
import js from "@eslint/js";
import tseslint from "typescript-eslint";

// `pnpm lint` = this (typescript-eslint's recommended rules, no type information, so it stays fast)
// + knip (dead exports and files, unlisted or unused dependencies; knip.json) + scripts/check-refs.mjs.

/** Node's globals, for the plain .mjs scripts (TypeScript files get them from @types/node). */
const NODE_GLOBALS = Object.fromEntries(
  ["process", "console", "Buffer", "URL", "setTimeout", "clearTimeout", "setInterval", "clearInterval", "fetch", "performance"].map((g) => [
    g,
    "readonly",
  ]),
);

/**
 * Imports a package must not make: core and datasets know nothing of benchmarks/report; util, datasets and report never load the memory
 * model (and its ML runtime).
 */
const forbid = (...names) => ({
  "no-restricted-imports": [
    "error",
    {
      paths: names.map((name) => ({ name, message: "crosses a package boundary (README, Architecture)" })),
      patterns: names.map((n) => ({ group: [`${n}/*`], message: "crosses a package boundary (README, Architecture)" })),
    },
  ],
});

export default tseslint.config(
  { ignores: ["**/dist/**", "**/node_modules/**", "results/**", "artifacts/**", "**/.turbo/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  { files: ["**/*.mjs", "**/*.js"], languageOptions: { globals: NODE_GLOBALS } },
  {
    rules: {
      // `_name` marks a deliberately unused binding; `{ dropped, ...rest }` drops a key on purpose.
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", ignoreRestSiblings: true }],
    },
  },
  // Tests dig into parsed JSON fixtures and results files, whose shape is the thing under test.
  { files: ["packages/*/test/**"], rules: { "@typescript-eslint/no-explicit-any": "off" } },
  {
    files: ["packages/util/**"],
    rules: forbid("@persode/core", "@persode/datasets", "@persode/results", "@persode/benchmarks", "@persode/report"),
  },
  // The results format is shared by the writer (benchmarks) and the reader (report): it knows neither, nor the model.
  { files: ["packages/results/**"], rules: forbid("@persode/core", "@persode/datasets", "@persode/benchmarks", "@persode/report") },
  { files: ["packages/core/**"], rules: forbid("@persode/datasets", "@persode/results", "@persode/benchmarks", "@persode/report") },
  { files: ["packages/datasets/**"], rules: forbid("@persode/core", "@persode/results", "@persode/benchmarks", "@persode/report") },
  // Datasets' own tests may load a provisioned model through core (a dev dependency: never installed with the loaders).
  { files: ["packages/datasets/test/**"], rules: forbid("@persode/benchmarks", "@persode/report") },
  { files: ["packages/report/**"], rules: forbid("@persode/core", "@persode/datasets", "@persode/benchmarks") },
  { files: ["packages/benchmarks/**"], rules: forbid("@persode/report") },
);
