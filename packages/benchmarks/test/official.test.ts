// The EpiRec official evaluator: byte-identical reports on the five published reference
// rankings files (fixtures copied from the reference results), grouping rules on a small
// synthetic corpus, and one clear, line-numbered error per kind of malformed input.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadEpiRec, type EpisodicCorpus } from "@persode/datasets";
import { beforeAll, describe, expect, it } from "vitest";
import {
  RankingsError,
  compareCodePoints,
  evaluateRankings,
  formatOfficialReport,
  parseRankingsJsonl,
  type EvaluatedCorpus,
} from "../src/index.js";
import { PyDict, PyFloat, pyFloatRepr, pyJsonDumps } from "../src/epirec/python-json.js";

const FIXTURES = fileURLToPath(new URL("./fixtures/epirec/", import.meta.url));
const STRATEGIES = ["fused_persode", "gated_persode", "recency-only", "salience-only", "similarity-only"];

/** Every key path of a parsed JSON value, in document order (checks key order, not just values). */
function keyPaths(value: unknown, prefix = ""): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => keyPaths(v, `${prefix}[${i}]`));
  if (value !== null && typeof value === "object") {
    return Object.entries(value).flatMap(([k, v]) => [`${prefix}.${k}`, ...keyPaths(v, `${prefix}.${k}`)]);
  }
  return [];
}

function catchError(fn: () => unknown): RankingsError {
  try {
    fn();
  } catch (e) {
    if (e instanceof RankingsError) return e;
    throw e;
  }
  throw new Error("expected a RankingsError, but nothing was thrown");
}

describe("EpiRec official report on the reference rankings (needs the pinned EpiRec file: PERSODE_DATA_MIRROR or the cache)", () => {
  let corpus: EpisodicCorpus;

  beforeAll(async () => {
    // Offline: the mirror (CI) or the user cache filled by `pnpm bench all`; a missing copy fails
    // with the loader's message naming PERSODE_DATA_MIRROR and the command that provides it.
    corpus = await loadEpiRec({ mirrorDir: process.env.PERSODE_DATA_MIRROR, offline: true, fillCache: false });
  });

  for (const strategy of STRATEGIES) {
    it(`${strategy}: report equals the reference (values, key order, bytes)`, () => {
      const text = readFileSync(join(FIXTURES, `hashing_${strategy}.jsonl`), "utf8");
      const expectedText = readFileSync(join(FIXTURES, `hashing_${strategy}.official.json`), "utf8");
      const rankings = parseRankingsJsonl(text, corpus, `hashing_${strategy}.jsonl`);
      expect(rankings.size).toBe(504);
      const report = evaluateRankings(corpus, rankings, { dataSha256: corpus.sha256 });
      const out = formatOfficialReport(report);
      const expected = JSON.parse(expectedText);
      expect(JSON.parse(out)).toEqual(expected);
      expect(keyPaths(JSON.parse(out))).toEqual(keyPaths(expected));
      expect(JSON.parse(JSON.stringify(report))).toEqual(expected);
      expect(keyPaths(report)).toEqual(keyPaths(expected));
      expect(out).toBe(expectedText);
    });
  }

  it("resamples each group's probes in file line order, like the official evaluator (shuffled test vector)", () => {
    // The official evaluator's own report on a shuffled copy of the published similarity-only file.
    const text = readFileSync(join(FIXTURES, "shuffled", "hashing_similarity-only.shuffled.jsonl"), "utf8");
    const expectedText = readFileSync(join(FIXTURES, "shuffled", "hashing_similarity-only.shuffled.official.json"), "utf8");
    const unshuffled = readFileSync(join(FIXTURES, "hashing_similarity-only.official.json"), "utf8");
    expect(expectedText).not.toBe(unshuffled); // the vector does test the order: its CIs differ
    const report = evaluateRankings(corpus, parseRankingsJsonl(text, corpus), { dataSha256: corpus.sha256 });
    expect(formatOfficialReport(report)).toBe(expectedText);
  });

  it("a file in another line order keeps the point estimates and changes only CIs", () => {
    const text = readFileSync(join(FIXTURES, "hashing_fused_persode.jsonl"), "utf8");
    const reversed = text.trimEnd().split("\n").reverse().join("\n");
    const a = evaluateRankings(corpus, parseRankingsJsonl(text, corpus), { dataSha256: corpus.sha256 });
    const b = evaluateRankings(corpus, parseRankingsJsonl(reversed, corpus), { dataSha256: corpus.sha256 });
    expect(b.overall["recall@3"]).toBe(a.overall["recall@3"]);
    expect(b.overall.mrr).toBe(a.overall.mrr);
    expect(formatOfficialReport(b)).not.toBe(formatOfficialReport(a));
  });

  it("ignores fields other than the three, as the official evaluator does", () => {
    const text = readFileSync(join(FIXTURES, "hashing_gated_persode.jsonl"), "utf8");
    const extra = text
      .trimEnd()
      .split("\n")
      .map((l, i) => JSON.stringify({ system: "x", ...JSON.parse(l), score: i, ranked_episode_ids_note: null }))
      .join("\n");
    const expectedText = readFileSync(join(FIXTURES, "hashing_gated_persode.official.json"), "utf8");
    expect(formatOfficialReport(evaluateRankings(corpus, parseRankingsJsonl(extra, corpus), { dataSha256: corpus.sha256 }))).toBe(
      expectedText,
    );
  });

  it("names the line of a bad ranking inside a real file, and the missing probes of a short file", () => {
    const lines = readFileSync(join(FIXTURES, "hashing_gated_persode.jsonl"), "utf8").trimEnd().split("\n");
    const bad = [...lines];
    const row = JSON.parse(bad[99]!);
    row.ranked_episode_ids[5] = row.persona_id === "p01" ? "p02e01" : "p01e01";
    bad[99] = JSON.stringify(row);
    const e = catchError(() => parseRankingsJsonl(bad.join("\n"), corpus, "gated.jsonl"));
    expect(e.line).toBe(100);
    expect(e.message).toMatch(/^gated\.jsonl:100: .*ranked_episode_ids\[5\].*is not an episode of persona/);

    const short = catchError(() => parseRankingsJsonl(lines.slice(0, 500).join("\n"), corpus, "short.jsonl"));
    expect(short.line).toBeUndefined();
    expect(short.message).toMatch(/4 of 504 probes have no ranking: "p12e13-i", "p12e14-f", "p12e14-x", "p12e14-i";/);
  });
});

