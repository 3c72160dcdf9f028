/**
 * Exp. 7 part 2 — retrieval with each estimator's E: EpiRec with the Exp. 6 protocol (one store per
 * persona, C = 0.5, now = reference_now, top-3), memory E and query E from the estimator, ranked by
 * similarity-only, always-on fusion (α = 0.5) and the emotion gate (fusion iff query E ≥ 0.6).
 * recall@3 per stratum (probe type × intensity band, each type, reflective, overall) with CIs and
 * paired differences against similarity-only, all from one set of resamples per stratum, and paired
 * randomization tests with Holm correction across the estimator·strategy columns of each stratum.
 */
import { fused, gated, similarityOnly, type Embedder, type EmotionEstimator, type RetrievalStrategy } from "@persode/core";
import type { EpisodicCorpus } from "@persode/datasets";
import type { RoleVectors } from "./embed.js";
import { EPISODIC_PROTOCOL, FACTUAL, personaGroup, probeTargets } from "./episodic.js";
import { rankGroups } from "./ranking-loop.js";
import { mean, rankOf } from "./metrics.js";
import { Progress, pyRound } from "@persode/util";
import type { BootstrapSpec } from "./stats/bootstrap.js";
import { compareWithBaseline, pValueForJson, type AdjustedPairedTest } from "./stats/paired-comparison.js";
import { DEFAULT_PERMUTATIONS } from "./stats/randomization.js";
import { strategyUncertainty, type StrategyUncertainty } from "./uncertainty.js";

/** The baseline column: similarity-only ranking, which no estimator's E can change. */
export const BASELINE = "similarity-only";
/** The two E-dependent strategies Exp. 7 compares with the baseline. */
export const MODES = ["fused", "gated"] as const;
/** One E-dependent strategy. */
export type Mode = (typeof MODES)[number];
const STRATEGY: Readonly<Record<Mode, RetrievalStrategy>> = { fused, gated };
/** The strategies Exp. 7 ranks with, in order: similarity-only (the baseline), then each of MODES. */
export const EXP7_STRATEGIES: readonly RetrievalStrategy[] = [similarityOnly, ...MODES.map((m) => STRATEGY[m])];

/** Column key of an estimator's strategy in the per-probe table, e.g. "vader/fused". */
export function columnKey(estimator: string, mode: Mode): string {
  return `${estimator}/${mode}`;
}

/** Per-probe hits of every column, aligned on the corpus' probes (persona, episode, probe order). */
export interface PerProbeTable {
  probeIds: string[];
  types: string[];
  bands: string[];
  /** Column → 1 when the target is in the top 3, else 0. */
  hits: Map<string, Uint8Array>;
  /** Estimator → 1 when its gate fused on the probe. */
  fires: Map<string, Uint8Array>;
}

