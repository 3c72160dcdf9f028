#!/usr/bin/env node
// Part of `pnpm lint`: every reference to the behaviour contract and to a docs/ file must resolve.
// - "docs/spec.md §N" (and "§N" lists after it, e.g. "§1, §5") must name a section "## N." of docs/spec.md;
// - every "docs/<name>.md" named in sources, tests, scripts and READMEs must exist;
// - the old upper-case form (a reference to a document outside the repository) must not come back.
// Prints each broken reference as file:line and exits 1 when there is any.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

const root = join(import.meta.dirname, "..");
const spec = readFileSync(join(root, "docs/spec.md"), "utf8");
const sections = new Set([...spec.matchAll(/^## (\d+)\. /gm)].map((m) => m[1]));

const files = execFileSync("git", ["ls-files", "-co", "--exclude-standard", "*.ts", "*.mjs", "*.md", "*.py", ".ci/run"], {
  cwd: root,
  encoding: "utf8",
})
  .split("\n")
  .filter((f) => f && !f.startsWith("results/") && existsSync(join(root, f)));

// Spelled in two parts so this file does not match itself.
const OLD_FORM = new RegExp("\\b" + "SPEC" + " §");
const problems = [];
for (const file of files) {
  const lines = readFileSync(join(root, file), "utf8").split("\n");
  lines.forEach((line, i) => {
    const at = `${file}:${i + 1}`;
    if (OLD_FORM.test(line))
      problems.push(`${at}: an upper-case spec reference names a document that is not in the repository; write "docs/spec.md §N"`);
    for (const m of line.matchAll(/docs\/spec\.md((?:,? ?(?:§ ?\d+)(?:[–-]\d+)?(?:,? and)?)+)/g)) {
      for (const n of m[1].matchAll(/§ ?(\d+)/g)) {
        if (!sections.has(n[1])) problems.push(`${at}: docs/spec.md has no section ${n[1]} (it has ${[...sections].join(", ")})`);
      }
    }
    for (const m of line.matchAll(/\bdocs\/[\w./-]+\.md\b/g)) {
      if (!existsSync(join(root, m[0]))) problems.push(`${at}: ${m[0]} does not exist`);
    }
  });
}
if (problems.length) {
  console.error(problems.join("\n"));
  console.error(`check-refs: ${problems.length} broken reference(s)`);
  process.exit(1);
}
console.log(`check-refs: ${files.length} files, every docs/ and docs/spec.md § reference resolves`);