// ---- a small synthetic corpus (no data files needed) ----

const DAY = 86_400_000;
const NOW = Date.UTC(2025, 5, 30, 12);

function episode(id: string, ageMs: number, band?: string) {
  return {
    id,
    timestampMs: NOW - ageMs,
    ...(band === undefined ? {} : { intensityBand: band }),
    probes: [
      { id: `${id}-f`, type: "factual" },
      { id: `${id}-x`, type: "reflective_explicit" },
    ],
  };
}

function tinyCorpus(bands: Array<string | undefined> = ["high", "mild", undefined, "high", "low", "low"]): EvaluatedCorpus {
  return {
    referenceNowMs: NOW,
    personas: [
      { id: "pA", episodes: [episode("a1", 6 * DAY, bands[0]), episode("a2", 6 * DAY + 1, bands[1]), episode("a3", 30 * DAY, bands[2])] },
      { id: "pB", episodes: [episode("b1", 30 * DAY + 1, bands[3]), episode("b2", 0, bands[4]), episode("b3", 100 * DAY, bands[5])] },
    ],
  };
}

const EPISODES: Record<string, string[]> = { pA: ["a1", "a2", "a3"], pB: ["b1", "b2", "b3"] };

/** A ranking of the persona's episodes with `target` at 1-based position `rank`. */
function rankedWith(persona: string, target: string, rank: number): string[] {
  const others = EPISODES[persona]!.filter((e) => e !== target);
  others.splice(rank - 1, 0, target);
  return others;
}

function line(persona: string, probe: string, ranking: unknown): string {
  return JSON.stringify({ persona_id: persona, probe_id: probe, ranked_episode_ids: ranking });
}

