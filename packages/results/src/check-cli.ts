#!/usr/bin/env node
/**
 * `pnpm results:check DIR [--against REV] [--readme FILE] [--doc FILE …]`: does the results folder DIR
 * reproduce the committed `results/` (and README.md, and each generated document such as
 * docs/results.md) under the reproducibility contract (docs/reproducibility.md)?
 * Exit 0 when it does, 1 when it does not (each refused value named with its file, JSON path, both values
 * and the tolerance), 2 on a usage error. The committed side is read from git at REV (default HEAD), so
 * DIR may be `results/` itself after `pnpm bench all`.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { checkResults, type CheckReport, type FileTree } from "./check.js";
import { CONTRACT_DOC } from "./reproducibility.js";

const USAGE = `usage: pnpm results:check DIR [--against REV] [--readme FILE] [--doc FILE …]
  DIR            a results folder written by \`pnpm bench\` (e.g. results)
  --against REV  the commit whose results/, README.md and documents are the reference (default HEAD)
  --readme FILE  also check FILE against the committed README.md (its generated tables)
  --doc FILE     also check the generated document FILE (e.g. docs/results.md) against its committed version; repeatable
Exit 0: DIR reproduces the committed results under ${CONTRACT_DOC}; 1: it does not; 2: usage error.`;

class UsageError extends Error {}

function git(root: string, args: string[], input?: string): Buffer {
  return execFileSync("git", ["-C", root, ...args], { input, maxBuffer: 1 << 30, stdio: ["pipe", "pipe", "pipe"] });
}

/** Every file below `dir`, as "/"-separated paths relative to it. */
function walk(dir: string, base = dir): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const full = join(dir, d.name);
    if (d.isDirectory()) return walk(full, base);
    return d.isFile() ? [relative(base, full).split(sep).join("/")] : [];
  });
}

/** The files of `prefix/` at REV, read through one `git cat-file --batch`. */
function committedTree(root: string, rev: string, prefix: string, extra: Record<string, string>): FileTree {
  const listing = git(root, ["ls-tree", "-r", "-z", rev, "--", `${prefix}/`]).toString("utf8").split("\0").filter(Boolean);
  const objects = new Map<string, string>();
  for (const row of listing) {
    const [info, path] = row.split("\t") as [string, string];
    const [, type, oid] = info.split(" ") as [string, string, string];
    if (type === "blob") objects.set(path.slice(prefix.length + 1), oid);
  }
  for (const [name, path] of Object.entries(extra)) {
    const oid = git(root, ["rev-parse", `${rev}:${path}`]).toString("utf8").trim();
    objects.set(name, oid);
  }
  const names = [...objects.keys()];
  const batch = git(root, ["cat-file", "--batch"], names.map((n) => objects.get(n)).join("\n") + "\n");
  const contents = new Map<string, Buffer>();
  let at = 0;
  for (const name of names) {
    const nl = batch.indexOf(10, at);
    const size = Number(batch.subarray(at, nl).toString("latin1").split(" ")[2]);
    contents.set(name, batch.subarray(nl + 1, nl + 1 + size));
    at = nl + 1 + size + 1;
  }
  return { files: names, read: (f) => contents.get(f)! };
}

/** The results folder on disk plus the generated documents given (README as "README.md", each other by its repository path). */
function folderTree(dir: string, docs: ReadonlyMap<string, string>): FileTree {
  const files = walk(dir);
  return {
    files: [...files, ...docs.keys()],
    read: (f) => readFileSync(docs.get(f) ?? join(dir, f)),
  };
}

/** Files git ignores in results/ (timings.json, the LoCoMo rankings, staging copies): never compared. */
function ignoredFiles(root: string, files: readonly string[]): Set<string> {
  if (files.length === 0) return new Set();
  let out = "";
  try {
    out = git(root, ["check-ignore", "--no-index", "--stdin", "-z"], files.map((f) => `results/${f}`).join("\0") + "\0").toString("utf8");
  } catch (e) {
    // exit 1: nothing is ignored
    if ((e as { status?: number }).status !== 1) throw e;
  }
  return new Set(out.split("\0").filter(Boolean).map((p) => p.slice("results/".length)));
}

