// The reproducibility contract on a second "instruction set" (docs/reproducibility.md, issue 26): every
// MiniLM embedding is perturbed by a few float32 ulps at the vector's scale (seeded, per text: as large as
// the deviation measured between AVX-512 and AVX2, ≈ 1.1e-7 per component), the neural half of Exp. 3–7 is
// rerun into a copy of the committed results, and the results checker must accept it; a real change —
// a published value moved past its tolerance, two non-tied memories swapped, an exact value touched — must
// be refused. Needs the pinned all-MiniLM-L6-v2 (skipped locally without it, failing under CI=true).
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, sep } from "node:path";
import { createHash } from "node:crypto";
import { embedderNames, registerEmbedder, type Embedder } from "@persode/core";
import { provisionModel } from "@persode/datasets";
import { checkResults, type CheckReport, type FileTree } from "@persode/results";
import { parseEnvFlag } from "@persode/util";
import seedrandom from "seedrandom";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { buildEmbedder } from "../src/index.js";
import { DATA_OPTIONS, runCliInProcess } from "./bench-helpers.js";
import { EMOBANK, EPIREC, LOCOMO, LOCOMO_AUDIT, resolveDataset } from "@persode/datasets";

const REPO_RESULTS = new URL("../../../results/", import.meta.url).pathname;
const inCi = parseEnvFlag("CI", process.env.CI);
const availability = await provisionModel({ offline: true }).then(
  () => undefined,
  (e: Error) => e.message,
);
if (availability && !inCi)
  process.stderr.write(`reproducibility (perturbed MiniLM) skipped — the model is not provisioned here:\n${availability}\n`);

/** Largest multiple of the vector's ulp a component moves by: 8 ulps of 0.125–0.25 is 1.2e-7, the measured cross-CPU maximum. */
const MAX_ULPS = 8;
const SEED = "issue-26";

/** The spacing of float32 numbers at |x| (the unit in the last place). */
function ulp32(x: number): number {
  const a = Math.abs(x);
  if (a < 2 ** -126) return 2 ** -149;
  return 2 ** (Math.floor(Math.log2(a)) - 23);
}

let perturbedVectors = 0;

/**
 * `inner`'s vectors, each component moved by k·u, k uniform in −MAX_ULPS … MAX_ULPS, u the float32 ulp of the
 * vector's largest component (a CPU's rounding differences are of that absolute size whatever the component),
 * seeded by the text so a text always gets the same vector.
 */
function perturbed(inner: Embedder): Embedder {
  const shake = (text: string, v: Float64Array) => {
    const rng = seedrandom(`${SEED}/${createHash("sha256").update(text).digest("hex")}`);
    const u = ulp32(v.reduce((m, x) => Math.max(m, Math.abs(x)), 0));
    const out = Float64Array.from(v, (x) => x + (Math.floor(rng() * (2 * MAX_ULPS + 1)) - MAX_ULPS) * u);
    perturbedVectors++;
    return out;
  };
  return {
    name: inner.name,
    id: inner.id,
    dim: inner.dim,
    ...(inner.model ? { model: inner.model } : {}),
    ...(inner.prefixes ? { prefixes: inner.prefixes } : {}),
    embed: async (t, role) => shake(t, await inner.embed(t, role)),
    embedBatch: async (ts, role) => (await inner.embedBatch(ts, role)).map((v, i) => shake(ts[i]!, v)),
    dispose: async () => inner.dispose?.(),
  };
}

function folder(dir: string): FileTree {
  const files = (readdirSync(dir, { recursive: true, withFileTypes: true }) as import("node:fs").Dirent[])
    .filter((d) => d.isFile())
    .map((d) => relative(dir, join(d.parentPath, d.name)).split(sep).join("/"))
    .filter((f) => f !== "timings.json" && !f.startsWith("exp5_locomo_rankings/"));
  return { files, read: (f) => readFileSync(join(dir, f)) };
}

