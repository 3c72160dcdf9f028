// Parity with the published reference results (docs/spec.md §7): every experiment is computed in-process
// with the hashing embedder and every number, flag, list and data string of the reference file is
// compared exactly (prose fields aside). Exp. 5 and 6 compare `runs.hashing` only — the
// sentence-transformers runs need model weights. Exp. 6 also reproduces the reference's rankings
// files and official reports byte for byte.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { HashingEmbedder } from "@persode/core";
import { corpusCounts, loadEpiRec, loadLocomo, type EpisodicCorpus, type LocomoDataset } from "@persode/datasets";
import { beforeAll, describe, expect, it } from "vitest";
import {
  DEFAULT_SAMPLES,
  DEFAULT_SEED,
  EPISODIC_PROTOCOL,
  EXP5_PROTOCOL,
  loadScenario,
  runEpisodic,
  runExp1,
  runExp2,
  runExp3,
  runExp5,
  type EpisodicRun,
  type Exp5Run,
} from "../src/index.js";
import {
  ALL_SLUGS,
  DATA_OPTIONS,
  EPIREC_FIXTURES,
  SLUGS,
  compareToReference,
  firstLineDifference,
  referenceJson,
  type ParityResult,
} from "./bench-helpers.js";

const SPEC = { seed: DEFAULT_SEED, samples: DEFAULT_SAMPLES };

/** Assert no differences, and that the walk really compared at least `minCompared` leaves. */
function expectParity(r: ParityResult, minCompared: number): void {
  expect(r.mismatches).toEqual([]);
  expect(r.compared).toBeGreaterThanOrEqual(minCompared);
}

/** The reference file restricted to the hashing run (the only reproducible one offline). */
function hashingOnly(ref: Record<string, unknown>): Record<string, unknown> {
  const runs = ref.runs as Record<string, unknown>;
  expect(Object.keys(runs)).toContain("hashing");
  return { ...ref, runs: { hashing: runs.hashing } };
}

describe("the reference walker", () => {
  it("reports a changed number, a changed data string, a missing key and a wrong length — and skips prose", () => {
    const ref = { a: 0.1, b: { event: "x", note: "prose", c: [1, 2, 3] }, flag: true, gone: 5 };
    const ours = { a: 0.1000000000000001, b: { event: "y", note: "other prose", c: [1, 2] }, flag: true, extra: 1 };
    const r = compareToReference(ref, ours);
    expect(r.mismatches).toEqual([
      "$.a: ours 0.1000000000000001, reference 0.1",
      '$.b.event: ours "y", reference "x"',
      "$.b.c: length 2, reference 3",
      "$.b.c[2]: ours undefined, reference 3",
      "$.gone: missing (reference 5)",
    ]);
    expect(r.skipped).toBe(1);
  });

  it("distinguishes -0 from 0 and a numeric string from a number", () => {
    expect(compareToReference({ x: 0 }, { x: -0 }).mismatches).toHaveLength(1);
    expect(compareToReference({ x: 1 }, { x: "1" }).mismatches).toHaveLength(1);
  });
});

describe("Exp. 1–3 (the scenario) match the reference exactly", () => {
  it("Exp. 1 — forgetting curve", () => {
    const ours = runExp1(loadScenario());
    expectParity(compareToReference(referenceJson("exp1_forgetting_curve"), ours), 12);
  });

  it("Exp. 2 — Eq. 1 weight ablation", () => {
    const ours = runExp2(loadScenario());
    expectParity(compareToReference(referenceJson("exp2_memory_scoring"), ours), 81);
  });

  it("Exp. 3 — salience-aware retrieval (hashing), every per-query list and the α sweep", async () => {
    const ours = await runExp3(loadScenario(), new HashingEmbedder());
    expectParity(compareToReference(referenceJson("exp3_retrieval"), ours), 1000);
  });
});

describe("Exp. 5 — LoCoMo, hashing run (needs the pinned LoCoMo file: PERSODE_DATA_MIRROR or the cache)", () => {
  let data: LocomoDataset;
  let r: Exp5Run;

  beforeAll(async () => {
    data = await loadLocomo(DATA_OPTIONS);
    r = await runExp5(data, new HashingEmbedder(), SPEC);
  });

  it("runs.hashing: exclusions, gate fraction, every strategy's metrics, categories and conversations", () => {
    const ref = hashingOnly(referenceJson("exp5_locomo"));
    expectParity(compareToReference((ref.runs as Record<string, unknown>).hashing, r.run, "$.runs.hashing"), 90);
  });

  it("protocol and benchmark blocks (data sha256 of the pinned file)", () => {
    const ref = referenceJson("exp5_locomo");
    expectParity(compareToReference(ref.protocol, EXP5_PROTOCOL, "$.protocol"), 4);
    expectParity(compareToReference(ref.benchmark, { data_sha256: data.sha256 }, "$.benchmark"), 1);
  });

  it("ranks every included question with every strategy", () => {
    expect(r.questions).toBe(1535);
    for (const { jsonl } of r.rankings) expect(Buffer.from(jsonl).toString("utf8").trimEnd().split("\n")).toHaveLength(r.questions);
  });
});

describe("Exp. 6 — EpiRec, hashing run (needs the pinned EpiRec file: PERSODE_DATA_MIRROR or the cache)", () => {
  let corpus: EpisodicCorpus;
  let r: EpisodicRun;

  beforeAll(async () => {
    corpus = await loadEpiRec(DATA_OPTIONS);
    r = await runEpisodic(corpus, new HashingEmbedder(), SPEC, "exp6");
  });

  it("runs.hashing: every strategy's metrics by probe type and intensity band, gate fraction", () => {
    const ref = hashingOnly(referenceJson("exp6_epirec"));
    expectParity(compareToReference((ref.runs as Record<string, unknown>).hashing, r.run, "$.runs.hashing"), 120);
  });

  it("protocol and benchmark counts", () => {
    const ref = referenceJson("exp6_epirec");
    expectParity(compareToReference(ref.protocol, EPISODIC_PROTOCOL, "$.protocol"), 3);
    expectParity(compareToReference(ref.benchmark, corpusCounts(corpus), "$.benchmark"), 2);
  });

  it("writes one output per strategy, in registry order", () => {
    expect(r.outputs.map((o) => o.strategy.slug)).toEqual([...ALL_SLUGS]);
  });

  for (const slug of SLUGS) {
    it(`rankings JSONL of ${slug} is byte-identical to the reference`, () => {
      const o = r.outputs.find((x) => x.strategy.slug === slug)!;
      expect(
        firstLineDifference(Buffer.from(o.jsonl).toString("utf8"), readFileSync(join(EPIREC_FIXTURES, `hashing_${slug}.jsonl`), "utf8")),
      ).toBeUndefined();
    });

    it(`official report of ${slug} is byte-identical to the reference`, () => {
      const o = r.outputs.find((x) => x.strategy.slug === slug)!;
      expect(firstLineDifference(o.official, readFileSync(join(EPIREC_FIXTURES, `hashing_${slug}.official.json`), "utf8"))).toBeUndefined();
    });
  }
});