/** Rank of each probe's target in the synthetic rankings: varied so groups differ. */
const RANKS: Record<string, number> = {
  "a1-f": 1,
  "a1-x": 2,
  "a2-f": 1,
  "a2-x": 3,
  "a3-f": 2,
  "a3-x": 1,
  "b1-f": 3,
  "b1-x": 3,
  "b2-f": 1,
  "b2-x": 2,
  "b3-f": 1,
  "b3-x": 3,
};

function validLines(): string[] {
  return Object.entries(RANKS).map(([probe, rank]) => {
    const persona = probe.startsWith("a") ? "pA" : "pB";
    return line(persona, probe, rankedWith(persona, probe.slice(0, 2), rank));
  });
}

describe("official report on a synthetic corpus", () => {
  const corpus = tinyCorpus();
  const rankings = parseRankingsJsonl(validLines().join("\n") + "\n", corpus);
  const report = evaluateRankings(corpus, rankings, { dataSha256: "abc", samples: 200, seed: 1 });

  it("computes recall@1, recall@3 and MRR of each probe's own episode", () => {
    const ranks = Object.values(RANKS);
    expect(report.overall.n).toBe(12);
    expect(report.overall["recall@1"]).toBe(0.4167); // 5 of 12 at rank 1
    expect(report.overall["recall@3"]).toBe(1);
    // reciprocal ranks 1, 1/2, 1/3: compare with an independent fraction sum
    const num = ranks.reduce((s, r) => s + 6 / r, 0); // exact integers: 6/r ∈ {6, 3, 2}
    expect(report.overall.mrr).toBe(Math.round((num / 72) * 1e4) / 1e4);
    expect(report.by_probe_type.factual!["recall@1"]).toBe(0.6667);
    expect(report.by_probe_type.reflective_explicit!["recall@1"]).toBe(0.1667);
  });

  it("header and defaults", () => {
    expect(report.benchmark).toBe("EpiRec v1.0");
    expect(report.data_sha256).toBe("abc");
    expect(report.bootstrap).toEqual({ samples: 200, seed: 1, unit: "probe" });
    const named = evaluateRankings(corpus, rankings, { dataSha256: "abc", benchmark: "My journal", samples: 10 });
    expect(named.benchmark).toBe("My journal");
    expect(named.bootstrap.seed).toBe(20260713);
  });

  it("age buckets: ≤ 6 d short, > 30 d long, otherwise medium", () => {
    // a1 6 d → short, a2 6 d + 1 ms → medium, a3 30 d → medium, b1 30 d + 1 ms → long, b2 0 → short, b3 → long
    expect(Object.keys(report.by_probe_type_and_age)).toEqual([
      "factual | long",
      "factual | medium",
      "factual | short",
      "reflective_explicit | long",
      "reflective_explicit | medium",
      "reflective_explicit | short",
    ]);
    for (const g of Object.values(report.by_probe_type_and_age)) expect(g.n).toBe(2);
  });

  it("intensity groups leave out probes whose episode has no band", () => {
    expect(Object.keys(report.by_probe_type_and_intensity)).toEqual([
      "factual | high",
      "factual | low",
      "factual | mild",
      "reflective_explicit | high",
      "reflective_explicit | low",
      "reflective_explicit | mild",
    ]);
    const n = Object.values(report.by_probe_type_and_intensity).reduce((s, g) => s + g.n, 0);
    expect(n).toBe(10); // a3 (2 probes) has no band
    const none = tinyCorpus([undefined, undefined, undefined, undefined, undefined, undefined]);
    const r = evaluateRankings(none, parseRankingsJsonl(validLines().join("\n"), none), { dataSha256: "x", samples: 20 });
    expect(r.by_probe_type_and_intensity).toEqual({});
    expect(formatOfficialReport(r)).toContain('"by_probe_type_and_intensity": {},');
  });

  it("CIs are ordered, bracket-plausible and deterministic; a fresh generator per group", () => {
    for (const g of [report.overall, ...Object.values(report.by_probe_type)]) {
      for (const key of ["recall@1", "recall@3", "mrr"] as const) {
        const [lo, hi] = g[`${key}_ci95`];
        expect(lo).toBeLessThanOrEqual(hi);
        expect(lo).toBeGreaterThanOrEqual(0);
        expect(hi).toBeLessThanOrEqual(1);
      }
    }
    const again = evaluateRankings(corpus, rankings, { dataSha256: "abc", samples: 200, seed: 1 });
    expect(formatOfficialReport(again)).toBe(formatOfficialReport(report));
  });

  it("sorts labels by code point like Python", () => {
    expect(["b", "a | z", "B", "\u{1F600}", "\uFF21"].sort(compareCodePoints)).toEqual(["B", "a | z", "b", "\uFF21", "\u{1F600}"]);
  });

  it("rejects a rankings map that breaks the rules, and bad options", () => {
    const partial = new Map(rankings);
    partial.delete("b3-x");
    expect(() => evaluateRankings(corpus, partial, { dataSha256: "x" })).toThrow(/1 of 12 probes have no ranking: "b3-x"/);
    const bad = new Map(rankings);
    bad.set("a1-f", ["a1", "a1", "a2"]);
    expect(() => evaluateRankings(corpus, bad, { dataSha256: "x" })).toThrow(/probe "a1-f": ranked_episode_ids\[1\] = "a1" repeats/);
    expect(() => evaluateRankings(corpus, rankings, { dataSha256: "" })).toThrow(/dataSha256/);
    expect(() => evaluateRankings(corpus, rankings, { dataSha256: "x", samples: 0 })).toThrow(/samples/);
  });
});

