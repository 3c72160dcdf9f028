// The result cache replays an experiment's files only when everything the run depended on is unchanged — the files it
// read, the vectors its embedder returned, the command line and the environment — and never replays damaged bytes.
// Runs here compute for real (small fake experiments, and Exp. 1 and 2 through the CLI); nothing is timed.
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { EmbedRole, Embedder } from "@persode/core";
import { main } from "../src/cli.js";
import type { ExperimentContext, ExperimentReport } from "../src/experiments/experiment.js";
import { ResultCache, type RunIdentity } from "../src/result-cache.js";
import { readPrevious, writeAtomic } from "../src/result-records.js";

let base: string;
let out: string;
let stderr: string;
const savedEnv = { ...process.env };

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), "persode-result-cache-"));
  out = join(base, "out");
  mkdirSync(out);
  process.env.PERSODE_DATA_DIR = join(base, "data");
  process.env.PERSODE_RESULT_CACHE = "1";
  stderr = "";
  vi.spyOn(process.stderr, "write").mockImplementation((s) => {
    stderr += String(s);
    return true;
  });
  vi.spyOn(process.stdout, "write").mockImplementation(() => true);
});

afterEach(() => {
  vi.restoreAllMocks();
  process.env = { ...savedEnv };
  rmSync(base, { recursive: true, force: true });
});

const RUN: RunIdentity = {
  experiment: "expX",
  runKey: "hashing",
  target: "expX",
  paperFormat: true,
  seed: 1,
  samples: 10,
  rankingsDepth: 100,
  options: {},
};

/** A small neural-like embedder whose vectors and embedding-cache state the test controls. */
function fakeEmbedder(state: { scale: number; store: string; calls: number }): Embedder & { cache: { identity(): Promise<string> } } {
  const vec = (t: string) => Float64Array.from([t.length * state.scale, 1]);
  return {
    name: "fake",
    id: "fake@1",
    dim: 2,
    model: { id: "test/fake", revision: "r1", dtype: "fp32" },
    async embed(text: string) {
      state.calls++;
      return vec(text);
    },
    async embedBatch(texts: readonly string[], _role?: EmbedRole) {
      state.calls++;
      return texts.map(vec);
    },
    cache: { identity: async () => state.store },
  };
}

/** An experiment that merges into `prev.json`, embeds two texts and writes two files; counts how often it computed. */
function experiment(counter: { runs: number }) {
  return async (ctx: ExperimentContext): Promise<ExperimentReport> => {
    counter.runs++;
    const prev = await readPrevious(join(ctx.out, "prev.json"));
    const e = await ctx.embedder();
    const [a] = await e.embedBatch(["a text"], "document");
    const q = await e.embed("a query", "query");
    await writeAtomic(join(ctx.out, "result.json"), JSON.stringify({ prev: prev ?? null, a: Array.from(a!), q: Array.from(q) }) + "\n");
    await writeAtomic(join(ctx.out, "rankings", "r.jsonl"), `{"n":${counter.runs}}\n`);
    return { files: ["result.json", "rankings/r.jsonl"], summary: [["runs", String(counter.runs)]] };
  };
}

const ctxFor = (embedder: Embedder) => ({ out, embedder: async () => embedder }) as unknown as ExperimentContext;

const blobsDir = () => join(base, "data", "result-cache", "v1", "blobs");

