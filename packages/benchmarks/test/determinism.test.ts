// Determinism of `pnpm bench` (run in-process through the exported CLI entry): two runs write
// byte-identical files; --seed moves the bootstrap CIs and nothing else; --samples and --seed are
// recorded; a second embedder's run is merged next to the hashing run without touching it, in
// either order; a results file from other data is replaced, a corrupt one is refused.
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HashingEmbedder, embedderNames, extendedStrategies, registerEmbedder } from "@persode/core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { ALL_SLUGS, SLUGS, STRATEGY_KEYS, listFiles, pinnedDataEnv, runCliInProcess } from "./bench-helpers.js";

let root: string;

/** Run the CLI in-process and require success. */
async function bench(...argv: string[]): Promise<void> {
  const r = await runCliInProcess(argv);
  if (r.code !== 0) throw new Error(`pnpm bench ${argv.join(" ")} exited ${r.code}:\n${r.stderr}`);
}

function read(dir: string, file: string): string {
  return readFileSync(join(dir, file), "utf8");
}

function json(dir: string, file: string): Record<string, unknown> {
  return JSON.parse(read(dir, file)) as Record<string, unknown>;
}

/** Results files of a folder (timings.json is machine-dependent and excluded). */
function resultFiles(dir: string): string[] {
  return listFiles(dir).filter((f) => f !== "timings.json");
}

/** Every `ci95` interval of a results object by JSON path, and a copy with the intervals removed. */
function splitIntervals(
  value: unknown,
  path = "$",
  found = new Map<string, [number, number]>(),
): { rest: unknown; intervals: Map<string, [number, number]> } {
  const walk = (v: unknown, at: string): unknown => {
    if (Array.isArray(v)) return v.map((x, i) => walk(x, `${at}[${i}]`));
    if (v === null || typeof v !== "object") return v;
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      if (k === "ci95") collect(x, `${at}.ci95`);
      else out[k] = walk(x, `${at}.${k}`);
    }
    return out;
  };
  const collect = (v: unknown, at: string): void => {
    if (Array.isArray(v) && v.length === 2 && v.every((x) => typeof x === "number")) found.set(at, v as [number, number]);
    else if (v !== null && typeof v === "object") for (const [k, x] of Object.entries(v)) collect(x, `${at}.${k}`);
    else throw new Error(`${at}: a ci95 entry must be [lo, hi], got ${JSON.stringify(v)}`);
  };
  return { rest: walk(value, path), intervals: found };
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "persode-determinism-"));
  // The pinned files as explicit paths and a throw-away cache: runs never touch the user cache.
  for (const [k, v] of Object.entries(await pinnedDataEnv(join(root, "cache")))) vi.stubEnv(k, v);
  if (!embedderNames().includes("hashing128")) {
    registerEmbedder({ name: "hashing128", description: "test: hashing at 128 dimensions", create: async () => new HashingEmbedder(128) });
  }
});

afterAll(() => {
  vi.unstubAllEnvs();
  if (root) rmSync(root, { recursive: true, force: true });
});