describe("parseRankingsJsonl errors name the line and the problem", () => {
  const corpus = tinyCorpus();
  const base = validLines();

  /** Replace (or insert at) 0-based index `at`, parse, and return the error. */
  function errorWith(at: number, replacement: string, insert = false): RankingsError {
    const lines = [...base];
    lines.splice(at, insert ? 0 : 1, replacement);
    return catchError(() => parseRankingsJsonl(lines.join("\n"), corpus, "r.jsonl"));
  }

  const cases: Array<[string, number, string, RegExp, boolean?]> = [
    ["malformed JSON", 1, '{"persona_id": "pA", ', /malformed JSON/],
    ["not an object", 2, "[1, 2, 3]", /expected a JSON object .* got an array/],
    ["missing field", 0, JSON.stringify({ persona_id: "pA", probe_id: "a1-f" }), /missing field "ranked_episode_ids"/],
    [
      "persona_id type",
      4,
      JSON.stringify({ persona_id: 7, probe_id: "a3-f", ranked_episode_ids: ["a3", "a1", "a2"] }),
      /"persona_id" must be a string, got number 7/,
    ],
    [
      "ranking type",
      4,
      JSON.stringify({ persona_id: "pA", probe_id: "a3-f", ranked_episode_ids: "a3" }),
      /"ranked_episode_ids" must be an array/,
    ],
    ["unknown persona", 5, line("pZ", "a3-x", ["a3", "a1", "a2"]), /unknown persona "pZ"; the corpus has 2 personas: "pA", "pB"/],
    ["unknown probe", 6, line("pB", "b9-f", ["b1", "b2", "b3"]), /unknown probe "b9-f"/],
    [
      "probe under the wrong persona",
      7,
      line("pB", "a1-x", ["a1", "a2", "a3"]),
      /probe "a1-x" belongs to persona "pA", but this line lists it under persona "pB"/,
    ],
    ["duplicate probe", 8, line("pA", "a1-f", ["a1", "a2", "a3"]), /duplicate probe "a1-f" \(already ranked on line 1\)/],
    [
      "foreign episode id (another persona's)",
      9,
      line("pB", "b2-x", ["b1", "a2", "b3"]),
      /ranked_episode_ids\[1\] = "a2" is not an episode of persona "pB" \(it is an episode of persona "pA"\)/,
    ],
    [
      "unknown episode id",
      9,
      line("pB", "b2-x", ["b1", "b2", "zz"]),
      /ranked_episode_ids\[2\] = "zz" is not an episode of persona "pB" \(no persona has an episode with this id\)/,
    ],
    ["repeated episode id", 10, line("pB", "b3-f", ["b3", "b1", "b3"]), /ranked_episode_ids\[2\] = "b3" repeats ranked_episode_ids\[0\]/],
    ["too short (not a permutation)", 11, line("pB", "b3-x", ["b3", "b1"]), /has 2 ids but persona "pB" has 3 episodes \(missing "b2"\)/],
    ["non-string episode id", 11, line("pB", "b3-x", ["b3", null, "b2"]), /ranked_episode_ids\[1\] must be an episode id string, got null/],
  ];
  for (const [name, at, text, pattern] of cases) {
    it(name, () => {
      const e = errorWith(at, text);
      expect(e).toBeInstanceOf(RankingsError);
      expect(e.line).toBe(at + 1);
      expect(e.file).toBe("r.jsonl");
      expect(e.message.startsWith(`r.jsonl:${at + 1}: `)).toBe(true);
      expect(e.message).toMatch(pattern);
    });
  }

  it("an extra probe line after a complete file is a duplicate on its own line", () => {
    const e = catchError(() => parseRankingsJsonl([...base, base[4]!].join("\n"), corpus, "r.jsonl"));
    expect(e.line).toBe(13);
    expect(e.message).toMatch(/duplicate probe "a3-f" \(already ranked on line 5\)/);
  });

  it("missing probes are reported after reading, naming a few", () => {
    const e = catchError(() => parseRankingsJsonl(base.slice(0, 4).join("\n"), corpus, "r.jsonl"));
    expect(e.line).toBeUndefined();
    expect(e.message).toBe(
      'r.jsonl: 8 of 12 probes have no ranking: "a3-f", "a3-x", "b1-f", "b1-x", "b2-f" and 3 more; every probe of the corpus must be ranked exactly once',
    );
    expect(() => parseRankingsJsonl("", corpus)).toThrow(/12 of 12 probes have no ranking/);
  });

  it("ignores blank lines, CRLF line ends and a BOM; line numbers count every physical line", () => {
    const text = "\uFEFF" + base.slice(0, 3).join("\r\n") + "\r\n\r\n" + base.slice(3).join("\n") + "\n";
    expect(parseRankingsJsonl(text, corpus).size).toBe(12);
    const withBlank = ["", ...base.slice(0, 2), "   ", '{"bad"'].join("\n");
    expect(catchError(() => parseRankingsJsonl(withBlank, corpus)).line).toBe(5);
  });

  it("rejects corpora with ambiguous ids", () => {
    const dup = tinyCorpus();
    const clone = {
      ...dup,
      personas: [dup.personas[0]!, { ...dup.personas[1]!, episodes: [...dup.personas[1]!.episodes, dup.personas[1]!.episodes[0]!] }],
    };
    expect(() => parseRankingsJsonl("", clone)).toThrow(/persona "pB" has episode id "b1" twice/);
  });
});

