import { LexiconAnalyzer, extendedStrategies, strategies, type Embedder, type MemoryInit, type RetrievalStrategy } from "@persode/core";
import type { EpisodicCorpus } from "@persode/datasets";
import { Progress, pyRound } from "@persode/util";
import { embedByRole, type RoleVectors } from "./embed.js";
import { compareCodePoints, evaluateRankings, formatOfficialReport, officialGroupSizes, prefetchOfficialDraws } from "./epirec/official.js";
import { mean, rankOf } from "./metrics.js";
import { RankingsWriter, lineEnd } from "./rankings-writer.js";
import { rankGroups, type RankingGroup } from "./ranking-loop.js";
import { prefetchResamples, type BootstrapSpec } from "./stats/bootstrap.js";
import { strategyUncertainty } from "./uncertainty.js";
import { startExtendedStrategyResults } from "./extended-results.js";
import { libraryGate } from "./result-records.js";

/** The probe type that asks for facts; every other type counts as reflective. */
export const FACTUAL = "factual";

/** Protocol constants of an EpiRec-style evaluation (docs/spec.md §7 Exp. 6). */
export const EPISODIC_PROTOCOL = { alpha: 0.5, top_k_primary: 3, stored_C: 0.5 } as const;

/** Everything one embedder's run over an episodic corpus produces. */
export interface EpisodicRun {
  /** `runs.<embedder>` of the results file. */
  run: Record<string, unknown>;
  /** Per strategy (the paper's, then the extended set): the rankings JSONL text and the official evaluator's report text. */
  outputs: { strategy: RetrievalStrategy; jsonl: Uint8Array; official: string }[];
  /** `runs.<embedder>` of the extended results file: every strategy of the extended set, overall. */
  extended: Record<string, unknown>;
  probes: number;
  rankedMemories: number;
}

/**
 * A persona as a store: one memory per episode (E, event, emotion from `analyze`; C = `storedC`; created = episode time), ranked at `nowMs`
 * for each of its probes (E from `queryIntensity`), in corpus order.
 */
export function personaGroup(
  persona: EpisodicCorpus["personas"][number],
  storedC: number,
  nowMs: number,
  vectors: RoleVectors,
  analyze: (text: string) => { event?: string; emotion?: string; hashtags?: string[]; intensity: number },
  queryIntensity: (text: string) => number,
): RankingGroup {
  const memories: MemoryInit[] = persona.episodes.map((e) => {
    const a = analyze(e.text);
    return {
      id: e.id,
      text: e.text,
      event: a.event,
      emotion: a.emotion,
      hashtags: a.hashtags,
      emotionalIntensity: a.intensity,
      contextualRelevance: storedC,
      createdAt: e.timestampMs,
    };
  });
  const queries = persona.episodes.flatMap((e) =>
    e.probes.map((q) => ({ text: q.query, vector: vectors.query.get(q.query)!, intensity: queryIntensity(q.query) })),
  );
  return { memories, vectors: persona.episodes.map((e) => vectors.document.get(e.text)!), nowMs, queries };
}

/** Per probe (corpus order), the index of its target episode within its persona. */
export function probeTargets(corpus: EpisodicCorpus): Int32Array {
  return Int32Array.from(corpus.personas.flatMap((p) => p.episodes.flatMap((e, i) => e.probes.map(() => i))));
}

/**
 * Evaluate every registered strategy on an episodic corpus with the Exp. 6 protocol: one store per
 * persona, memory = episode text, E and emotion from the analyzer (authored labels never enter
 * retrieval), C = 0.5, created_at = episode time, now = the corpus reference_now; each probe targets
 * its own episode. Metrics per probe type (rounded 3), reflective recall@3 by intensity band, the
 * gate's firing fraction on reflective probes, bootstrap CIs, full rankings and official reports.
 * `label` names the progress bar only: the bootstrap streams depend on the seed, embedder and group,
 * so any corpus with EpiRec's content gets exactly Exp. 6's numbers. The extended strategies rank
 * the same stores for the same probes; `run` keeps only the paper's strategies, `outputs` (rankings and
 * official reports) has every strategy's.
 */