describe("two runs of exp3, exp5 and exp6 (needs the pinned datasets)", () => {
  let a: string;
  let b: string;
  let seeded: string;

  beforeAll(async () => {
    a = join(root, "a");
    b = join(root, "b");
    seeded = join(root, "seeded");
    for (const dir of [a, b]) for (const t of ["exp3", "exp5", "exp6"]) await bench(t, "--out", dir);
    for (const t of ["exp5", "exp6"]) await bench(t, "--seed", "7", "--out", seeded);
    // eight experiment runs: give a loaded 2-core machine room (a timeout, not a speed assertion)
  }, 600_000);

  it("write the same set of files", () => {
    expect(resultFiles(a)).toEqual(resultFiles(b));
    expect(resultFiles(a)).toEqual([
      "exp3_retrieval.json",
      "exp5_locomo.json",
      "exp5_locomo_audited.json",
      "exp5_locomo_extended.json",
      "exp5_locomo_protocols.json",
      ...ALL_SLUGS.map((s) => `exp5_locomo_rankings/hashing_${s}.jsonl`).sort(),
      "exp5_locomo_rankings/rankings.json",
      "exp6_epirec.json",
      "exp6_epirec_extended.json",
      ...ALL_SLUGS.flatMap((s) => [`exp6_epirec_rankings/hashing_${s}.jsonl`, `exp6_epirec_rankings/hashing_${s}.official.json`]).sort(),
    ]);
    expect(listFiles(a)).toContain("timings.json");
  });

  it("write byte-identical files", () => {
    for (const f of resultFiles(a)) expect(read(b, f) === read(a, f), f).toBe(true);
  });

  it("a different --seed changes the CIs but no point estimate, ranking or official report", () => {
    for (const f of ["exp5_locomo.json", "exp5_locomo_audited.json", "exp6_epirec.json"]) {
      const base = splitIntervals(json(a, f));
      const other = splitIntervals(json(seeded, f));
      expect([...other.intervals.keys()], f).toEqual([...base.intervals.keys()]);
      const expected = structuredClone(base.rest) as { bootstrap: { seed: number }; meta: { seed: number } };
      expected.bootstrap.seed = 7;
      expected.meta.seed = 7;
      expect(other.rest, f).toEqual(expected);
      const moved = [...base.intervals].filter(([k, v]) => other.intervals.get(k)!.join() !== v.join()).length;
      // Degenerate columns (e.g. an all-zero metric) have the same interval under any seed; most must move.
      expect(moved, `${f}: ${moved} of ${base.intervals.size} intervals moved`).toBeGreaterThan(base.intervals.size / 2);
    }
    for (const f of resultFiles(seeded).filter((x) => !x.endsWith(".json") || x.endsWith(".official.json"))) {
      expect(read(seeded, f) === read(a, f), f).toBe(true);
    }
  });

  it("the results record the bootstrap seed and samples", () => {
    expect(json(a, "exp5_locomo.json").bootstrap).toEqual({ samples: 2000, seed: 20260713, unit: "question", method: "percentile" });
    expect(json(a, "exp6_epirec.json").bootstrap).toEqual({ samples: 2000, seed: 20260713, unit: "probe", method: "percentile" });
    expect(json(seeded, "exp5_locomo.json").bootstrap).toEqual({ samples: 2000, seed: 7, unit: "question", method: "percentile" });
    expect((json(seeded, "exp6_epirec.json").meta as { seed: number }).seed).toBe(7);
  });

  it("--samples is recorded and changes only the CIs", async () => {
    const dir = join(root, "samples");
    await bench("exp5", "--samples", "250", "--out", dir);
    const file = json(dir, "exp5_locomo.json");
    expect(file.bootstrap).toEqual({ samples: 250, seed: 20260713, unit: "question", method: "percentile" });
    const expected = structuredClone(splitIntervals(json(a, "exp5_locomo.json")).rest) as { bootstrap: { samples: number } };
    expected.bootstrap.samples = 250;
    expect(splitIntervals(file).rest).toEqual(expected);
  });

  it("a second embedder's exp5 run joins the audited-gold file beside the hashing run, which stays unchanged", async () => {
    const dir = join(root, "audited-merge");
    mkdirSync(dir, { recursive: true });
    for (const f of ["exp5_locomo.json", "exp5_locomo_audited.json"]) writeFileSync(join(dir, f), read(a, f));
    await bench("exp5", "--embedder", "hashing128", "--out", dir);
    const file = json(dir, "exp5_locomo_audited.json");
    const runs = file.runs as Record<string, { strategies: object; questions: object }>;
    expect(Object.keys(runs)).toEqual(["hashing", "hashing128"]);
    expect(JSON.stringify(runs.hashing)).toBe(
      JSON.stringify((json(a, "exp5_locomo_audited.json").runs as Record<string, unknown>).hashing),
    );
    expect(Object.keys(runs.hashing128!.strategies)).toEqual(extendedStrategies().map((s) => s.key)); // every strategy Exp. 5 ranked
    expect(runs.hashing128!.questions).toEqual(runs.hashing!.questions);
    expect(file.meta).toMatchObject({ embedders: ["hashing", "hashing128"], generated_by: "pnpm bench exp5 --embedder hashing128" });
  });

  describe("merging a second embedder's run (hashing128, registered in-process)", () => {
    let first: string;
    let reversed: string;

    beforeAll(async () => {
      first = join(root, "merge-hashing-first");
      reversed = join(root, "merge-hashing-last");
      await bench("exp6", "--out", first);
      await bench("exp6", "--embedder", "hashing128", "--out", first);
      await bench("exp6", "--embedder", "hashing128", "--out", reversed);
      await bench("exp6", "--out", reversed);
    });

    it("keeps the hashing run unchanged and adds the new one after it", () => {
      const file = json(first, "exp6_epirec.json");
      const runs = file.runs as Record<string, unknown>;
      expect(Object.keys(runs)).toEqual(["hashing", "hashing128"]);
      expect(JSON.stringify(runs.hashing)).toBe(JSON.stringify((json(a, "exp6_epirec.json").runs as Record<string, unknown>).hashing));
      expect(Object.keys((runs.hashing128 as { strategies: object }).strategies)).toEqual([...STRATEGY_KEYS]);
      expect(file.meta).toMatchObject({ embedders: ["hashing", "hashing128"], generated_by: "pnpm bench exp6 --embedder hashing128" });
    });

    it("writes both embedders' rankings; the hashing files stay byte-identical", () => {
      const files = listFiles(join(first, "exp6_epirec_rankings"));
      expect(files).toEqual(
        ["hashing", "hashing128"].flatMap((e) => ALL_SLUGS.flatMap((s) => [`${e}_${s}.jsonl`, `${e}_${s}.official.json`])).sort(),
      );
      for (const s of SLUGS) {
        const f = `exp6_epirec_rankings/hashing_${s}.jsonl`;
        expect(read(first, f) === read(a, f), f).toBe(true);
      }
      // The test embedder really ran: 128 buckets rank differently from 256.
      const sim = (e: string) => read(first, `exp6_epirec_rankings/${e}_similarity-only.jsonl`);
      expect(sim("hashing128") === sim("hashing")).toBe(false);
    });

    it("gives the same runs whichever embedder runs first", () => {
      expect(JSON.stringify(json(reversed, "exp6_epirec.json").runs)).toBe(JSON.stringify(json(first, "exp6_epirec.json").runs));
      expect((json(reversed, "exp6_epirec.json").meta as { embedders: string[] }).embedders).toEqual(["hashing", "hashing128"]);
    });
  });

  it("drops runs computed on other data (a different data_sha256)", async () => {
    const dir = join(root, "stale");
    mkdirSync(dir, { recursive: true });
    const stale = json(a, "exp6_epirec.json") as { benchmark: { data_sha256: string }; runs: Record<string, unknown> };
    stale.benchmark.data_sha256 = "0".repeat(64);
    stale.runs = { hashing: { strategies: {} }, older: { strategies: {} } };
    writeFileSync(join(dir, "exp6_epirec.json"), JSON.stringify(stale));
    await bench("exp6", "--out", dir);
    expect(read(dir, "exp6_epirec.json")).toBe(read(a, "exp6_epirec.json"));
  });

  it("does not merge runs whose CIs used another bootstrap seed or sample count", async () => {
    for (const [label, edit] of [
      ["seed", (b: { seed: number; samples: number }) => (b.seed = 7)],
      ["samples", (b: { seed: number; samples: number }) => (b.samples = 500)],
    ] as const) {
      const dir = join(root, `other-bootstrap-${label}`);
      mkdirSync(dir, { recursive: true });
      const previous = json(a, "exp6_epirec.json") as { bootstrap: { seed: number; samples: number } };
      edit(previous.bootstrap);
      writeFileSync(join(dir, "exp6_epirec.json"), JSON.stringify(previous));
      await bench("exp6", "--embedder", "hashing128", "--out", dir);
      const file = json(dir, "exp6_epirec.json");
      expect(Object.keys(file.runs as object), label).toEqual(["hashing128"]);
      expect(file.bootstrap).toEqual({ samples: 2000, seed: 20260713, unit: "probe", method: "percentile" });
    }
  });

  it("refuses to merge into a corrupt results file and leaves it as it was", async () => {
    const dir = join(root, "corrupt");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "exp6_epirec.json"), "{ not json");
    const r = await runCliInProcess(["exp6", "--out", dir]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(join(dir, "exp6_epirec.json"));
    expect(r.stderr).toContain("not valid JSON");
    expect(read(dir, "exp6_epirec.json")).toBe("{ not json");
    expect(listFiles(dir).filter((f) => f.endsWith(".tmp"))).toEqual([]);
  });
});
