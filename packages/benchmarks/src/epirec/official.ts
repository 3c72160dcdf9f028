/**
 * The EpiRec benchmark's official evaluation (docs/spec.md §7, "EpiRec official evaluation"):
 * per-probe recall@1, recall@3 and reciprocal rank of the probe's own episode, averaged
 * per group (overall; probe type; type × intensity band; type × age bucket) with
 * CPython-identical percentile bootstrap CIs, so the report equals the reference
 * evaluator's byte for byte.
 */
import { pyRound } from "@persode/util";
import { exactMean } from "../stats/exact-mean.js";
import { MT19937, cpythonSeedKey } from "../stats/mt19937.js";
import type { GroupCountsJob } from "../stats/mt-counts-kernel.js";
import { percentileCIOfCounts, type DrawCounts } from "../stats/python-bootstrap.js";
import { sharedArray, startBlocks, type PendingBlocks } from "../stats/thread-pool.js";
import { inPhase } from "../phases.js";
import { indexCorpus, type EvaluatedCorpus, type IndexedProbe } from "./corpus-index.js";
import { PyDict, PyFloat, pyJsonDumps, type PyJson } from "./python-json.js";
import { validateRankings } from "./rankings.js";

/** Report header and bootstrap settings; defaults are the benchmark's (EpiRec v1.0, 2000 resamples, seed 20260713). */
export interface OfficialOptions {
  benchmark?: string;
  dataSha256: string;
  samples?: number;
  seed?: number;
}

/** One group's means (rounded 4) and their 95 % bootstrap CIs (bounds rounded 4). */
export interface OfficialGroup {
  n: number;
  "recall@1": number;
  "recall@1_ci95": [number, number];
  "recall@3": number;
  "recall@3_ci95": [number, number];
  mrr: number;
  mrr_ci95: [number, number];
}

/** The official report, keys in the reference's order; group maps are keyed by label, sorted by code point. */
export interface OfficialReport {
  benchmark: string;
  data_sha256: string;
  bootstrap: { samples: number; seed: number; unit: "probe" };
  overall: OfficialGroup;
  by_probe_type: Record<string, OfficialGroup>;
  by_probe_type_and_intensity: Record<string, OfficialGroup>;
  by_probe_type_and_age: Record<string, OfficialGroup>;
}

/** The benchmark's defaults for OfficialOptions. */
export const OFFICIAL_DEFAULTS = { benchmark: "EpiRec v1.0", samples: 2000, seed: 20260713 } as const;

/** Separator between the parts of a compound group label. */
const LABEL_SEPARATOR = " | ";

/** Compare strings by Unicode code point, like Python's `sorted` on str (JS `<` compares UTF-16 units). */
export function compareCodePoints(a: string, b: string): number {
  const ia = a[Symbol.iterator]();
  const ib = b[Symbol.iterator]();
  for (;;) {
    const x = ia.next();
    const y = ib.next();
    if (x.done || y.done) return x.done ? (y.done ? 0 : -1) : 1;
    const cx = x.value.codePointAt(0)!;
    const cy = y.value.codePointAt(0)!;
    if (cx !== cy) return cx - cy;
  }
}

interface ProbeOutcome {
  probe: IndexedProbe;
  recall1: number;
  recall3: number;
  reciprocalRank: number;
}

const join = (...parts: string[]): string => parts.join(LABEL_SEPARATOR);

/** The report's grouped sections: each probe's group label, undefined where a probe is in no group of the section. */
const GROUPINGS = {
  by_probe_type: (p: IndexedProbe): string | undefined => p.type,
  by_probe_type_and_intensity: (p: IndexedProbe): string | undefined =>
    p.intensityBand === undefined ? undefined : join(p.type, p.intensityBand),
  by_probe_type_and_age: (p: IndexedProbe): string | undefined => join(p.type, p.ageBucket),
} as const;

/** Metrics resampled per group, in the reference's order: recall@1, recall@3, MRR. */
const GROUP_METRICS = 3;

/**
 * The most recent groups' draws by seed, size and resamples, as per-resample counts (drawCounts). A group's
 * draws depend on nothing else (a fresh generator, floor(random()·n)), so the official reports of every
 * strategy over the same groups share them instead of drawing the same numbers again. Bounded: one
 * experiment's groups are evaluated together. `pending` is set while a worker thread is still drawing them.
 */
const countsByGroup = new Map<string, { counts: DrawCounts[]; pending?: PendingBlocks }>();
const MAX_GROUP_DRAWS = 32;

const groupKey = (seed: number, n: number, samples: number): string => `${seed}|${n}|${samples}`;

/**
 * Start drawing the official bootstrap's draws for groups of these sizes on the worker threads (./stats/thread-pool.ts)
 * and return at once, e.g. before the strategies rank; evaluateRankings then finds them drawn (the same counts as
 * drawn on demand). `officialGroupSizes` gives a corpus's sizes; sizes already kept are skipped.
 */
