// scripts/check-links.mjs, part of `pnpm lint`: run on a throw-away workspace, it must pass when every
// relative link and #anchor of README.md, docs/ and the package READMEs resolves, and fail naming the
// file, line and target of a link to a missing file or a missing heading; the repository itself passes.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "./helpers.js";

const SCRIPT = join(REPO_ROOT, "scripts", "check-links.mjs");

function workspace(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), "persode-links-"));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, ".."), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

function run(root: string) {
  const r = spawnSync(process.execPath, [SCRIPT, root], { encoding: "utf8" });
  return { code: r.status, stderr: r.stderr };
}

const GOOD = {
  "README.md":
    "# P\n\nSee [the spec](docs/spec.md#2-scoring), [core](packages/core/README.md), [here](#p) and [a " +
    "site](https://example.org/x).\n\n```md\n[inside code](nowhere.md)\n```\n",
  "docs/spec.md":
    "# Spec\n\n## 2. Scoring\n\n## Notes\n\n## Notes\n\nBack to [the README](../README.md#p) and [the second notes](#notes-1).\n",
  "packages/core/README.md": "# core\n\n[Spec](../../docs/spec.md) and `[not a link](missing.md)`.\n",
};

describe("scripts/check-links.mjs", () => {
  it("passes a workspace whose relative links and anchors all resolve (code blocks, code spans and other sites are not followed)", () => {
    expect(run(workspace(GOOD))).toEqual({ code: 0, stderr: "" });
  });

  it("fails on a link to a missing file, naming file, line and target", () => {
    const r = run(workspace({ ...GOOD, "docs/spec.md": GOOD["docs/spec.md"] + "\nSee [results](results.md).\n" }));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("docs/spec.md:11: results.md — docs/results.md does not exist");
  });

  it("fails on an anchor that names no heading of its file", () => {
    const r = run(workspace({ ...GOOD, "packages/core/README.md": "# core\n\n[Spec](../../docs/spec.md#3-analyzer)\n" }));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      "packages/core/README.md:3: ../../docs/spec.md#3-analyzer — docs/spec.md has no heading with the anchor #3-analyzer",
    );
  });

  it("passes on the repository's own README.md, docs/ and package READMEs", () => {
    expect(run(REPO_ROOT)).toEqual({ code: 0, stderr: "" });
  });
});
