// The optional peer dependency @persode/core's neural embedders need (issue 21): `@persode/core` installs and
// its tests pass without it. The tests that run transformers.js are skipped only when it is absent — the
// skip is named in each skipped block's title and printed once per file — and then
// optional-peer.test.ts checks what a user without it gets instead: a clear error naming the fix.
import { createRequire } from "node:module";
import { describe, it } from "vitest";

function resolvable(name: string): boolean {
  try {
    createRequire(import.meta.url).resolve(name);
    return true;
  } catch {
    return false;
  }
}

/** Whether the optional peer @huggingface/transformers is installed beside @persode/core. */
export const HAS_TRANSFORMERS = resolvable("@huggingface/transformers");

/** What a skipped block's title says when the optional peer is absent. */
const SKIPPED_WITHOUT_TRANSFORMERS = "(skipped: the optional peer @huggingface/transformers is not installed)";

if (!HAS_TRANSFORMERS)
  console.warn(
    `@persode/core tests: @huggingface/transformers is not installed; the transformers.js tests are skipped ${SKIPPED_WITHOUT_TRANSFORMERS}`,
  );

/** `describe` for a block that runs transformers.js: skipped, with the reason in its title, when the optional peer is absent. */
export function describeWithTransformers(name: string, fn: () => void): void {
  if (HAS_TRANSFORMERS) describe(name, fn);
  else describe.skip(`${name} ${SKIPPED_WITHOUT_TRANSFORMERS}`, fn);
}

/** `it` for one test that runs transformers.js inside a block that otherwise does not. */
export function itWithTransformers(name: string, fn: () => Promise<void>): void {
  if (HAS_TRANSFORMERS) it(name, fn);
  else it.skip(`${name} ${SKIPPED_WITHOUT_TRANSFORMERS}`, fn);
}
