// The LLM estimator joins Exp. 7 only when PERSODE_EXP7_LLM is on, then asks the configured
// OpenAI-compatible endpoint — here a mock on 127.0.0.1 — and refuses to run without an endpoint.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { EMOBANK, EPIREC, loadEmoBank, loadEpiRec, resolveDataset } from "@persode/datasets";
import { HashingEmbedder } from "@persode/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildEstimators } from "../src/emotion-estimators.js";
import { DATA_OPTIONS } from "./bench-helpers.js";

describe("Exp. 7 LLM estimator wiring", () => {
  let server: Server;
  let baseUrl = "";
  const seen: string[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () => {
        seen.push(body);
        const content = JSON.stringify({
          event: "a thing",
          emotion: "joyful",
          intensity: 0.7,
          valence: 1,
          hashtags: ["#Thing"],
          title: "A Thing",
        });
        res
          .writeHead(200, { "content-type": "application/json" })
          .end(JSON.stringify({ choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }] }));
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  });

  it("is off by default, refuses to run without an endpoint, and asks the endpoint when configured", async () => {
    const opts = { ...DATA_OPTIONS, path: (await resolveDataset(EMOBANK, DATA_OPTIONS)).path };
    const emobank = await loadEmoBank(opts);
    const corpus = await loadEpiRec({ ...DATA_OPTIONS, path: (await resolveDataset(EPIREC, DATA_OPTIONS)).path });
    const embedder = new HashingEmbedder();
    const off = await buildEstimators(emobank, corpus, embedder, [], {});
    expect(off.estimators.map((e) => e.name)).toEqual(["lexicon", "vader", "afinn", "emobank", "prototype", "oracle"]);
    await expect(buildEstimators(emobank, corpus, embedder, [], { PERSODE_EXP7_LLM: "1" })).rejects.toThrow(
      /PERSODE_EXP7_LLM is on but no LLM endpoint is configured/,
    );
    const on = await buildEstimators(emobank, corpus, embedder, [], {
      PERSODE_EXP7_LLM: "1",
      PERSODE_LLM_API_KEY: "k",
      PERSODE_LLM_BASE_URL: baseUrl,
    });
    expect(on.estimators.map((e) => e.name)).toEqual(["lexicon", "vader", "afinn", "emobank", "prototype", "llm", "oracle"]);
    const llm = on.estimators.find((e) => e.name === "llm")!;
    expect(await llm.estimate(["We won the final!"])).toEqual([{ intensity: 0.7, valence: 1, polarity: 1 }]);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toContain("We won the final!");
  }, 60_000);
});