/** Human-readable lines of a report. */
export function formatReport(report: CheckReport, dir: string): string {
  const lines: string[] = [];
  const count = (s: string) => report.files.filter((f) => f.status === s).length;
  for (const f of report.files) {
    const dev = f.largest ? `; largest |Δ| ${f.largest.delta.toPrecision(3)} at ${f.largest.path} (${f.largest.kind}, tolerance ${f.largest.tolerance.toPrecision(3)})` : "";
    if (f.status === "identical") continue;
    lines.push(`${f.status.padEnd(9)} ${f.file} [${f.class}] ${f.changed} value${f.changed === 1 ? "" : "s"} changed${dev}`);
    for (const p of f.problems) lines.push(`          ${f.file}: ${p}`);
  }
  const refused = report.files.length - count("identical") - count("within");
  lines.push(
    `results:check ${dir}: ${report.files.length} files — ${count("identical")} byte-identical, ${count("within")} within the contract's tolerance, ${refused} refused` +
      (report.ok ? " — reproduced" : ` — NOT reproduced (see ${CONTRACT_DOC})`),
  );
  return lines.join("\n") + "\n";
}

/** Run the checker; returns the exit code. */
export function main(argv: string[], cwd = process.env.INIT_CWD ?? process.cwd()): number {
  try {
    let parsed;
    try {
      parsed = parseArgs({ args: argv, allowPositionals: true, options: { against: { type: "string" }, readme: { type: "string" }, doc: { type: "string", multiple: true }, help: { type: "boolean", short: "h" } } });
    } catch (e) {
      throw new UsageError((e as Error).message);
    }
    if (parsed.values.help) {
      process.stdout.write(USAGE + "\n");
      return 0;
    }
    if (parsed.positionals.length !== 1) throw new UsageError(parsed.positionals.length === 0 ? "give the results folder to check" : `one results folder, got ${parsed.positionals.length}`);
    const dir = resolve(cwd, parsed.positionals[0]!);
    if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UsageError(`${dir} is not a folder`);
    const readme = parsed.values.readme === undefined ? undefined : resolve(cwd, parsed.values.readme);
    if (readme !== undefined && !existsSync(readme)) throw new UsageError(`--readme ${readme} does not exist`);
    const docFiles = (parsed.values.doc ?? []).map((d) => resolve(cwd, d));
    for (const d of docFiles) if (!existsSync(d)) throw new UsageError(`--doc ${d} does not exist`);
    let root: string;
    try {
      root = git(dir, ["rev-parse", "--show-toplevel"]).toString("utf8").trim();
    } catch {
      try {
        root = git(cwd, ["rev-parse", "--show-toplevel"]).toString("utf8").trim();
      } catch {
        throw new UsageError("run it inside the repository: the committed results are read from git");
      }
    }
    const rev = parsed.values.against ?? "HEAD";
    // each generated document by the name it is compared under: README.md, or its path in the repository
    const docs = new Map<string, string>(readme ? [["README.md", readme]] : []);
    for (const d of docFiles) {
      const name = relative(root, d).split(sep).join("/");
      if (name.startsWith("../") || name.startsWith("results/")) throw new UsageError(`--doc ${d} is not a document of the repository outside results/`);
      docs.set(name, d);
    }
    const committedPaths = Object.fromEntries([...docs.keys()].map((name) => [name, name]));
    let committed: FileTree;
    try {
      committed = committedTree(root, rev, "results", committedPaths);
    } catch (e) {
      throw new UsageError(`cannot read results/ at ${rev} from git in ${root}: ${((e as { stderr?: Buffer }).stderr ?? "").toString().trim() || (e as Error).message}`);
    }
    const fresh = folderTree(dir, docs);
    const ignored = ignoredFiles(root, fresh.files.filter((f) => !docs.has(f)));
    const report = checkResults(committed, fresh, (f) => ignored.has(f));
    (report.ok ? process.stdout : process.stderr).write(formatReport(report, relative(cwd, dir) || "."));
    return report.ok ? 0 : 1;
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`error: ${e.message}\n${USAGE}\n`);
      return 2;
    }
    throw e;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) process.exitCode = main(process.argv.slice(2));
