// Parity with the reference's sentence-transformers runs (issue 12): Exp. 5 and 6 are computed with the
// pinned all-MiniLM-L6-v2 (ONNX, transformers.js) and EVERY value of the reference's
// runs["sentence-transformers"] is compared at its published precision. The model comes from the
// cache `pnpm model fetch` fills (or PERSODE_MODEL_DIR / PERSODE_MODEL_MIRROR), offline; embeddings
// come from the persistent cache when a `pnpm bench all` ran before. Without the model this suite is
// skipped locally (saying how to provide it) and FAILS in CI (CI=true), where .ci/run provisions it.
import type { Embedder } from "@persode/core";
import { parseEnvFlag } from "@persode/util";
import { loadEpiRec, loadLocomo, provisionModel } from "@persode/datasets";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_SAMPLES, DEFAULT_SEED, buildEmbedder, runEpisodic, runExp5, runKey } from "../src/index.js";
import { DATA_OPTIONS, compareToReference, referenceJson } from "./bench-helpers.js";

const SPEC = { seed: DEFAULT_SEED, samples: DEFAULT_SAMPLES };
const inCi = parseEnvFlag("CI", process.env.CI);
const availability = await provisionModel({ offline: true }).then(
  () => undefined,
  (e: Error) => e.message,
);
if (availability && !inCi) process.stderr.write(`MiniLM parity skipped — the model is not provisioned here:\n${availability}\n`);

function stRun(name: string): unknown {
  const runs = referenceJson(name).runs as Record<string, unknown>;
  expect(Object.keys(runs)).toContain("sentence-transformers");
  return runs["sentence-transformers"];
}

describe.skipIf(availability !== undefined && !inCi)("MiniLM runs match the reference's sentence-transformers runs", () => {
  let embedder: Embedder;

  beforeAll(async () => {
    if (availability) throw new Error(`CI must provision the model (\`pnpm model fetch\`) before the tests:\n${availability}`);
    embedder = (await buildEmbedder("minilm", { offline: true })).embedder;
  }, 1_800_000);
  afterAll(async () => {
    await embedder?.dispose?.();
  });

  it("the run is the pinned model, named by it", () => {
    expect(embedder.model).toEqual({ id: "Xenova/all-MiniLM-L6-v2", revision: "751bff37182d3f1213fa05d7196b954e230abad9", dtype: "fp32" });
    expect(runKey(embedder, "minilm")).toBe("all-MiniLM-L6-v2");
    expect(embedder.dim).toBe(384);
  });

  it('Exp. 5 — every value of runs["sentence-transformers"] (LoCoMo)', async () => {
    const r = await runExp5(await loadLocomo(DATA_OPTIONS), embedder, SPEC);
    const p = compareToReference(stRun("exp5_locomo"), r.run, "$.runs.sentence-transformers");
    expect(p.mismatches).toEqual([]);
    expect(p.compared).toBe(90); // 89 numbers and the gate rule
  }, 1_800_000);

  it('Exp. 6 — every value of runs["sentence-transformers"] (EpiRec)', async () => {
    const r = await runEpisodic(await loadEpiRec(DATA_OPTIONS), embedder, SPEC, "exp6");
    const p = compareToReference(stRun("exp6_epirec"), r.run, "$.runs.sentence-transformers");
    expect(p.mismatches).toEqual([]);
    expect(p.compared).toBe(122); // 121 numbers and the gate rule
  }, 1_800_000);
});