describe("the result cache", () => {
  it("replays a run whose read files and vectors are unchanged, and recomputes when either changes", async () => {
    const cache = ResultCache.open({ enabled: true, plugins: false })!;
    expect(cache).toBeDefined();
    const state = { scale: 1, store: "s1", calls: 0 };
    const counter = { runs: 0 };
    const compute = experiment(counter);
    writeFileSync(join(out, "prev.json"), '{"v":1}\n');

    const first = await cache.run("expX", ctxFor(fakeEmbedder(state)), RUN, compute);
    expect(first.replayed).toBe(false);
    const written = readFileSync(join(out, "result.json"), "utf8");
    rmSync(join(out, "result.json"));
    rmSync(join(out, "rankings"), { recursive: true });

    // Same read file, same embedding-cache state: replayed without embedding anything, the same bytes and report.
    state.calls = 0;
    const second = await cache.run("expX", ctxFor(fakeEmbedder(state)), RUN, compute);
    expect(second).toEqual({ replayed: true, report: first.report });
    expect(counter.runs).toBe(1);
    expect(state.calls).toBe(0);
    expect(readFileSync(join(out, "result.json"), "utf8")).toBe(written);
    expect(readFileSync(join(out, "rankings", "r.jsonl"), "utf8")).toBe('{"n":1}\n');
    expect(stderr).toMatch(/expX: replayed from the result cache \(entry [0-9a-f]{12}\)/);

    // The embedding cache changed but returns the same vectors: checked text by text, then replayed (and the new state noted).
    state.store = "s2";
    expect((await cache.run("expX", ctxFor(fakeEmbedder(state)), RUN, compute)).replayed).toBe(true);
    expect(state.calls).toBeGreaterThan(0);
    state.calls = 0;
    expect((await cache.run("expX", ctxFor(fakeEmbedder(state)), RUN, compute)).replayed).toBe(true);
    expect(state.calls).toBe(0);

    // Different vectors (an embedding cache recomputed on another CPU): computed again.
    state.store = "s3";
    state.scale = 2;
    expect((await cache.run("expX", ctxFor(fakeEmbedder(state)), RUN, compute)).replayed).toBe(false);
    expect(counter.runs).toBe(2);
    expect(JSON.parse(readFileSync(join(out, "result.json"), "utf8")).a).toEqual([12, 1]);

    // A file the run read changed: computed again; changed back: the earlier variant is replayed.
    writeFileSync(join(out, "prev.json"), '{"v":2}\n');
    expect((await cache.run("expX", ctxFor(fakeEmbedder(state)), RUN, compute)).replayed).toBe(false);
    expect(counter.runs).toBe(3);
    writeFileSync(join(out, "prev.json"), '{"v":1}\n');
    expect((await cache.run("expX", ctxFor(fakeEmbedder(state)), RUN, compute)).replayed).toBe(true);
    expect(JSON.parse(readFileSync(join(out, "result.json"), "utf8")).prev).toEqual({ v: 1 });

    // Another option (here the seed) is another key.
    expect((await cache.run("expX", ctxFor(fakeEmbedder(state)), { ...RUN, seed: 2 }, compute)).replayed).toBe(false);
    expect(counter.runs).toBe(4);
  });

  it("never replays a damaged blob: it says so, computes, and stores the right bytes again", async () => {
    const cache = ResultCache.open({ enabled: true, plugins: false })!;
    const state = { scale: 1, store: "s1", calls: 0 };
    const counter = { runs: 0 };
    await cache.run("expX", ctxFor(fakeEmbedder(state)), RUN, experiment(counter));
    const good = readFileSync(join(out, "result.json"));
    const sha = createHash("sha256").update(good).digest("hex");
    writeFileSync(join(blobsDir(), sha), "tampered");
    const r = await cache.run("expX", ctxFor(fakeEmbedder(state)), RUN, experiment(counter));
    expect(r.replayed).toBe(false);
    expect(counter.runs).toBe(2);
    expect(stderr).toMatch(/result cache entry [0-9a-f]{12} is damaged \(blob [0-9a-f]{12} does not match its sha256\); recomputing/);
    expect(readFileSync(join(out, "result.json")).equals(good)).toBe(true);
    expect(readFileSync(join(blobsDir(), sha)).equals(good)).toBe(true);
    expect((await cache.run("expX", ctxFor(fakeEmbedder(state)), RUN, experiment(counter))).replayed).toBe(true);
  });

  it("a replayed file shares its blob's bytes; editing it in place is caught on the next replay, even once the blob is trusted", async () => {
    const cache = ResultCache.open({ enabled: true, plugins: false })!;
    const state = { scale: 1, store: "s1", calls: 0 };
    const counter = { runs: 0 };
    await cache.run("expX", ctxFor(fakeEmbedder(state)), RUN, experiment(counter));
    const good = readFileSync(join(out, "result.json"), "utf8");
    // Blobs younger than 2 s are always hashed; an older one is hashed once, then trusted while its identity holds.
    await new Promise((r) => setTimeout(r, 2100));
    expect((await cache.run("expX", ctxFor(fakeEmbedder(state)), RUN, experiment(counter))).replayed).toBe(true);
    expect((await cache.run("expX", ctxFor(fakeEmbedder(state)), RUN, experiment(counter))).replayed).toBe(true);
    expect(counter.runs).toBe(1);
    // Replaying over a file that already is the blob leaves nothing beside it (rename() of two links to one file is a no-op).
    expect(readdirSync(out).sort()).toEqual(["rankings", "result.json"]);
    writeFileSync(join(out, "result.json"), "edited in place"); // the same inode as the blob
    stderr = "";
    expect((await cache.run("expX", ctxFor(fakeEmbedder(state)), RUN, experiment(counter))).replayed).toBe(false);
    expect(stderr).toMatch(/is damaged \(blob [0-9a-f]{12} does not match its sha256\)/);
    expect(readFileSync(join(out, "result.json"), "utf8")).toBe(good);
    expect((await cache.run("expX", ctxFor(fakeEmbedder(state)), RUN, experiment(counter))).replayed).toBe(true);
    expect(readFileSync(join(out, "result.json"), "utf8")).toBe(good);
  });

  it("is off with --no-cache, PERSODE_RESULT_CACHE=0 or a plugin", () => {
    expect(ResultCache.open({ enabled: false, plugins: false })).toBeUndefined();
    expect(ResultCache.open({ enabled: true, plugins: true })).toBeUndefined();
  });
});