export function prefetchOfficialDraws(sizes: readonly number[], opts: { samples?: number; seed?: number } = {}): void {
  const samples = opts.samples ?? OFFICIAL_DEFAULTS.samples;
  const seed = opts.seed ?? OFFICIAL_DEFAULTS.seed;
  if (!Number.isInteger(samples) || samples < 1)
    throw new RangeError(`official bootstrap: samples must be a positive integer, got ${samples}`);
  if (!Number.isSafeInteger(seed)) throw new RangeError(`official bootstrap: seed must be an integer, got ${seed}`);
  for (const n of sizes)
    if (!Number.isInteger(n) || n < 1) throw new RangeError(`official bootstrap: a group has ${n} probes; sizes must be positive integers`);
  const fresh = [...new Set(sizes)].filter((n) => !countsByGroup.has(groupKey(seed, n, samples)));
  // never more than the bound: the oldest kept draws make room, and at most MAX_GROUP_DRAWS new ones are started
  const groups = fresh.slice(0, MAX_GROUP_DRAWS);
  if (groups.length === 0) return;
  while (countsByGroup.size > MAX_GROUP_DRAWS - groups.length) countsByGroup.delete(countsByGroup.keys().next().value!);
  const job: GroupCountsJob = {
    seeded: new MT19937(cpythonSeedKey(seed)).mt,
    samples,
    tables: GROUP_METRICS,
    n: Int32Array.from(groups),
    // shared memory: a worker thread draws into the tables, the main thread reads them without a copy
    out: groups.flatMap((n) =>
      Array.from({ length: GROUP_METRICS }, () =>
        n <= 0xffff ? sharedArray(Uint16Array, samples * n * 2) : sharedArray(Uint32Array, samples * n * 4),
      ),
    ),
  };
  const pending = startBlocks("groupCountsBlock", job, groups.length, 1);
  groups.forEach((n, g) =>
    countsByGroup.set(groupKey(seed, n, samples), { counts: job.out.slice(g * GROUP_METRICS, (g + 1) * GROUP_METRICS), pending }),
  );
}

/** The draw counts of one group's fresh generator, one set per metric: recall@1's resamples first, then recall@3's, then MRR's. */
function groupCounts(seed: number, n: number, samples: number): DrawCounts[] {
  const key = groupKey(seed, n, samples);
  if (!countsByGroup.has(key)) prefetchOfficialDraws([n], { seed, samples });
  const { counts, pending } = countsByGroup.get(key)!;
  pending?.finish();
  // most recently used last
  countsByGroup.delete(key);
  countsByGroup.set(key, { counts });
  return counts;
}

/** The sizes of the groups the official report of a ranking of every probe of `corpus` resamples (for prefetchOfficialDraws). */
export function officialGroupSizes(corpus: EvaluatedCorpus): number[] {
  const probes = indexCorpus(corpus).probes;
  const sizes = [probes.length];
  for (const label of Object.values(GROUPINGS)) {
    const count = new Map<string, number>();
    for (const p of probes) {
      const key = label(p);
      if (key !== undefined) count.set(key, (count.get(key) ?? 0) + 1);
    }
    sizes.push(...count.values());
  }
  return sizes;
}

function groupReport(members: readonly ProbeOutcome[], samples: number, seed: number): OfficialGroup {
  const n = members.length;
  const r1 = new Float64Array(n);
  const r3 = new Float64Array(n);
  const rr = new Float64Array(n);
  members.forEach((m, i) => {
    r1[i] = m.recall1;
    r3[i] = m.recall3;
    rr[i] = m.reciprocalRank;
  });
  // one fresh generator per group; recall@1's resamples first, then recall@3's, then MRR's
  const counts = inPhase("bootstrap", () => groupCounts(seed, n, samples));
  const round4 = (x: number): number => pyRound(x, 4);
  const ci = (xs: Float64Array, metric: number): [number, number] => {
    const [lo, hi] = inPhase("bootstrap", () => percentileCIOfCounts(counts[metric]!, xs, samples));
    return [round4(lo), round4(hi)];
  };
  const ciR1 = ci(r1, 0);
  const ciR3 = ci(r3, 1);
  const ciRr = ci(rr, 2);
  return {
    n,
    "recall@1": round4(exactMean(r1)),
    "recall@1_ci95": ciR1,
    "recall@3": round4(exactMean(r3)),
    "recall@3_ci95": ciR3,
    mrr: round4(exactMean(rr)),
    mrr_ci95: ciRr,
  };
}

