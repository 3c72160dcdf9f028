// scripts/ensure-built.mjs decides whether `pnpm bench` must rebuild before running compiled code:
// a package is stale when its dist/ is missing or any source (src/, data/, package.json,
// tsconfig.build.json) is newer than its last build.
import { mkdirSync, mkdtempSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "./helpers.js";

const { stalePackages } = (await import(pathToFileURL(join(REPO_ROOT, "scripts", "ensure-built.mjs")).href)) as {
  stalePackages(root: string): string[];
};

function file(path: string, mtimeSeconds: number): void {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, "x");
  utimesSync(path, mtimeSeconds, mtimeSeconds);
}

describe("scripts/ensure-built.mjs", () => {
  it("flags a package with no dist, or with a source newer than its build, and nothing else", () => {
    const root = mkdtempSync(join(tmpdir(), "persode-built-"));
    file(join(root, "packages", "fresh", "src", "a.ts"), 1000);
    file(join(root, "packages", "fresh", "dist", "index.js"), 2000);
    file(join(root, "packages", "edited", "src", "deep", "b.ts"), 3000);
    file(join(root, "packages", "edited", "dist", "index.js"), 2000);
    file(join(root, "packages", "data-changed", "data", "lexicon.json"), 3000);
    file(join(root, "packages", "data-changed", "dist", "index.js"), 2000);
    file(join(root, "packages", "never-built", "src", "c.ts"), 1000);
    expect(stalePackages(root)).toEqual(["data-changed", "edited", "never-built"]);
  });

  it("a build stamp newer than the sources marks a package fresh even when turbo restored older files", () => {
    const root = mkdtempSync(join(tmpdir(), "persode-built-"));
    file(join(root, "packages", "p", "src", "a.ts"), 3000);
    file(join(root, "packages", "p", "dist", "index.js"), 2000);
    expect(stalePackages(root)).toEqual(["p"]);
    file(join(root, "packages", "p", "dist", ".build-stamp"), 4000);
    expect(stalePackages(root)).toEqual([]);
  });
});
