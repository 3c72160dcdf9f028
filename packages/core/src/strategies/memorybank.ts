import { DAY_MS } from "@persode/util";
import type { RankingContext } from "../ranking.js";
import type { RetrievalStrategy } from "./strategy.js";

/**
 * MemoryBank's retention R = e^(−t/S) for every memory (Zhong et al., AAAI 2024, §2.3 "Memory
 * Updating"): t = days since the memory was last recalled (else since it was created), S = 1 + recalls.
 */
export function memoryBankRetention(ctx: RankingContext): Float64Array {
  return retention(ctx).slice();
}

/** The retention column, shared by every query of a store at one time (RankingContext.storeValue); never mutated. */
function retention(ctx: RankingContext): Float64Array {
  return ctx.storeValue("memorybank retention", () => {
    const { size, decayFromMs, recallCount } = ctx.columns;
    const out = new Float64Array(size);
    for (let i = 0; i < size; i++) {
      const t = Math.max(0, (ctx.nowMs - decayFromMs[i]!) / DAY_MS);
      out[i] = Math.exp(-t / (1 + recallCount[i]!));
    }
    return out;
  });
}

/**
 * MemoryBank (Zhong et al., "MemoryBank: Enhancing Large Language Models with Long-Term Memory",
 * AAAI 2024): Ebbinghaus retention R = e^(−t/S), t in days since last recall, S = 1 + recalls (S starts
 * at 1 and each recall adds 1 and resets t). Score = cosine · R.
 *
 * Substitution: the paper forgets a memory at random with probability 1 − R and retrieves the rest by
 * similarity; this strategy is the deterministic expectation of that — similarity weighted by
 * retention — so rankings are reproducible.
 *
 * Where the published code differs (zhongwanjun/MemoryBank-SiliconFriend,
 * memory_bank/memory_retrieval/forget_memory.py): S is the memory's level + 1, capped at 3 (three
 * levels), t is a whole number of days, and a memory 30 days or more past its level date is always
 * dropped. This module follows the paper.
 */
export const memoryBank: RetrievalStrategy = {
  key: "memorybank",
  slug: "memorybank",
  description: "Zhong et al. 2023: cosine × retention e^(−t/S), t days since last recall, S = 1 + recalls",
  rank: (ctx) => {
    const sim = ctx.similarity();
    const r = retention(ctx);
    const s = new Float64Array(ctx.size);
    for (let i = 0; i < s.length; i++) s[i] = sim[i]! * r[i]!;
    return ctx.order(s);
  },
};