describe.skipIf(availability !== undefined && !inCi)("the neural half rerun on perturbed embeddings reproduces under the contract", () => {
  let root: string;
  let out: string;
  let report: CheckReport;

  beforeAll(async () => {
    if (availability) throw new Error(`CI must provision the model (\`pnpm model fetch\`) before the tests:\n${availability}`);
    const [locomo, epirec, audit, emobank] = await Promise.all(
      [LOCOMO, EPIREC, LOCOMO_AUDIT, EMOBANK].map((d) => resolveDataset(d, DATA_OPTIONS)),
    );
    for (const [d, r] of [
      [LOCOMO, locomo],
      [EPIREC, epirec],
      [LOCOMO_AUDIT, audit],
      [EMOBANK, emobank],
    ] as const)
      vi.stubEnv(d.envPathVar, r!.path);
    vi.stubEnv("PERSODE_OFFLINE", "1");
    if (!embedderNames().includes("minilm-perturbed")) {
      registerEmbedder({
        name: "minilm-perturbed",
        description: `test: the pinned MiniLM, every component moved by up to ${MAX_ULPS} float32 ulps`,
        create: async (o) => perturbed((await buildEmbedder("minilm", { ...o, offline: true })).embedder),
      });
    }
    root = mkdtempSync(join(tmpdir(), "persode-repro-"));
    out = join(root, "results");
    cpSync(REPO_RESULTS, out, { recursive: true, filter: (src) => !src.includes("exp5_locomo_rankings") && !src.endsWith("timings.json") });
    for (const target of ["exp3", "exp4", "exp5", "exp6", "exp7"]) {
      const r = await runCliInProcess([target, "--embedder", "minilm-perturbed", "--out", out]);
      if (r.code !== 0) throw new Error(`pnpm bench ${target} --embedder minilm-perturbed exited ${r.code}:\n${r.stderr}`);
    }
    // The reruns were single experiments: their command line (provenance, not a computed value) is put back
    // to the committed one so the check compares what was computed.
    for (const f of folder(out).files.filter((x) => x.endsWith(".json"))) {
      const text = readFileSync(join(out, f), "utf8");
      const fixed = text.replace(/"generated_by": "pnpm bench exp[3-7] --embedder minilm-perturbed"/g, '"generated_by": "pnpm bench all"');
      if (fixed !== text) writeFileSync(join(out, f), fixed);
    }
    report = checkResults(folder(REPO_RESULTS), folder(out));
  }, 1_800_000);

  afterAll(() => {
    vi.unstubAllEnvs();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it("every embedding was perturbed, and the results checker accepts the rerun", () => {
    expect(perturbedVectors).toBeGreaterThan(10_000);
    const refused = report.files.filter((f) => f.status !== "identical" && f.status !== "within");
    expect(refused.map((f) => `${f.file}: ${f.problems.join("; ")}`)).toEqual([]);
    expect(report.ok).toBe(true);
    const moved = report.files
      .filter((f) => f.status === "within")
      .map((f) => `${f.file}: ${f.changed} values, largest ${f.largest?.delta} at ${f.largest?.path}`);
    process.stdout.write(
      `perturbed rerun: ${moved.length} files moved within tolerance${moved.length ? `:\n  ${moved.join("\n  ")}` : ""}\n`,
    );
    // Which values move depends on how close they sit to a rounding boundary on this CPU (here: 5 regressor
    // weights by one unit), so that count is printed, not asserted; the tolerance rules themselves are
    // exercised case by case in packages/results/test/check.test.ts. Only files of model runs may move:
    for (const f of report.files.filter((x) => x.status === "within")) expect(f.class, f.file).toBe("model");
  });

  it("refuses a published MiniLM value moved past its tolerance, naming file, path and both values", () => {
    const file = "exp5_locomo.json";
    const doc = JSON.parse(readFileSync(join(out, file), "utf8")) as {
      runs: Record<string, { strategies: Record<string, Record<string, number>> }>;
    };
    const row = doc.runs["all-MiniLM-L6-v2"]!.strategies["similarity-only"]!;
    const before = row["evidence_recall@5"]!;
    row["evidence_recall@5"] = before + 0.01;
    const edited = folder(out);
    const r = checkResults(folder(REPO_RESULTS), {
      ...edited,
      read: (f) => (f === file ? Buffer.from(JSON.stringify(doc, null, 2) + "\n") : edited.read(f)),
    });
    expect(r.ok).toBe(false);
    const problems = r.files.find((f) => f.file === file)!.problems.join("\n");
    expect(problems).toContain('runs["all-MiniLM-L6-v2"].strategies["similarity-only"]["evidence_recall@5"]');
    expect(problems).toContain("exceeds the metric tolerance");
  });

  it("refuses two non-tied memories swapped in a MiniLM ranking", () => {
    const file = "exp6_epirec_rankings/all-MiniLM-L6-v2_similarity-only.jsonl";
    const lines = readFileSync(join(out, file), "utf8").split("\n");
    const n = lines.findIndex((l) => l.length > 0 && !l.includes("near_ties"));
    const rec = JSON.parse(lines[n]!) as { ranked_episode_ids: string[] };
    const ids = rec.ranked_episode_ids;
    [ids[0], ids[5]] = [ids[5]!, ids[0]!];
    lines[n] = JSON.stringify(rec);
    const edited = folder(out);
    const r = checkResults(folder(REPO_RESULTS), { ...edited, read: (f) => (f === file ? Buffer.from(lines.join("\n")) : edited.read(f)) });
    expect(r.ok).toBe(false);
    expect(r.files.find((f) => f.file === file)!.problems.join("\n")).toContain(`line ${n + 1}: ranked_episode_ids[0]`);
  });

  it("refuses an exact (hashing) value moved by one ulp", () => {
    const file = "exp5_locomo.json";
    const text = readFileSync(join(out, file), "utf8");
    const doc = JSON.parse(text) as { runs: Record<string, { strategies: Record<string, Record<string, number>> }> };
    const row = doc.runs.hashing!.strategies["similarity-only"]!;
    row["evidence_recall@5"] = row["evidence_recall@5"]! * (1 + Number.EPSILON);
    writeFileSync(join(root, "edited.json"), JSON.stringify(doc, null, 2) + "\n");
    const edited = folder(out);
    const r = checkResults(folder(REPO_RESULTS), {
      ...edited,
      read: (f) => (f === file ? readFileSync(join(root, "edited.json")) : edited.read(f)),
    });
    expect(r.ok).toBe(false);
    expect(r.files.find((f) => f.file === file)!.problems.join("\n")).toContain("this value is exact");
  });
});