describe("pnpm bench with the result cache", () => {
  const files = (dir: string) =>
    readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && e.name !== "timings.json")
      .map((e) => join(e.parentPath, e.name).slice(dir.length + 1))
      .sort();

  it("a rerun replays Exp. 1 and 2 into the same bytes a --no-cache run computes; PERSODE_* settings are part of the key", async () => {
    expect(await main(["exp1", "--out", out])).toBe(0);
    expect(await main(["exp2", "--out", out])).toBe(0);
    expect(stderr).not.toMatch(/replayed/);
    const fresh = join(base, "fresh");
    expect(await main(["exp1", "--out", fresh, "--no-cache"])).toBe(0);
    expect(await main(["exp2", "--out", fresh, "--no-cache"])).toBe(0);
    const again = join(base, "again");
    stderr = "";
    expect(await main(["exp1", "--out", again])).toBe(0);
    expect(await main(["exp2", "--out", again])).toBe(0);
    expect(stderr).toMatch(/exp1: replayed from the result cache/);
    expect(stderr).toMatch(/exp2: replayed from the result cache/);
    expect(files(again)).toEqual(files(fresh));
    expect(files(again).length).toBeGreaterThan(0);
    for (const f of files(fresh)) expect(readFileSync(join(again, f)).equals(readFileSync(join(fresh, f)))).toBe(true);
    const timings = JSON.parse(readFileSync(join(again, "timings.json"), "utf8")) as Record<string, { replayed?: boolean }>;
    expect(timings["exp1/hashing"]?.replayed).toBe(true);
    // Replayed again over its own replayed files: the same files, nothing left beside them.
    expect(await main(["exp1", "--out", again])).toBe(0);
    expect(await main(["exp2", "--out", again])).toBe(0);
    expect(files(again)).toEqual(files(fresh));

    // a setting that only steers how the run is measured is not: bench:perf names a new report file for every process
    stderr = "";
    process.env.PERSODE_THREAD_CPU_OUT = join(base, "thread-cpu.json");
    expect(await main(["exp1", "--out", join(base, "measured")])).toBe(0);
    delete process.env.PERSODE_THREAD_CPU_OUT;
    expect(stderr).toMatch(/exp1: replayed from the result cache/);

    stderr = "";
    process.env.PERSODE_TEST_SETTING = "another";
    expect(await main(["exp1", "--out", join(base, "other-env")])).toBe(0);
    expect(stderr).not.toMatch(/replayed/);
    delete process.env.PERSODE_TEST_SETTING;
    process.env.PERSODE_RESULT_CACHE = "0";
    expect(await main(["exp1", "--out", join(base, "off")])).toBe(0);
    expect(stderr).not.toMatch(/replayed/);
  });

  it("refuses a PERSODE_RESULT_CACHE that is not a boolean, before any work", async () => {
    process.env.PERSODE_RESULT_CACHE = "sometimes";
    expect(await main(["exp1", "--out", out])).toBe(2);
    expect(stderr).toMatch(/PERSODE_RESULT_CACHE="sometimes" is not a boolean; use 1 or 0/);
    expect(readdirSync(out)).toEqual([]);
  });
});
