// `pnpm bench` publishes results, manifest, figures, report and README together: a run that fails
// (a bad plugin) or is interrupted (SIGINT) leaves the previous results and README exactly as they
// were, leaves no staging folder behind, and `pnpm report --check` still passes.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listFiles, pinnedDataEnv } from "./bench-helpers.js";

const BENCH = fileURLToPath(new URL("../../../scripts/bench.mjs", import.meta.url));
const REPORT = fileURLToPath(new URL("../../report/dist/cli.js", import.meta.url));

let root: string;
let env: Record<string, string>;

function run(script: string, argv: string[]) {
  const r = spawnSync(process.execPath, [script, ...argv], {
    cwd: root,
    env: { ...process.env, ...env },
    encoding: "utf8",
    timeout: 240_000,
  });
  if (r.error) throw r.error;
  return { code: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr };
}

/** Every published file (results/ and README.md) with its bytes. */
function snapshot(): Map<string, string> {
  const files = new Map<string, string>();
  for (const f of listFiles(join(root, "results")))
    if (f !== "timings.json") files.set(`results/${f}`, readFileSync(join(root, "results", f), "latin1"));
  files.set("README.md", readFileSync(join(root, "README.md"), "latin1"));
  return files;
}

function plugin(name: string, rankBody: string): string {
  const path = join(root, `${name}.mjs`);
  writeFileSync(
    path,
    `import { descendingOrder, registerStrategy } from "@persode/core";\nregisterStrategy({ key: "${name}", slug: "${name}", description: "test", rank(ctx) { ${rankBody} } });\n`,
  );
  return path;
}

let before: Map<string, string>;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "persode-staging-"));
  env = await pinnedDataEnv(join(root, "cache"));
  writeFileSync(join(root, "README.md"), "# Project\n\n## Results\n\n<!-- results:begin -->\n<!-- results:end -->\n");
  // The hashing half: staging is what is under test, and this temporary cache holds no model.
  const first = run(BENCH, ["all", "--embedder", "hashing", "--samples", "100"]);
  if (first.code !== 0) throw new Error(`the first bench all failed:\n${first.stderr}`);
  before = snapshot();
}, 300_000);

afterAll(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

function expectUnchanged(): void {
  const after = snapshot();
  expect([...after.keys()]).toEqual([...before.keys()]);
  for (const [f, bytes] of before) expect(after.get(f) === bytes, f).toBe(true);
  expect(readdirSync(root).filter((n) => /staging|replaced/.test(n))).toEqual([]);
  expect(readdirSync(join(root, "results")).filter((n) => n.startsWith(".persode-"))).toEqual([]);
  const check = run(REPORT, ["--check"]);
  expect(check.stderr).toBe("");
  expect(check.code).toBe(0);
}

describe("a failed or interrupted `pnpm bench all` leaves the previous results intact", () => {
  it("the first run published results and the README section", () => {
    expect(before.has("results/manifest.json")).toBe(true);
    expect(before.has("results/report.html")).toBe(true);
    expect(before.get("README.md")).toContain("(results/figures/");
  });

  it("a plugin whose ranking is invalid (Exp. 3 fails after Exp. 1 and 2 ran): exit 1, nothing published", () => {
    const r = run(BENCH, [
      "all",
      "--embedder",
      "hashing",
      "--samples",
      "100",
      "--seed",
      "7",
      "--plugin",
      plugin("broken", "return new Int32Array(ctx.size);"),
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('strategy "broken"');
    expectUnchanged();
  }, 240_000);

  it("SIGINT in the middle of the run: exit 130, nothing published", () => {
    const r = run(BENCH, [
      "all",
      "--embedder",
      "hashing",
      "--samples",
      "100",
      "--seed",
      "7",
      "--plugin",
      plugin("interrupt", 'process.kill(process.pid, "SIGINT"); return descendingOrder(ctx.similarity());'),
    ]);
    expect(r.code).toBe(130);
    expect(r.stderr).toContain("interrupted (SIGINT): nothing was published");
    expectUnchanged();
  }, 240_000);

  it("a successful single-experiment run re-renders the report, so the manifest still agrees; a file it would change only in generated_by is left as it was", () => {
    const r = run(BENCH, ["exp2"]);
    expect(r.code).toBe(0);
    expect(JSON.parse(readFileSync(join(root, "results", "exp2_memory_scoring.json"), "utf8")).meta.generated_by).toBe("pnpm bench all");
    expectUnchanged();
    expect(run(REPORT, ["--check"]).code).toBe(0);
    expect(existsSync(join(root, "results", "exp5_locomo.json"))).toBe(true);
  }, 240_000);
});
