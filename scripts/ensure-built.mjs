#!/usr/bin/env node
// Rebuild (through turbo) only when a package's sources are newer than its compiled output, so
// `pnpm bench` runs compiled JavaScript directly — no transpiling, no task-graph walk — when nothing
// changed, and never runs stale code after an edit. Checking costs a few milliseconds of stat calls.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const STAMP = ".build-stamp";

/** Newest modification time (ms) of the files below `path` (0 when it does not exist). */
function newest(path) {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let max = 0;
  for (const entry of readdirSync(path)) max = Math.max(max, newest(join(path, entry)));
  return max;
}

/** Packages (under `root`/packages) whose dist/ is missing or older than their sources. */
export function stalePackages(root = repoRoot) {
  const stale = [];
  for (const pkg of readdirSync(join(root, "packages")).sort()) {
    const dir = join(root, "packages", pkg);
    const built = Math.max(
      newest(join(dir, "dist", STAMP)),
      existsSync(join(dir, "dist", "index.js")) ? statSync(join(dir, "dist", "index.js")).mtimeMs : 0,
    );
    const sources = Math.max(
      newest(join(dir, "src")),
      newest(join(dir, "data")),
      newest(join(dir, "scripts")),
      newest(join(dir, "package.json")),
      newest(join(dir, "tsconfig.build.json")),
    );
    if (built === 0 || sources > built) stale.push(pkg);
  }
  return stale;
}

/** Build when anything is stale; stamp every package afterwards. Returns false when the build failed. */
export function ensureBuilt(root = repoRoot) {
  const stale = stalePackages(root);
  if (stale.length === 0) return true;
  process.stderr.write(`sources changed in ${stale.join(", ")}: building first (pnpm build)\n`);
  const r = spawnSync("pnpm", ["-s", "build"], { cwd: root, stdio: "inherit" });
  if (r.status !== 0) return false;
  const now = new Date();
  for (const pkg of readdirSync(join(root, "packages"))) {
    const dist = join(root, "packages", pkg, "dist");
    if (!existsSync(dist)) continue;
    const stamp = join(dist, STAMP);
    if (!existsSync(stamp)) writeFileSync(stamp, "");
    utimesSync(stamp, now, now);
  }
  return true;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = ensureBuilt() ? 0 : 1;
}
