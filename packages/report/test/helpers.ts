/** Test helpers: temporary copies of the fixture results, JSON edits, the repository root. */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));

/** Fixture results: the reference implementation's published numbers plus synthetic CI blocks (see fixtures/README.md). */
export const FIXTURE_RESULTS = join(here, "fixtures", "results");

/** The repository root (packages/report/test → ../../..). */
export const REPO_ROOT = resolve(here, "..", "..", "..");

/** A fresh temporary workspace holding a copy of the fixture results under results/. */
export function tempWorkspace(): { root: string; results: string; readme: string } {
  const root = mkdtempSync(join(tmpdir(), "persode-report-"));
  const results = join(root, "results");
  cpSync(FIXTURE_RESULTS, results, { recursive: true });
  return { root, results, readme: join(root, "README.md") };
}

/** Edit a JSON file in place (written back the way the runners write it). */
export function editJson(path: string, edit: (data: any) => void): void {
  const data = JSON.parse(readFileSync(path, "utf8"));
  edit(data);
  writeFileSync(path, JSON.stringify(data, null, 2) + "\n");
}