/** Rank every probe with every estimator's E; similarity-only once (checked identical for every estimator). */
export async function rankWithEstimators(
  corpus: EpisodicCorpus,
  embedder: Embedder,
  vectors: RoleVectors,
  estimators: readonly EmotionEstimator[],
): Promise<PerProbeTable> {
  const probes = corpus.personas.flatMap((p) => p.episodes.flatMap((e) => e.probes.map((q) => ({ episode: e, probe: q }))));
  const n = probes.length;
  const k = EPISODIC_PROTOCOL.top_k_primary;
  const hits = new Map<string, Uint8Array>();
  const fires = new Map<string, Uint8Array>();
  const targets = probeTargets(corpus);
  const progress = new Progress(`exp7 (${embedder.name}): ranking`, { total: n * estimators.length });
  const similarity: Float64Array[] = new Array<Float64Array>(n);
  // The stores and probes are the same for every estimator (only E differs, given to rankGroups as memoryIntensity and the queries'
  // intensity): built once, so each store is built once (ranking-loop's groupStore)
  const personaStores = corpus.personas.map((persona) =>
    personaGroup(
      persona,
      EPISODIC_PROTOCOL.stored_C,
      corpus.referenceNowMs,
      vectors,
      () => ({ intensity: 0 }),
      () => 0,
    ),
  );
  const episodes = corpus.personas.flatMap((p) => p.episodes);
  for (const est of estimators) {
    const memE = await est.estimate(episodes.map((e) => e.text));
    const qE = await est.estimate(probes.map((p) => p.probe.query));
    const base = new Uint8Array(n);
    const cols = Object.fromEntries(MODES.map((m) => [m, new Uint8Array(n)])) as Record<Mode, Uint8Array>;
    let ei = 0;
    let qs = 0; // probe index over all personas, as rankGroups counts them
    const groups = personaStores.map((g) => ({
      ...g,
      memoryIntensity: Float64Array.from(g.memories, () => memE[ei++]!.intensity),
      // the stores hold the same vectors for every estimator: each probe's cosines come from the first pass
      queries: g.queries.map((q) => {
        const sim = similarity[qs];
        const intensity = qE[qs++]!.intensity;
        return sim ? { ...q, intensity, similarity: sim } : { ...q, intensity };
      }),
    }));
    const fire = rankGroups(
      groups,
      embedder,
      EXP7_STRATEGIES,
      {
        query(qi, _, ctx) {
          similarity[qi] ??= ctx.similarity();
        },
        ranking(qi, si, order) {
          const r = rankOf(order, targets[qi]!);
          const hit = r >= 1 && r <= k ? 1 : 0;
          if (si === 0) base[qi] = hit;
          else cols[MODES[si - 1]!][qi] = hit;
        },
      },
      progress,
      { top: k }, // recall@k reads the top k only
    );
    const prev = hits.get(BASELINE);
    if (!prev) hits.set(BASELINE, base);
    else if (prev.some((v, i) => v !== base[i]))
      throw new Error(`exp7: similarity-only changed with estimator "${est.name}" — E must not enter the α = 1 ranking`);
    for (const m of MODES) hits.set(columnKey(est.name, m), cols[m]);
    fires.set(est.name, fire);
  }
  progress.finish();
  return {
    probeIds: probes.map((p) => p.probe.id),
    types: probes.map((p) => p.probe.type),
    bands: probes.map((p) => p.episode.intensityBand ?? ""),
    hits,
    fires,
  };
}

/** The strata reported, in order: overall, reflective, each probe type, then each type × band. */
export function strata(table: Pick<PerProbeTable, "types" | "bands">): [string, number[]][] {
  const idx = (f: (i: number) => boolean) => table.types.flatMap((_, i) => (f(i) ? [i] : []));
  const types = [...new Set(table.types)].sort();
  const bands = ["low", "mild", "high"].filter((b) => table.bands.includes(b));
  const out: [string, number[]][] = [
    ["overall", idx(() => true)],
    ["reflective", idx((i) => table.types[i] !== FACTUAL)],
  ];
  for (const t of types) out.push([t, idx((i) => table.types[i] === t)]);
  for (const t of types) for (const b of bands) out.push([`${t}·${b}`, idx((i) => table.types[i] === t && table.bands[i] === b)]);
  return out.filter(([, ix]) => ix.length > 0);
}

/** Family-wise error rate of Exp. 7's Holm-adjusted decisions. */
export const EXP7_ALPHA = 0.05;
/** Decimals of Exp. 7's p-values. */
export const EXP7_P_DIGITS = 6;

/** A column's paired comparison with similarity-only on one stratum: bootstrap CI of the difference and the Holm-controlled tests. */
export interface PairedVsSimilarity {
  diff: number;
  ci95: [number, number];
  wins: number;
  ties: number;
  losses: number;
  /** Two-sided sign-flip randomization test, (1 + #extreme)/(B + 1). */
  p_randomization: number;
  /** p_randomization Holm-adjusted over the column's family on this stratum (see `compareToSimilarity`). */
  p_holm: number;
  /** Paired two-sided t-test, unadjusted. */
  p_t: number | null;
  /** p_holm < EXP7_ALPHA. */
  significant: boolean;
}

/**
 * The comparison with similarity-only on one stratum: CIs of every column and each column's paired
 * difference, from one resample set (label-seeded), plus the paired randomization test, t-test and
 * W/T/L on exactly the same per-probe arrays (compareWithBaseline, sign-flip stream "<label>/randomization").
 * Holm runs across all real estimator·strategy columns of the stratum; the `upperBounds` columns
 * (the oracle) form a family of their own (stream "<label>/randomization/upper-bound"), so an upper
 * bound never makes the correction of the real estimators stricter or looser.
 */
