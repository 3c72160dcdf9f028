import { Memory, Scorer, rankByStrength, toEpochMs } from "@persode/core";
import { DAY_MS, pyRound } from "@persode/util";
import type { Exp2File } from "@persode/results";
import { scenarioMemoryInit, type Scenario } from "../scenario.js";

const FOCUS_EVENT = "lost beloved dog";

/**
 * Exp. 2 — Eq. 1 weight ablation (paper §4.2): rank the ten scenario memories by strength S at
 * reference_now under each weighting; follow the grief memory across weightings.
 */
export function runExp2(scenario: Scenario): Omit<Exp2File, "meta"> {
  const nowMs = toEpochMs(scenario.reference_now);
  const memories = scenario.memories.map((m) => new Memory(scenarioMemoryInit(m, nowMs)));
  const rankings: Record<string, { event: string; S: number }[]> = {};
  const rankOf: Record<string, number> = {};
  const sOf: Record<string, number> = {};
  const rawFocus: Record<string, number> = {};
  for (const w of scenario.exp2_weightings) {
    const scorer = new Scorer({ weights: { emotion: w.w_emotion, recall: w.w_recall, context: w.w_context } });
    const S = memories.map((m) => scorer.score(m, (nowMs - (m.lastRecalledMs ?? m.createdAtMs)) / DAY_MS).strength);
    const order = rankByStrength(S, (s) => s);
    rankings[w.label] = order.map((i) => ({ event: memories[i]!.event, S: pyRound(S[i]!, 4) }));
    const fi = memories.findIndex((m) => m.event === FOCUS_EVENT);
    rankOf[w.label] = order.indexOf(fi) + 1;
    sOf[w.label] = pyRound(S[fi]!, 4);
    rawFocus[w.label] = S[fi]!;
  }
  const [balanced, emotionHeavy] = scenario.exp2_weightings;
  return {
    reference_now: scenario.reference_now,
    rankings,
    weightings: scenario.exp2_weightings,
    focus: {
      event: FOCUS_EVENT,
      rank_by_weighting: rankOf,
      S_by_weighting: sOf,
      ratio_emotion_heavy_vs_balanced: pyRound(rawFocus[emotionHeavy!.label]! / rawFocus[balanced!.label]!, 1),
    },
    findings: { emotion_heavy_weighting: emotionHeavy!.label },
  };
}