export async function runEpisodic(corpus: EpisodicCorpus, embedder: Embedder, spec: BootstrapSpec, label: string): Promise<EpisodicRun> {
  const probes = corpus.personas.flatMap((p) => p.episodes.flatMap((e) => e.probes.map((q) => ({ persona: p.id, episode: e, probe: q }))));
  const n = probes.length;
  const types = [...new Set(probes.map((p) => p.probe.type))].sort(compareCodePoints);
  const groups: [string, number[]][] = [
    ...types.map((t): [string, number[]] => [t, probes.flatMap((p, i) => (p.probe.type === t ? [i] : []))]),
    ["overall", probes.map((_, i) => i)],
  ];
  // Every group's resamples and the official reports' draws are drawn on the worker threads while the texts are embedded
  // and the strategies rank (they depend only on the seeds and the groups' sizes).
  if (n > 0) {
    prefetchResamples(
      groups.map(([g, idx]) => ({ n: idx.length, label: `episodic/${embedder.name}/${g}` })),
      spec,
    );
    prefetchOfficialDraws(officialGroupSizes(corpus));
  }
  const analyzer = new LexiconAnalyzer();
  const items: (readonly [string, "document" | "query"])[] = [];
  for (const p of corpus.personas)
    for (const e of p.episodes) items.push([e.text, "document"], ...e.probes.map((q) => [q.query, "query"] as const));
  const vectors = await embedByRole(embedder, items, label);
  const paper = strategies();
  const strats = extendedStrategies(); // the paper's strategies first, in the same order
  const rank = strats.map(() => new Int32Array(n)); // 1-based target rank per probe
  const writers = strats.map(() => new RankingsWriter()); // every strategy's rankings and official report, the extended set's too
  const ranked: string[][][] = strats.map(() => []);
  let rankedMemories = 0;
  const progress = new Progress(`${label} (${embedder.name}): ranking`, { total: n });
  const stores = corpus.personas.map((persona) =>
    personaGroup(
      persona,
      EPISODIC_PROTOCOL.stored_C,
      corpus.referenceNowMs,
      vectors,
      (text) => analyzer.analyzeSync(text),
      (text) => analyzer.analyzeSync(text).intensity,
    ),
  );
  const targets = probeTargets(corpus);
  const ids = corpus.personas.map((p) => p.episodes.map((e) => e.id));
  const idBytes = ids.map((x) => RankingsWriter.encodeIds(x));
  let prefix = "";
  const fires = rankGroups(
    stores,
    embedder,
    strats,
    {
      query(pi, g) {
        prefix = `{"persona_id": ${JSON.stringify(corpus.personas[g]!.id)}, "probe_id": ${JSON.stringify(probes[pi]!.probe.id)}, "ranked_episode_ids": `;
      },
      ranking(pi, si, order, g, nearTies) {
        rank[si]![pi] = rankOf(order, targets[pi]!);
        rankedMemories += order.length;
        ranked[si]!.push(Array.from(order, (i) => ids[g]![i]!));
        writers[si]!.line(prefix, order, idBytes[g]!, lineEnd(nearTies));
      },
    },
    progress,
  );
  progress.finish();

  const reflective = probes.flatMap((p, i) => (p.probe.type !== FACTUAL ? [i] : []));
  const bands = [...new Set(probes.flatMap((p) => (p.episode.intensityBand ? [p.episode.intensityBand] : [])))].sort(compareCodePoints);
  const r3 = (x: number) => pyRound(x, 3);
  const perProbe = (si: number) => {
    const rk = rank[si]!;
    const at = (k: number) => Float64Array.from(rk, (r) => (r >= 1 && r <= k ? 1 : 0));
    return { r3: at(3), r1: at(1), mrr: Float64Array.from(rk, (r) => (r > 0 ? 1 / r : 0)) };
  };
  const summarize = (m: ReturnType<typeof perProbe>, idx: number[]) => ({
    r3: r3(mean(idx.map((i) => m.r3[i]!))),
    r1: r3(mean(idx.map((i) => m.r1[i]!))),
    mrr: r3(mean(idx.map((i) => m.mrr[i]!))),
  });
  /** Per group, that group's probes' metric arrays (each group is resampled on its own probes). */
  const groupArrays = (m: ReturnType<typeof perProbe>, idx: number[]) => ({
    r3: Float64Array.from(idx, (i) => m.r3[i]!),
    r1: Float64Array.from(idx, (i) => m.r1[i]!),
    mrr: Float64Array.from(idx, (i) => m.mrr[i]!),
  });
  const perStrategy = strats.map((_, si) => perProbe(si));
  // the extended set's sign-flip tests start now on the thread pool's workers, while this thread computes the groups'
  // CIs and the official reports; its results are built after those
  const startedExtended = startExtendedStrategyResults(
    strats.map((s, si) => {
      const m = perStrategy[si]!;
      return { strategy: s, values: { "recall@3": m.r3, "recall@1": m.r1, mrr: m.mrr } };
    }),
    spec,
    `episodic/${embedder.name}/overall`,
    3,
  );
  const ci95 = strats.map(() => ({}) as Record<string, [number, number]>);
  const paired = strats.map(() => ({}) as Record<string, { diff: number; ci95: [number, number] }>);
  for (const [g, idx] of groups) {
    const u = strategyUncertainty(
      paper.map((s, si) => ({ key: s.key, values: groupArrays(perStrategy[si]!, idx) })),
      spec,
      `episodic/${embedder.name}/${g}`,
      3,
    );
    paper.forEach((s, si) => {
      const su = u.get(s.key)!;
      for (const [k, v] of Object.entries(su.ci95)) ci95[si]![`${g}.${k}`] = v;
      for (const [k, v] of Object.entries(su.paired ?? {})) paired[si]![`${g}.${k}`] = v;
    });
  }
  const results: Record<string, unknown> = {};
  const outputs: EpisodicRun["outputs"] = [];
  paper.forEach((s, si) => {
    const m = perStrategy[si]!;
    const entry: Record<string, unknown> = {};
    for (const [g, idx] of groups) entry[g] = summarize(m, idx);
    const byBand: Record<string, { recall: number; n: number }> = {};
    for (const t of types.filter((t) => t !== FACTUAL)) {
      for (const b of bands) {
        const idx = probes.flatMap((p, i) => (p.probe.type === t && p.episode.intensityBand === b ? [i] : []));
        if (idx.length > 0) byBand[`${t}·${b}`] = { recall: r3(mean(idx.map((i) => m.r3[i]!))), n: idx.length };
      }
    }
    entry.reflective_recall3_by_band = byBand;
    entry.ci95 = ci95[si];
    if (Object.keys(paired[si]!).length > 0) entry.paired_vs_similarity = paired[si];
    results[s.key] = entry;
  });
  strats.forEach((s, si) => {
    const jsonl = writers[si]!.bytes();
    const rankingMap = new Map(probes.map((p, i) => [p.probe.id, ranked[si]![i]!]));
    const official = formatOfficialReport(evaluateRankings(corpus, rankingMap, { benchmark: corpus.name, dataSha256: corpus.sha256 }));
    outputs.push({ strategy: s, jsonl, official });
  });

  const extended = startedExtended();
  strats.forEach((s, si) => {
    const byType: Record<string, number> = {};
    for (const [g, idx] of groups) if (g !== "overall") byType[g] = r3(mean(idx.map((i) => perStrategy[si]!.r3[i]!)));
    (extended[s.key] as Record<string, unknown>)["recall@3_by_type"] = byType;
  });

  return {
    extended: { strategies: extended },
    run: {
      gate: { rule: libraryGate("analyzer").rule, reflective_fused_fraction: pyRound(mean(reflective.map((i) => fires[i]!)), 4) },
      strategies: results,
    },
    outputs,
    probes: n,
    rankedMemories,
  };
}
