/**
 * The built-in strategies on a LongMemEval-format file under the ladder's measures (Persode's protocol of Exp. 8 b:
 * every turn a memory, questions with a has_answer turn and no abstention, in data order), for the paired
 * comparison of `pnpm bench longmemeval-eval` with an outside system on the same questions.
 */
import { LexiconAnalyzer, extendedStrategies, type Embedder } from "@persode/core";
import type { LongMemEvalDataset } from "@persode/datasets";
import { embedDistinct } from "../embed.js";
import { questionStore } from "../experiments/exp8-longmemeval.js";
import { relevantRanks, scoreQuestion, sessionRanks, type Measure } from "../protocols.js";
import { rankGroups } from "../ranking-loop.js";

/** Per built-in strategy, per measure, the values of every included question. */
export async function builtinLadderColumns(
  data: LongMemEvalDataset,
  embedder: Embedder,
  measures: readonly Measure[],
): Promise<Map<string, Float64Array[]>> {
  const analyzer = new LexiconAnalyzer();
  const analyze = (t: string) => analyzer.analyzeSync(t);
  const included = data.questions.filter((q) => !q.abstention && q.sessions.some((s) => s.turns.some((t) => t.hasAnswer === true)));
  const vectors = await embedDistinct(
    embedder,
    [...included.flatMap((q) => q.sessions.flatMap((s) => s.turns.map((t) => t.content))), ...included.map((q) => q.question)],
    "longmemeval-eval",
  );
  const strats = extendedStrategies();
  const cols = strats.map(() => measures.map(() => new Float64Array(included.length)));
  included.forEach((q, qi) => {
    const st = questionStore(q, analyze, vectors);
    const nGold = st.evidence.reduce((a, b) => a + b, 0);
    rankGroups(
      [{ ...st, queries: [{ text: q.question, vector: vectors.get(q.question)!, intensity: analyze(q.question).intensity }] }],
      embedder,
      strats,
      {
        ranking(_i, si, order) {
          const v = scoreQuestion(
            measures,
            { ranks: relevantRanks(order, st.evidence), nGold },
            { ranks: sessionRanks(order, st.sessionOf, st.evidenceSessions), nGold: st.evidenceSessions.size },
          );
          v.forEach((x, mi) => (cols[si]![mi]![qi] = x));
        },
      },
    );
  });
  return new Map(strats.map((s, si) => [s.key, cols[si]!]));
}
