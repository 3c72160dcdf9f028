#!/usr/bin/env node
// Measure an embedder's throughput in sentences/s, uncached (fresh cache) and then from the cache:
// node packages/core/scripts/embedder-throughput.mjs [--embedder minilm] [--model id] [--n 2000] [--dtype fp32]
// The model is resolved as usual (PERSODE_MODEL_DIR, PERSODE_OFFLINE, download cache); the embedding
// cache used here is a temporary folder, deleted afterwards. Needs the built package.
import { parseArgs } from "node:util";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir, cpus } from "node:os";
import { join } from "node:path";

const USAGE = "usage: embedder-throughput.mjs [--embedder name] [--model id] [--dtype fp32|q8|...] [--n count]";
let parsed;
try {
  parsed = parseArgs({
    options: { embedder: { type: "string" }, model: { type: "string" }, dtype: { type: "string" }, n: { type: "string" } },
  });
} catch (e) {
  console.error(`${e.message}\n${USAGE}`);
  process.exit(2);
}
const { values } = parsed;
const n = Number(values.n ?? 2000);
if (!Number.isInteger(n) || n < 1) {
  console.error(`--n must be a positive integer, got ${JSON.stringify(values.n)}\n${USAGE}`);
  process.exit(2);
}
const core = await import("../dist/index.js");
const name = values.embedder ?? "minilm";

// Journal-like sentences of varied length; each one distinct so nothing is deduplicated.
const SUBJECTS = ["I", "My sister", "We", "Mom", "The team", "My friend and I"];
const EVENTS = [
  "went for a walk by the river",
  "finally finished the project",
  "argued about the trip",
  "cooked dinner together",
  "missed the bus again",
  "talked late into the night about school",
];
const FEELINGS = ["and felt calm", "and I was proud", "which made me sad", "and it was exhausting", "so I felt grateful", ""];
const texts = Array.from({ length: n }, (_, i) =>
  `${SUBJECTS[i % 6]} ${EVENTS[Math.floor(i / 6) % 6]} ${FEELINGS[Math.floor(i / 36) % 6]} (day ${i}).`.replace("  ", " "),
);

const cacheDir = mkdtempSync(join(tmpdir(), "persode-throughput-"));
try {
  const opts = { cacheDir };
  if (values.model) opts.model = values.model;
  if (values.dtype) opts.dtype = values.dtype;
  const t0 = performance.now();
  const e = await core.createEmbedder(name, opts);
  const load = performance.now() - t0;
  const t1 = performance.now();
  await e.embedBatch(texts);
  const cold = performance.now() - t1;
  const t2 = performance.now();
  await e.embedBatch(texts);
  const warm = performance.now() - t2;
  await e.dispose?.();
  const rate = (ms) => Math.round((n / ms) * 1000);
  console.log(`embedder ${e.id} (dim ${e.dim}), ${n} sentences, ${cpus().length} CPUs, Node ${process.version}`);
  console.log(
    `load ${Math.round(load)} ms; first pass ${rate(cold)} sentences/s; second pass ${rate(warm)} sentences/s (${e.cache ? "from the embedding cache" : "this embedder has no cache"})`,
  );
} finally {
  rmSync(cacheDir, { recursive: true, force: true });
}