function groupsBy(
  outcomes: readonly ProbeOutcome[],
  label: (p: IndexedProbe) => string | undefined,
  samples: number,
  seed: number,
): Record<string, OfficialGroup> {
  const buckets = new Map<string, ProbeOutcome[]>();
  for (const o of outcomes) {
    const key = label(o.probe);
    if (key === undefined) continue;
    const bucket = buckets.get(key);
    if (bucket) bucket.push(o);
    else buckets.set(key, [o]);
  }
  const result: Record<string, OfficialGroup> = {};
  for (const key of [...buckets.keys()].sort(compareCodePoints)) {
    result[key] = groupReport(buckets.get(key)!, samples, seed);
  }
  return result;
}

/**
 * Evaluate validated rankings (probe id → ranked episode ids) on the corpus. Probes are taken in
 * the map's iteration order — a file's line order, as parseRankingsJsonl keeps it — because the
 * official evaluator resamples each group's probes in file order (docs/spec.md §7): point estimates do not
 * depend on the order, CIs do. Probes whose episode has no intensity band are left out of the
 * intensity groups only.
 */
export function evaluateRankings(
  corpus: EvaluatedCorpus,
  rankings: ReadonlyMap<string, readonly string[]>,
  opts: OfficialOptions,
): OfficialReport {
  const benchmark = opts.benchmark ?? OFFICIAL_DEFAULTS.benchmark;
  const samples = opts.samples ?? OFFICIAL_DEFAULTS.samples;
  const seed = opts.seed ?? OFFICIAL_DEFAULTS.seed;
  if (typeof opts.dataSha256 !== "string" || opts.dataSha256 === "") {
    throw new RangeError("evaluateRankings: dataSha256 must be the corpus file's sha256 (a non-empty string)");
  }
  if (!Number.isInteger(samples) || samples < 1)
    throw new RangeError(`evaluateRankings: samples must be a positive integer, got ${samples}`);
  if (!Number.isSafeInteger(seed)) throw new RangeError(`evaluateRankings: seed must be an integer, got ${seed}`);
  const index = indexCorpus(corpus);
  if (index.probes.length === 0) throw new RangeError("evaluateRankings: the corpus has no probes");
  validateRankings(index, rankings);
  const outcomes: ProbeOutcome[] = [...rankings].map(([probeId, ranking]) => {
    const probe = index.probeById.get(probeId)!;
    const rank = ranking.indexOf(probe.target) + 1;
    return { probe, recall1: rank === 1 ? 1 : 0, recall3: rank <= 3 ? 1 : 0, reciprocalRank: 1 / rank };
  });
  return {
    benchmark,
    data_sha256: opts.dataSha256,
    bootstrap: { samples, seed, unit: "probe" },
    overall: groupReport(outcomes, samples, seed),
    by_probe_type: groupsBy(outcomes, GROUPINGS.by_probe_type, samples, seed),
    by_probe_type_and_intensity: groupsBy(outcomes, GROUPINGS.by_probe_type_and_intensity, samples, seed),
    by_probe_type_and_age: groupsBy(outcomes, GROUPINGS.by_probe_type_and_age, samples, seed),
  };
}

function groupJson(g: OfficialGroup): PyDict {
  const pair = (c: [number, number]): PyJson[] => [new PyFloat(c[0]), new PyFloat(c[1])];
  return new PyDict([
    ["n", g.n],
    ["recall@1", new PyFloat(g["recall@1"])],
    ["recall@1_ci95", pair(g["recall@1_ci95"])],
    ["recall@3", new PyFloat(g["recall@3"])],
    ["recall@3_ci95", pair(g["recall@3_ci95"])],
    ["mrr", new PyFloat(g.mrr)],
    ["mrr_ci95", pair(g.mrr_ci95)],
  ]);
}

function groupMapJson(groups: Record<string, OfficialGroup>): PyDict {
  const labels = Object.keys(groups).sort(compareCodePoints);
  return new PyDict(labels.map((label) => [label, groupJson(groups[label]!)] as const));
}

/**
 * The report as the reference evaluator writes it: Python `json.dumps(indent=2)` layout
 * (floats as `0.0`/`1.0`, ASCII-escaped) plus a final newline. Parsed, it equals
 * `JSON.stringify(report, null, 2)`; byte for byte, it equals the reference file.
 */
export function formatOfficialReport(r: OfficialReport): string {
  const doc = new PyDict([
    ["benchmark", r.benchmark],
    ["data_sha256", r.data_sha256],
    [
      "bootstrap",
      new PyDict([
        ["samples", r.bootstrap.samples],
        ["seed", r.bootstrap.seed],
        ["unit", r.bootstrap.unit],
      ]),
    ],
    ["overall", groupJson(r.overall)],
    ["by_probe_type", groupMapJson(r.by_probe_type)],
    ["by_probe_type_and_intensity", groupMapJson(r.by_probe_type_and_intensity)],
    ["by_probe_type_and_age", groupMapJson(r.by_probe_type_and_age)],
  ]);
  return pyJsonDumps(doc, 2) + "\n";
}
