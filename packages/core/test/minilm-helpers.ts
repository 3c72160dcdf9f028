import { createServer, type Server } from "node:http";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AddressInfo } from "node:net";
import { writeTinyBertModel, type TinyBertInfo } from "../src/embedders/tiny-bert.js";

/** A temp folder with the generated tiny model under `<root>/models/<model id>/`. */
export interface TinyModelFixture {
  root: string;
  modelRoot: string;
  info: TinyBertInfo;
  cleanup(): void;
}

/** Generate the tiny BERT model into a fresh temp folder (no network). */
export async function tinyModelFixture(seed = 1): Promise<TinyModelFixture> {
  const root = mkdtempSync(join(tmpdir(), "persode-minilm-"));
  const modelRoot = join(root, "models");
  const info = await writeTinyBertModel(modelRoot, { seed });
  return { root, modelRoot, info, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

/** How the fake model host behaves: serve files, answer 404, or accept and never answer. */
export type HostMode = "serve" | "404" | "hang";

/** A model host on 127.0.0.1 speaking the Hub's `/<model>/resolve/<revision>/<file>` layout. */
export async function fakeModelHost(modelRoot: string, mode: HostMode): Promise<{ url: string; requests: string[]; close(): Promise<void> }> {
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    requests.push(req.url ?? "");
    if (mode === "hang") return; // never respond
    const m = /^\/(.+)\/resolve\/([^/]+)\/(.+)$/.exec(decodeURIComponent(req.url ?? ""));
    if (mode === "404" || !m) {
      res.writeHead(404).end("not found");
      return;
    }
    try {
      const body = readFileSync(join(modelRoot, m[1]!, m[3]!));
      res.writeHead(200, { "content-length": String(body.length) }).end(body);
    } catch {
      res.writeHead(404).end("not found");
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Euclidean norm. */
export function norm(v: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < v.length; i++) s += v[i]! * v[i]!;
  return Math.sqrt(s);
}

/** Largest absolute elementwise difference. */
export function maxAbsDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) return Infinity;
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]! - b[i]!));
  return m;
}
