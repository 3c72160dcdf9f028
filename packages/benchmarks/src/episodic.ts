import { LexiconAnalyzer, MemoryStore, gateFires, pyRound, strategies, type Embedder, type RetrievalStrategy } from "@persode/core";
import type { EpisodicCorpus } from "@persode/datasets";
import { embedDistinct } from "./embed.js";
import { compareCodePoints, evaluateRankings, formatOfficialReport } from "./epirec/official.js";
import { mean, rankOf } from "./metrics.js";
import { rankingLine } from "./results.js";
import { Progress } from "./progress.js";
import { bootstrapMany, pairedBootstrapMany, type BootstrapSpec } from "./stats/bootstrap.js";

/** The probe type that asks for facts; every other type counts as reflective. */
export const FACTUAL = "factual";

/** Protocol constants of an EpiRec-style evaluation (SPEC §7 Exp. 6). */
export const EPISODIC_PROTOCOL = { alpha: 0.5, top_k_primary: 3, stored_C: 0.5 } as const;

/** Everything one embedder's run over an episodic corpus produces. */
export interface EpisodicRun {
  /** `runs.<embedder>` of the results file. */
  run: Record<string, unknown>;
  /** Per strategy: the rankings JSONL text and the official evaluator's report text. */
  outputs: { strategy: RetrievalStrategy; jsonl: string; official: string }[];
  probes: number;
  rankedMemories: number;
}

/**
 * Evaluate every registered strategy on an episodic corpus with the Exp. 6 protocol: one store per
 * persona, memory = episode text, E and emotion from the analyzer (authored labels never enter
 * retrieval), C = 0.5, created_at = episode time, now = the corpus reference_now; each probe targets
 * its own episode. Metrics per probe type (rounded 3), reflective recall@3 by intensity band, the
 * gate's firing fraction on reflective probes, bootstrap CIs, full rankings and official reports.
 */
export async function runEpisodic(corpus: EpisodicCorpus, embedder: Embedder, spec: BootstrapSpec, label: string): Promise<EpisodicRun> {
  const analyzer = new LexiconAnalyzer();
  const texts: string[] = [];
  for (const p of corpus.personas) for (const e of p.episodes) texts.push(e.text, ...e.probes.map((q) => q.query));
  const vectors = await embedDistinct(embedder, texts, label);
  const strats = strategies();
  const probes = corpus.personas.flatMap((p) => p.episodes.flatMap((e) => e.probes.map((q) => ({ persona: p.id, episode: e, probe: q }))));
  const n = probes.length;
  const rank = strats.map(() => new Int32Array(n)); // 1-based target rank per probe
  const lines: string[][] = strats.map(() => []);
  const fires = new Uint8Array(n);
  let rankedMemories = 0;
  const progress = new Progress(`${label} (${embedder.name}): ranking`, n);

  let pi = 0;
  for (const persona of corpus.personas) {
    const store = new MemoryStore({ embedder });
    for (const e of persona.episodes) {
      const a = analyzer.analyzeSync(e.text);
      store.addEmbedded(
        { id: e.id, text: e.text, event: a.event, emotion: a.emotion, hashtags: a.hashtags, emotionalIntensity: a.intensity, contextualRelevance: EPISODIC_PROTOCOL.stored_C, createdAt: e.timestampMs },
        vectors.get(e.text)!,
      );
    }
    const ids = store.memories.map((m) => m.id);
    const columns = store.columns();
    const staticOrders = new Map<RetrievalStrategy, Int32Array>();
    for (const e of persona.episodes) {
      for (const q of e.probes) {
        const intensity = analyzer.analyzeSync(q.query).intensity;
        fires[pi] = gateFires(intensity) ? 1 : 0;
        const ctx = store.context({ text: q.query, vector: vectors.get(q.query)!, intensity }, corpus.referenceNowMs, columns);
        strats.forEach((s, si) => {
          let order = staticOrders.get(s);
          if (!order) {
            order = s.rank(ctx);
            if (s.queryIndependent) staticOrders.set(s, order);
          }
          const ranked = Array.from(order, (i) => ids[i]!);
          rank[si]![pi] = rankOf(ranked, e.id);
          lines[si]!.push(rankingLine([["persona_id", persona.id], ["probe_id", q.id], ["ranked_episode_ids", ranked]]));
          rankedMemories += ranked.length;
        });
        pi++;
        progress.tick();
      }
    }
  }
  progress.done();

  const types = [...new Set(probes.map((p) => p.probe.type))].sort(compareCodePoints);
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
  const groups: [string, number[]][] = [
    ...types.map((t): [string, number[]] => [t, probes.flatMap((p, i) => (p.probe.type === t ? [i] : []))]),
    ["overall", probes.map((_, i) => i)],
  ];
  /** Per group, that group's probes' metric arrays (each group is resampled on its own probes). */
  const groupArrays = (m: ReturnType<typeof perProbe>, idx: number[]) => ({
    r3: Float64Array.from(idx, (i) => m.r3[i]!),
    r1: Float64Array.from(idx, (i) => m.r1[i]!),
    mrr: Float64Array.from(idx, (i) => m.mrr[i]!),
  });
  const simIndex = strats.findIndex((s) => s.key === "similarity-only");
  const results: Record<string, unknown> = {};
  const outputs: EpisodicRun["outputs"] = [];
  strats.forEach((s, si) => {
    const m = perProbe(si);
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
    const ci95: Record<string, [number, number]> = {};
    const paired: Record<string, { diff: number; ci95: [number, number] }> = {};
    const base = simIndex >= 0 && si !== simIndex ? perProbe(simIndex) : undefined;
    for (const [g, idx] of groups) {
      const mine = groupArrays(m, idx);
      const ci = bootstrapMany(mine, spec, `${label}/${embedder.name}/${s.key}/${g}`);
      for (const [k, [lo, hi]] of Object.entries(ci)) ci95[`${g}.${k}`] = [r3(lo), r3(hi)];
      if (base) {
        const other = groupArrays(base, idx);
        const pairs = { r3: [mine.r3, other.r3] as const, r1: [mine.r1, other.r1] as const, mrr: [mine.mrr, other.mrr] as const };
        const p = pairedBootstrapMany(pairs, spec, `${label}/${embedder.name}/${s.key} vs similarity-only/${g}`);
        for (const [k, v] of Object.entries(p)) paired[`${g}.${k}`] = { diff: r3(v.diff), ci95: [r3(v.ci95[0]), r3(v.ci95[1])] };
      }
    }
    entry.ci95 = ci95;
    if (base) entry.paired_vs_similarity = paired;
    results[s.key] = entry;

    const jsonl = lines[si]!.join("\n") + "\n";
    const rankingMap = new Map(probes.map((p, i) => [p.probe.id, JSON.parse(lines[si]![i]!).ranked_episode_ids as string[]]));
    const official = formatOfficialReport(evaluateRankings(corpus, rankingMap, { benchmark: corpus.name, dataSha256: corpus.sha256 }));
    outputs.push({ strategy: s, jsonl, official });
  });

  return {
    run: {
      gate: { rule: "fusion iff analyzer E >= 0.6 on the query", reflective_fused_fraction: pyRound(mean(reflective.map((i) => fires[i]!)), 4) },
      strategies: results,
    },
    outputs,
    probes: n,
    rankedMemories,
  };
}
