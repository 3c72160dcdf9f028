import { mkdtemp, readdir, rm } from "node:fs/promises";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { persodeCacheDir } from "@persode/util";
import { LOCOMO, sha256Hex, type PinnedDataset, type PinnedModel, type ResolveOptions } from "../src/index.js";

/** Fresh temporary directory; `cleanup` removes every directory made so far. */
const made: string[] = [];
export async function tempDir(prefix = "persode-ds-"): Promise<string> {
  const d = await mkdtemp(join(tmpdir(), prefix));
  made.push(d);
  return d;
}
export async function cleanup(): Promise<void> {
  await Promise.all(made.splice(0).map((d) => rm(d, { recursive: true, force: true })));
}

/** Sorted entries of a directory ([] when it does not exist). */
export async function entries(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir)).sort();
  } catch {
    return [];
  }
}

/** A synthetic pinned dataset over `bytes`, so resolution tests need no real data; its URL is unreachable. */
export function fakeDataset(bytes: Buffer, fileName = "fake_v1.json"): PinnedDataset {
  return {
    ...LOCOMO,
    fileName,
    sha256: sha256Hex(bytes),
    url: "http://127.0.0.1:9/unreachable",
    envPathVar: "PERSODE_FAKE_PATH",
  };
}

/** A local HTTP server on 127.0.0.1 that counts requests; `close` also drops stalled connections. */
export interface LocalServer {
  url(path: string): string;
  requests(): number;
  close(): Promise<void>;
}
export async function startServer(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<LocalServer> {
  let count = 0;
  const server = createServer((req, res) => {
    count++;
    handler(req, res);
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const port = (server.address() as AddressInfo).port;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    requests: () => count,
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}

/**
 * Options that find the real pinned files offline and never write: the mirror named by PERSODE_DATA_MIRROR
 * (CI sets it), else the user's cache. When neither holds them, loading fails with a message saying how to
 * provide them — tests that need data never skip.
 */
export function pinnedDataOptions(): ResolveOptions {
  const opts: ResolveOptions = {
    offline: true,
    fillCache: false,
    cacheDir: persodeCacheDir(process.env),
    env: {},
  };
  const mirror = process.env.PERSODE_DATA_MIRROR;
  if (mirror) opts.mirrorDir = mirror;
  return opts;
}

/**
 * A declaration of the generated tiny BERT (`tinyBertFiles()` of @persode/core/testing) pinning `files`, for
 * provisioning tests; `extra` adds sources (bundled folder, hub, Maven).
 */
export function tinyBertPin(
  files: ReadonlyMap<string, Uint8Array>,
  paths: readonly string[],
  extra: Partial<PinnedModel> = {},
): PinnedModel {
  const id = "persode/tiny-bert";
  const bytes = (p: string) => Buffer.from(files.get(p)!);
  return {
    name: "tiny-bert",
    paper: false,
    inBenchAll: false,
    aliases: [],
    id,
    upstream: id,
    revision: "0123456789abcdef0123456789abcdef01234567",
    dtype: "fp32",
    license: "test",
    citation: "none (a generated test model)",
    dimensions: 32,
    pooling: "mean",
    normalize: true,
    maxWordPieces: 64,
    prefixes: { query: "", document: "" },
    fingerprint: "0000000000000000",
    files: paths.map((p) => ({ path: p, bytes: bytes(p).length, sha256: sha256Hex(bytes(p)) })),
    ...extra,
  };
}
