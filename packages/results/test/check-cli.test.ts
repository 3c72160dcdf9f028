// `pnpm results:check DIR`: the committed side read from git, untracked and git-ignored files, README, and
// the exit codes 0 (reproduced), 1 (not reproduced) and 2 (usage error).
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { main } from "../src/check-cli.js";
import { reproducibilityOf } from "../src/reproducibility.js";

let repo: string;
const git = (...args: string[]) => execFileSync("git", ["-C", repo, ...args], { stdio: "pipe" });

function doc(recall: number, hashing = 0.5) {
  const d = {
    runs: {
      hashing: { embedder: { name: "hashing", id: "h", dim: 256 }, strategies: { s: { "recall@3": hashing } } },
      m: { embedder: { name: "minilm", model: "x/m", id: "m", dim: 384 }, strategies: { s: { "recall@3": recall } } },
    },
  };
  return JSON.stringify({ ...d, meta: { reproducibility: reproducibilityOf(d) } }, null, 2) + "\n";
}

function run(...argv: string[]): { code: number; out: string } {
  let out = "";
  const o = vi.spyOn(process.stdout, "write").mockImplementation((c) => ((out += String(c)), true));
  const e = vi.spyOn(process.stderr, "write").mockImplementation((c) => ((out += String(c)), true));
  try {
    return { code: main(argv, repo), out };
  } finally {
    o.mockRestore();
    e.mockRestore();
  }
}

beforeAll(() => {
  repo = mkdtempSync(join(tmpdir(), "persode-check-cli-"));
  git("init", "-q");
  git("config", "user.email", "t@example.org");
  git("config", "user.name", "t");
  mkdirSync(join(repo, "results"));
  writeFileSync(join(repo, "results", "exp6_epirec.json"), doc(0.8433));
  writeFileSync(join(repo, "README.md"), "recall 0.8433\n");
  mkdirSync(join(repo, "docs"));
  writeFileSync(join(repo, "docs", "results.md"), "recall 0.8433 of 504 probes\n");
  writeFileSync(join(repo, ".gitignore"), "results/timings.json\n");
  git("add", ".");
  git("commit", "-q", "-m", "results");
});

afterAll(() => rmSync(repo, { recursive: true, force: true }));

describe("pnpm results:check", () => {
  it("exits 0 on the committed results themselves", () => {
    const r = run("results", "--readme", "README.md");
    expect(r.code).toBe(0);
    expect(r.out).toContain("2 files — 2 byte-identical, 0 within the contract's tolerance, 0 refused — reproduced");
  });

  it("exits 0 when a model-derived value moved within tolerance, printing the largest deviation", () => {
    writeFileSync(join(repo, "results", "exp6_epirec.json"), doc(0.8433 + 2e-7));
    const r = run("results");
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/within\s+exp6_epirec\.json \[model\] 1 value changed; largest \|Δ\| 2\.00e-7 at runs\.m\.strategies\.s\["recall@3"\] \(metric, tolerance 0\.00200\)/);
  });

  it("exits 1 on an exact value moved, naming file, path and both values", () => {
    writeFileSync(join(repo, "results", "exp6_epirec.json"), doc(0.8433, 0.5000001));
    const r = run("results");
    expect(r.code).toBe(1);
    expect(r.out).toContain("exp6_epirec.json: runs.hashing.strategies.s[\"recall@3\"]: committed 0.5, now 0.5000001");
    writeFileSync(join(repo, "results", "exp6_epirec.json"), doc(0.8433));
  });

  it("exits 1 on an untracked file in results/, but ignores git-ignored ones", () => {
    writeFileSync(join(repo, "results", "timings.json"), "{}\n");
    expect(run("results").code).toBe(0);
    writeFileSync(join(repo, "results", "new.json"), "{}\n");
    const r = run("results");
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/added +new\.json \[exact\]/);
    rmSync(join(repo, "results", "new.json"));
  });

  it("exits 1 when README's numbers changed though no model-derived value moved", () => {
    writeFileSync(join(repo, "README.md"), "recall 0.8434\n");
    expect(run("results", "--readme", "README.md").code).toBe(1);
    writeFileSync(join(repo, "README.md"), "recall 0.8433\n");
  });

  it("--doc checks a generated document like the README: identical passes, an edited number fails naming the file", () => {
    const ok = run("results", "--readme", "README.md", "--doc", "docs/results.md");
    expect(ok.code).toBe(0);
    expect(ok.out).toContain("3 files — 3 byte-identical");
    writeFileSync(join(repo, "docs", "results.md"), "recall 0.8434 of 504 probes\n");
    const bad = run("results", "--doc", "docs/results.md");
    expect(bad.code).toBe(1);
    expect(bad.out).toContain("docs/results.md");
    writeFileSync(join(repo, "docs", "results.md"), "recall 0.8433 of 504 probes\n");
    expect(run("results", "--doc", join("docs", "no-such-document.md")).code).toBe(2);
  });

  it("exits 2 on usage errors", () => {
    expect(run().code).toBe(2);
    expect(run("no-such-folder").code).toBe(2);
    expect(run("results", "--bogus").code).toBe(2);
    expect(run("results", "--against", "no-such-rev").code).toBe(2);
    expect(run("results", "--readme", "missing.md").code).toBe(2);
  });
});
