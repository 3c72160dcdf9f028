// `pnpm report --results OTHER_DIR` renders that folder's own report and leaves the repository's
// README.md alone; only --readme FILE (explicit) writes a README from another folder's numbers.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { BEGIN_MARKER } from "../src/markdown.js";
import { FIXTURE_RESULTS, tempWorkspace } from "./helpers.js";

const CLI = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
const ws = tempWorkspace();
const README = `# Project\n\n## Results\n\n${BEGIN_MARKER}\n<!-- results:end -->\n`;

function report(argv: string[]) {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: build first with \`pnpm --filter @persode/report build\``);
  return spawnSync(process.execPath, [CLI, ...argv], { cwd: ws.root, encoding: "utf8", timeout: 120_000 });
}

afterAll(() => rmSync(ws.root, { recursive: true, force: true }));

describe("pnpm report --results OTHER_DIR", () => {
  it("renders OTHER_DIR's report and leaves README.md untouched", () => {
    writeFileSync(ws.readme, README);
    cpSync(FIXTURE_RESULTS, join(ws.root, "other"), { recursive: true });
    const r = report(["--results", "other"]);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(existsSync(join(ws.root, "other", "report.html"))).toBe(true);
    expect(existsSync(join(ws.root, "other", "manifest.json"))).toBe(true);
    expect(readFileSync(ws.readme, "utf8")).toBe(README);
    expect(r.stdout).not.toContain("README.md");
    // --check on the other folder checks that folder only, not README.md against it
    expect(report(["--results", "other", "--check"]).status).toBe(0);
  }, 120_000);

  it("writes a README from another folder only when --readme names it explicitly", () => {
    writeFileSync(ws.readme, README);
    const r = report(["--results", "other", "--readme", "README.md"]);
    expect(r.status).toBe(0);
    expect(readFileSync(ws.readme, "utf8")).toContain("(other/figures/");
  }, 120_000);

  it("the repository's own results folder still renders README.md by default", () => {
    writeFileSync(ws.readme, README);
    const r = report(["--results", "./results"]);
    expect(r.status).toBe(0);
    expect(readFileSync(ws.readme, "utf8")).toContain("(results/figures/");
  }, 120_000);
});