export function compareToSimilarity(
  columns: ReadonlyMap<string, ArrayLike<number>>,
  idx: readonly number[],
  spec: BootstrapSpec,
  label: string,
  digits = 3,
  upperBounds: ReadonlySet<string> = new Set(),
): Map<string, { ci95: [number, number]; paired?: PairedVsSimilarity }> {
  const at = (v: ArrayLike<number>) => {
    const out = new Float64Array(idx.length); // a plain loop: Float64Array.from(idx, f) walks an iterator per item
    for (let k = 0; k < idx.length; k++) out[k] = v[idx[k]!]!;
    return out;
  };
  const metrics = [...columns].map(([key, v]) => ({ key, values: { value: at(v) } }));
  const u: Map<string, StrategyUncertainty> = strategyUncertainty(metrics, spec, label, digits, BASELINE);
  const base = metrics.find((m) => m.key === BASELINE)!;
  const family = (keys: (key: string) => boolean, stream: string) =>
    compareWithBaseline([base, ...metrics.filter((m) => m.key !== BASELINE && keys(m.key))], BASELINE, {
      seed: spec.seed,
      label: stream,
      samples: DEFAULT_PERMUTATIONS,
      alpha: EXP7_ALPHA,
    });
  const tests = new Map<string, Record<string, AdjustedPairedTest>>([
    ...family((k) => !upperBounds.has(k), `${label}/randomization`),
    ...(upperBounds.size > 0 ? family((k) => upperBounds.has(k), `${label}/randomization/upper-bound`) : []),
  ]);
  const p = (x: number) => pyRound(x, EXP7_P_DIGITS);
  const out = new Map<string, { ci95: [number, number]; paired?: PairedVsSimilarity }>();
  for (const { key } of metrics) {
    const cu = u.get(key)!;
    const t = tests.get(key)?.value;
    const pv = cu.paired?.value;
    out.set(key, {
      ci95: cu.ci95.value!,
      ...(pv && t
        ? {
            paired: {
              diff: pv.diff,
              ci95: pv.ci95,
              wins: t.wins,
              ties: t.ties,
              losses: t.losses,
              p_randomization: p(t.pRandomization),
              p_holm: p(t.pHolm),
              p_t: pValueForJson(t.pT, EXP7_P_DIGITS),
              significant: t.significant,
            },
          }
        : {}),
    });
  }
  return out;
}

/** One stratum's numbers for one column. */
export interface StratumResult {
  n: number;
  r3: number;
  ci95: [number, number];
  paired_vs_similarity?: PairedVsSimilarity;
}

/** recall@3 per stratum for every column, with CIs and paired comparisons (rounded to 3); `upperBounds` as in compareToSimilarity. */
export function summarizeRetrieval(
  table: PerProbeTable,
  spec: BootstrapSpec,
  label: string,
  upperBounds: ReadonlySet<string> = new Set(),
): Record<string, Record<string, StratumResult>> {
  const out: Record<string, Record<string, StratumResult>> = {};
  for (const key of table.hits.keys()) out[key] = {};
  for (const [name, idx] of strata(table)) {
    const u = compareToSimilarity(table.hits, idx, spec, `${label}/${name}`, 3, upperBounds);
    for (const [key, v] of table.hits) {
      const cu = u.get(key)!;
      const r: StratumResult = { n: idx.length, r3: pyRound(mean(idx.map((i) => v[i]!)), 3), ci95: cu.ci95 };
      if (cu.paired) r.paired_vs_similarity = cu.paired;
      out[key]![name] = r;
    }
  }
  return out;
}

/** Gate firing rate per probe type for each estimator (fraction of probes whose query E ≥ 0.6). */
export function gateRates(table: PerProbeTable): Record<string, Record<string, number>> {
  const types = [...new Set(table.types)].sort();
  const out: Record<string, Record<string, number>> = {};
  for (const [name, f] of table.fires) {
    out[name] = Object.fromEntries(types.map((t) => [t, pyRound(mean(table.types.flatMap((tt, i) => (tt === t ? [f[i]!] : []))), 4)]));
  }
  return out;
}
