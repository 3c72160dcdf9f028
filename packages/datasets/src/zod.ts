/**
 * zod, loaded on first use. The loaders test each value with plain predicates (checkShaped, ./issues.ts) and hand
 * only a value that fails them to its zod schema, for the verdict and the messages; so reading well-formed files,
 * every pinned one among them, never loads the validator (about 55 ms of a run's start-up; docs/performance.md,
 * round 9). Loaded through its CommonJS build, the one a synchronous parser can load on demand.
 */
import { createRequire } from "node:module";
import type * as Zod from "zod";

let loaded: typeof Zod | undefined;

/** The zod module, required the first time it is asked for. */
export function zod(): typeof Zod {
  return (loaded ??= createRequire(import.meta.url)("zod") as typeof Zod);
}

/** A value built the first time it is asked for (a loader's schemas, from zod()). */
export function lazily<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}
