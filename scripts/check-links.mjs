#!/usr/bin/env node
// Part of `pnpm lint`: every relative link in README.md, docs/*.md and the package READMEs resolves —
// the file (or folder) it names exists, and its #anchor, when it has one and points into a Markdown
// file, is a heading of that file (GitHub's anchors: lower case, punctuation dropped, spaces to hyphens,
// "-1", "-2" … for repeated headings). Links to other sites (scheme:) are not followed.
// Usage: node scripts/check-links.mjs [ROOT]; prints each broken link as file:line and exits 1 when any.
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

/** GitHub's anchor for a heading's text. */
export function headingAnchor(title) {
  return title
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

/** The text of a Markdown file without its fenced code blocks (lines kept, so line numbers hold). */
function withoutCode(text) {
  return text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[ \t]*$/gm, (block) => block.replace(/[^\n]/g, ""));
}

/** Every anchor a Markdown file defines: its headings (with GitHub's repeat suffixes) and explicit ids. */
export function anchorsOf(text) {
  const seen = new Map();
  const out = new Set();
  for (const m of withoutCode(text).matchAll(/^#{1,6}[ \t]+(.+?)[ \t]*#*[ \t]*$/gm)) {
    const plain = m[1].replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1").replace(/[`*]/g, "");
    const base = headingAnchor(plain);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  for (const m of text.matchAll(/\b(?:id|name)="([^"]+)"/g)) out.add(m[1]);
  return out;
}

/** The Markdown files checked: README.md, docs/**.md and packages/<name>/README.md under `root`. */
export function checkedFiles(root) {
  const files = [];
  if (existsSync(join(root, "README.md"))) files.push("README.md");
  const walk = (dir) => {
    if (!existsSync(join(root, dir))) return;
    for (const d of readdirSync(join(root, dir), { withFileTypes: true })) {
      const rel = `${dir}/${d.name}`;
      if (d.isDirectory()) walk(rel);
      else if (d.name.endsWith(".md")) files.push(rel);
    }
  };
  walk("docs");
  if (existsSync(join(root, "packages"))) {
    for (const p of readdirSync(join(root, "packages")).sort())
      if (existsSync(join(root, "packages", p, "README.md"))) files.push(`packages/${p}/README.md`);
  }
  return files;
}

/** Broken relative links of the checked files, as "file:line: message". */
export function brokenLinks(root) {
  const problems = [];
  const anchors = new Map();
  const anchorsFor = (file) => {
    if (!anchors.has(file)) anchors.set(file, anchorsOf(readFileSync(file, "utf8")));
    return anchors.get(file);
  };
  for (const file of checkedFiles(root)) {
    const full = join(root, file);
    const lines = withoutCode(readFileSync(full, "utf8")).split("\n");
    lines.forEach((line, i) => {
      const at = `${file}:${i + 1}`;
      const spans = line.replace(/`[^`]*`/g, (s) => " ".repeat(s.length));
      for (const m of spans.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
        const target = m[1];
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto: …
        const [pathPart, anchor] = target.split("#", 2);
        const dest = pathPart === "" ? full : resolve(dirname(full), decodeURIComponent(pathPart));
        if (!existsSync(dest)) {
          problems.push(`${at}: ${target} — ${relative(root, dest) || dest} does not exist`);
          continue;
        }
        if (anchor !== undefined && anchor !== "" && dest.endsWith(".md") && statSync(dest).isFile() && !anchorsFor(dest).has(anchor)) {
          problems.push(`${at}: ${target} — ${relative(root, dest)} has no heading with the anchor #${anchor}`);
        }
      }
    });
  }
  return problems;
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const root = resolve(process.argv[2] ?? join(import.meta.dirname, ".."));
  const problems = brokenLinks(root);
  if (problems.length) {
    console.error(problems.join("\n"));
    console.error(`check-links: ${problems.length} broken relative link(s); fix the path or the #anchor`);
    process.exit(1);
  }
}
