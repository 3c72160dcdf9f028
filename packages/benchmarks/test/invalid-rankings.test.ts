// A strategy's ranking is validated in every experiment before any metric (rankChecked): a plugin
// returning a duplicate-index, short, out-of-range, fractional or NaN-scored ranking stops the run
// with exit 1, an error naming the strategy's key and the query, and nothing written. The plugins
// live in a temporary folder outside the repository and import @persode/core by name.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listFiles, pinnedDataEnv, spawnCli } from "./bench-helpers.js";

const JOURNAL = fileURLToPath(new URL("../../datasets/examples/journal/", import.meta.url));

/** rank(ctx) bodies of broken strategies, and what the error must say. */
const BROKEN: Record<string, { body: string; says: RegExp }> = {
  duplicate: {
    body: "const o = Int32Array.from({ length: ctx.size }, (_, i) => i); o[1] = o[0]; return o;",
    says: /memory index 0 appears twice/,
  },
  short: {
    body: "return Int32Array.from({ length: ctx.size - 1 }, (_, i) => i);",
    says: /returned \d+ indices for a store of \d+ memories/,
  },
  "out-of-range": {
    body: "const o = Int32Array.from({ length: ctx.size }, (_, i) => i); o[2] = ctx.size; return o;",
    says: /position 2 holds \d+, not a memory index/,
  },
  fractional: { body: "return Array.from({ length: ctx.size }, (_, i) => (i === 3 ? 0.5 : i));", says: /position 3 holds 0.5/ },
  nan: {
    body: "const s = Float64Array.from(ctx.similarity()); s[1] = NaN; return descendingOrder(s);",
    says: /rank\(\) failed: descendingOrder: score 1 of \d+ is NaN/,
  },
};

let root: string;
let env: Record<string, string>;

function plugin(kind: string): string {
  const path = join(root, "plugins", `${kind}.mjs`);
  writeFileSync(
    path,
    `import { descendingOrder, registerStrategy } from "@persode/core";\n` +
      `registerStrategy({ key: "broken ${kind}", slug: "broken-${kind}", description: "test", rank(ctx) { ${BROKEN[kind]!.body} } });\n`,
  );
  return path;
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "persode-invalid-rankings-"));
  mkdirSync(join(root, "plugins"));
  env = await pinnedDataEnv(join(root, "cache"));
});

afterAll(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

const runs: Array<[string, string, string[]]> = [
  ...Object.keys(BROKEN).map((k): [string, string, string[]] => ["exp3", k, ["exp3"]]),
  ["exp5", "duplicate", ["exp5", "--samples", "50"]],
  ["exp5", "out-of-range", ["exp5", "--samples", "50"]],
  ["exp6", "short", ["exp6", "--samples", "50"]],
  ["exp6", "nan", ["exp6", "--samples", "50"]],
  [
    "corpus",
    "duplicate",
    ["corpus", "--episodes", join(JOURNAL, "episodes.csv"), "--probes", join(JOURNAL, "probes.csv"), "--samples", "50"],
  ],
];

describe("an invalid ranking is refused in every experiment: exit 1, strategy and query named, nothing written", () => {
  for (const [target, kind, argv] of runs) {
    it(`${target}: a ${kind} ranking`, () => {
      const out = join(root, `out-${target}-${kind}`);
      const r = spawnCli([...argv, "--plugin", plugin(kind), "--out", out], env, root);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`strategy "broken ${kind}" on query "`);
      expect(r.stderr).toMatch(BROKEN[kind]!.says);
      expect(r.stderr).not.toMatch(/\n\s+at /);
      expect(listFiles(out)).toEqual([]);
    }, 60_000);
  }

  it("a valid plugin outside the repository imports @persode/core and runs (exit 0)", () => {
    const path = join(root, "plugins", "fine.mjs");
    writeFileSync(
      path,
      `import { descendingOrder, registerStrategy } from "@persode/core";\n` +
        `registerStrategy({ key: "outside", slug: "outside", description: "test", rank(ctx) { return descendingOrder(ctx.similarity()); } });\n`,
    );
    const out = join(root, "out-fine");
    const r = spawnCli(["exp3", "--plugin", path, "--out", out], env, root);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("outside");
  }, 60_000);
});
