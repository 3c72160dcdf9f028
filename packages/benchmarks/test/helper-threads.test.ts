// The helper threads a run starts before its experiments' code loads (cli.ts helperThreads, rank-worker-thread.ts).
import { describe, expect, it } from "vitest";
import { helperThreads } from "../src/cli.js";
import { EXPERIMENTS, findExperiment } from "../src/experiments/index.js";
import { prepareRankWorker, takePreparedRankWorker } from "../src/rank-worker-thread.js";

describe("helper threads started ahead", () => {
  it("are the selected experiments' own, and only when every one will be computed (no result cache)", () => {
    const exp = (id: string) => findExperiment(id)!;
    expect([...helperThreads([exp("exp5")], false)].sort()).toEqual(["rank", "statistics"]);
    expect([...helperThreads([exp("exp6")], false)]).toEqual(["statistics"]);
    expect([...helperThreads([exp("exp1"), exp("exp2")], false)]).toEqual([]);
    expect([...helperThreads(EXPERIMENTS, false)].sort()).toEqual(["rank", "statistics"]);
    // with the result cache on, a run may be replayed: nothing is started ahead
    expect([...helperThreads([exp("exp5")], true)]).toEqual([]);
  });

  it("hand a prepared rank worker over once", async () => {
    const before = process.env.PERSODE_THREADS;
    process.env.PERSODE_THREADS = "2";
    try {
      prepareRankWorker();
      prepareRankWorker(); // one is waiting: no second thread
      const w = takePreparedRankWorker();
      expect(w).toBeDefined();
      expect(takePreparedRankWorker()).toBeUndefined();
      await w!.terminate();
      process.env.PERSODE_THREADS = "1";
      prepareRankWorker();
      expect(takePreparedRankWorker()).toBeUndefined();
    } finally {
      if (before === undefined) delete process.env.PERSODE_THREADS;
      else process.env.PERSODE_THREADS = before;
    }
  });
});
