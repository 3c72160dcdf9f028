// PERSODE_MODEL_DIR holds `<model id>/` with the files; PERSODE_MODEL_MIRROR holds the files themselves.
// Each given the other's layout used to fail with only "… is missing" / "provided nothing"; the error
// now says which layout the folder has and which variable (or path) to set instead.
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { tinyBertFiles } from "@persode/core/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { provisionModel, type PinnedModel, type ProvisionOptions } from "../src/index.js";
import { cleanup, tempDir, tinyBertPin } from "./helpers.js";

const MODEL_ID = "persode/tiny-bert";
const files = tinyBertFiles();
const bytesOf = (p: string) => Buffer.from(files.get(p)!);
const PATHS = ["config.json", "tokenizer.json", "tokenizer_config.json", "onnx/model.onnx"];

let work: string;
let pin: PinnedModel;
beforeEach(async () => {
  work = await tempDir("persode-layout-");
  pin = tinyBertPin(files, PATHS);
});
afterEach(cleanup);

const opts = (extra: Partial<ProvisionOptions>): ProvisionOptions => ({
  model: pin,
  cacheDir: join(work, "cache"),
  env: { PATH: "/usr/bin:/bin" },
  offline: true,
  log: () => undefined,
  ...extra,
});

async function put(dir: string): Promise<void> {
  for (const p of PATHS) {
    await mkdir(join(dir, p, ".."), { recursive: true });
    await writeFile(join(dir, p), bytesOf(p));
  }
}

describe("the two model-folder layouts, each given to the other variable", () => {
  it("PERSODE_MODEL_DIR with the files directly in it: names the mirror layout and the fix", async () => {
    const flat = join(work, "flat");
    await put(flat);
    const err = (await provisionModel(opts({ env: { PERSODE_MODEL_DIR: flat } })).catch((e: Error) => e)) as Error;
    expect(err.message).toContain(`${flat} holds the model files themselves (config.json, …): that is the PERSODE_MODEL_MIRROR layout`);
    expect(err.message).toContain(`set PERSODE_MODEL_MIRROR=${flat} instead`);
    // and the fix it names works
    const p = await provisionModel(opts({ env: { PERSODE_MODEL_MIRROR: flat } }));
    expect(p.files.every((f) => f.source === "mirror")).toBe(true);
  });

  it("PERSODE_MODEL_MIRROR with <model id>/ in it: names the PERSODE_MODEL_DIR layout and the fix", async () => {
    const nested = join(work, "nested");
    await put(join(nested, "persode", "tiny-bert"));
    const err = (await provisionModel(opts({ env: { PERSODE_MODEL_MIRROR: nested } })).catch((e: Error) => e)) as Error;
    expect(err.message).toContain(`mirror ${nested}: provided nothing — it holds ${MODEL_ID}/, the PERSODE_MODEL_DIR layout`);
    expect(err.message).toContain(`set PERSODE_MODEL_MIRROR=${join(nested, "persode", "tiny-bert")} or PERSODE_MODEL_DIR=${nested}`);
    const p = await provisionModel(opts({ env: { PERSODE_MODEL_DIR: nested } }));
    expect(p.dir).toBe(join(nested, "persode", "tiny-bert"));
  });
});
