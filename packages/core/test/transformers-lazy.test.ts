import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HAS_TRANSFORMERS, itWithTransformers } from "./optional-peer.js";

/**
 * Which native libraries a fresh Node process has loaded after using the built package: hashing-only
 * use must not load onnxruntime (nor sharp/libvips, which transformers.js pulls in); MiniLM use must.
 */

const dist = fileURLToPath(new URL("../dist/index.js", import.meta.url));
const testingDist = fileURLToPath(new URL("../dist/testing.js", import.meta.url));
let root: string;

beforeAll(() => {
  expect(existsSync(dist), `build first: pnpm --filter @persode/core build (missing ${dist})`).toBe(true);
  root = mkdtempSync(join(tmpdir(), "persode-lazy-"));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

interface ChildResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runChild(body: string, env: Record<string, string> = {}): Promise<ChildResult> {
  const script = `
    const core = await import(${JSON.stringify(dist)});
    const native = () => process.report.getReport().sharedObjects.filter((s) => /onnxruntime|vips|sharp/i.test(s));
    ${body}`;
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, ["--input-type=module", "-e", script], {
      env: { PATH: process.env.PATH ?? "", HOME: root, PERSODE_DATA_DIR: join(root, "data"), ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    p.stdout.on("data", (d) => (stdout += d));
    p.stderr.on("data", (d) => (stderr += d));
    p.on("error", reject);
    p.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("lazy loading of transformers.js / onnxruntime", () => {
  it("hashing-only use never loads onnxruntime", async () => {
    const r = await runChild(`
      const e = await core.createEmbedder("hashing");
      await e.embedBatch(["hello world", "i'm fine"]);
      console.log(JSON.stringify({ names: core.embedderNames(), native: native() }));`);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { names: string[]; native: string[] };
    expect(out.names).toContain("minilm");
    expect(out.native).toEqual([]);
  });

  itWithTransformers("MiniLM use does load onnxruntime (the check above can see it)", async () => {
    const r = await runChild(
      `
      const { writeTinyBertModel } = await import(${JSON.stringify(testingDist)});
      const info = await writeTinyBertModel(${JSON.stringify(join(root, "models"))});
      const e = await core.createEmbedder("minilm", { model: info.modelId, cacheDir: ${JSON.stringify(join(root, "emb"))} });
      const v = await e.embed("hello");
      console.log(JSON.stringify({ dim: v.length, native: native() }));`,
      { PERSODE_MODEL_DIR: join(root, "models"), PERSODE_OFFLINE: "1" },
    );
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { dim: number; native: string[] };
    expect(out.dim).toBe(32);
    expect(out.native.some((s) => s.includes("onnxruntime"))).toBe(true);
  });

  it("offline with an empty PERSODE_MODEL_DIR fails with the fix and without loading onnxruntime", async () => {
    const r = await runChild(
      `
      try {
        await core.createEmbedder("minilm");
        console.log("loaded?!");
      } catch (e) {
        console.error(e.message);
        console.log(JSON.stringify({ native: native() }));
        process.exitCode = 2;
      }`,
      { PERSODE_MODEL_DIR: join(root, "empty"), PERSODE_OFFLINE: "1" },
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('embedding model "Xenova/all-MiniLM-L6-v2"');
    expect(r.stderr).toContain(join(root, "empty", "Xenova", "all-MiniLM-L6-v2"));
    expect(JSON.parse(r.stdout)).toEqual({ native: [] });
  });

  // Runs only where the optional peer is absent (a packed install: README "Testing without the optional peer"):
  // what such a user gets instead of a model is a clear error naming the fix, with hashing still working.
  it.skipIf(HAS_TRANSFORMERS)(
    "without the optional peer @huggingface/transformers, a neural embedder is a clear error naming the fix; hashing works",
    async () => {
      const r = await runChild(
        `
      const { writeTinyBertModel } = await import(${JSON.stringify(testingDist)});
      const info = await writeTinyBertModel(${JSON.stringify(join(root, "models-no-peer"))});
      const h = await core.createEmbedder("hashing");
      const dim = (await h.embed("hello")).length;
      try {
        await core.createEmbedder("minilm", { model: info.modelId, cacheDir: ${JSON.stringify(join(root, "emb-no-peer"))} });
        console.log("loaded?!");
      } catch (e) {
        console.error(e.name + ": " + e.message);
        console.log(JSON.stringify({ dim, native: native() }));
        process.exitCode = 2;
      }`,
        { PERSODE_MODEL_DIR: join(root, "models-no-peer"), PERSODE_OFFLINE: "1" },
      );
      expect(r.code, r.stdout).toBe(2);
      expect(r.stderr).toContain("ModelUnavailableError: neural embedders need the optional dependency @huggingface/transformers");
      expect(r.stderr).toContain("pnpm add @huggingface/transformers@4.3.2");
      expect(JSON.parse(r.stdout)).toEqual({ dim: 256, native: [] });
    },
  );
});