describe("Python json.dumps layout", () => {
  it("prints floats like Python's repr", () => {
    // repr() of each value in CPython
    const cases: Array<[number, string]> = [
      [1.0, "1.0"],
      [0.0, "0.0"],
      [-0.0, "-0.0"],
      [0.1, "0.1"],
      [1e-5, "1e-05"],
      [0.0001, "0.0001"],
      [1e16, "1e+16"],
      [1.5e16, "1.5e+16"],
      [9999999999999998.0, "9999999999999998.0"],
      [123456789012345.6, "123456789012345.6"],
      [1e22, "1e+22"],
      [5e-324, "5e-324"],
      [2.5e-7, "2.5e-07"],
      [1234.5, "1234.5"],
      [-0.00012, "-0.00012"],
      [1.7976931348623157e308, "1.7976931348623157e+308"],
    ];
    for (const [x, repr] of cases) expect(pyFloatRepr(x)).toBe(repr);
  });

  it("lays out nested values and escapes like json.dumps(indent=2)", () => {
    // json.dumps({'a': [1, 2.0, 'é\x7f\n', '😀'], 'b': {}, 'c': []}, indent=2)
    const doc = new PyDict([
      ["a", [1, new PyFloat(2), "é\u007f\n", "\u{1F600}"]],
      ["b", new PyDict([])],
      ["c", []],
    ]);
    expect(pyJsonDumps(doc)).toBe(
      '{\n  "a": [\n    1,\n    2.0,\n    "\\u00e9\\u007f\\n",\n    "\\ud83d\\ude00"\n  ],\n  "b": {},\n  "c": []\n}',
    );
  });
});
