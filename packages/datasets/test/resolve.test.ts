import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  DatasetDownloadError,
  DatasetError,
  DatasetIntegrityError,
  DatasetUnavailableError,
  PINNED_DATASETS,
  resolveDataset,
} from "../src/index.js";
import { cleanup, entries, fakeDataset, pinnedDataOptions, startServer, tempDir, type LocalServer } from "./helpers.js";

const GOOD = Buffer.from(JSON.stringify({ hello: "pinned bytes", n: [1, 2, 3] }));
const BAD = Buffer.from(JSON.stringify({ hello: "some other bytes", n: [1, 2, 3] }));
const ds = fakeDataset(GOOD);

let servers: LocalServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
  await cleanup();
  vi.restoreAllMocks();
});

async function serve(handler: Parameters<typeof startServer>[0]): Promise<LocalServer> {
  const s = await startServer(handler);
  servers.push(s);
  return s;
}

/** A server that returns `body` for every request. */
function serving(body: Buffer) {
  return serve((_req, res) => {
    res.writeHead(200, { "content-type": "application/json", "content-length": body.length });
    res.end(body);
  });
}

/** Layout with a good copy in each of: explicit file, cache, mirror; plus a server holding it. */
async function everywhere() {
  const root = await tempDir();
  const cacheDir = join(root, "cache");
  const mirrorDir = join(root, "mirror");
  const explicit = join(root, "explicit.json");
  await mkdir(cacheDir);
  await mkdir(mirrorDir);
  await writeFile(explicit, GOOD);
  await writeFile(join(cacheDir, ds.fileName), GOOD);
  await writeFile(join(mirrorDir, ds.fileName), GOOD);
  const server = await serving(GOOD);
  return { root, cacheDir, mirrorDir, explicit, server };
}

describe("resolution order: path → cache → mirror → download", () => {
  it("takes the first available source and only downloads when nothing else is there", async () => {
    const { cacheDir, mirrorDir, explicit, server } = await everywhere();
    const base = { cacheDir, mirrorDir, url: server.url("/f.json"), env: {} };

    const a = await resolveDataset(ds, { ...base, path: explicit });
    expect(a.source).toBe("path");
    expect(a.path).toBe(explicit);

    const b = await resolveDataset(ds, base);
    expect(b.source).toBe("cache");
    expect(b.path).toBe(join(cacheDir, ds.fileName));

    await rm(join(cacheDir, ds.fileName));
    const c = await resolveDataset(ds, base);
    expect(c.source).toBe("mirror");
    expect(c.path).toBe(join(mirrorDir, ds.fileName));
    expect(server.requests()).toBe(0);

    await rm(join(cacheDir, ds.fileName));
    const d = await resolveDataset(ds, { ...base, mirrorDir: join(cacheDir, "no-such-mirror") });
    expect(d.source).toBe("download");
    expect(server.requests()).toBe(1);
    expect(d.bytes.equals(GOOD)).toBe(true);
  });

  it("reads the explicit path and the mirror from the env vars when no option is given", async () => {
    const { cacheDir, mirrorDir, explicit } = await everywhere();
    await rm(join(cacheDir, ds.fileName));
    const viaPath = await resolveDataset(ds, { env: { PERSODE_FAKE_PATH: explicit, PERSODE_DATA_DIR: cacheDir } });
    expect(viaPath.source).toBe("path");
    await rm(join(cacheDir, ds.fileName));
    const viaMirror = await resolveDataset(ds, { env: { PERSODE_DATA_MIRROR: mirrorDir, PERSODE_DATA_DIR: cacheDir } });
    expect(viaMirror.source).toBe("mirror");
    const viaCache = await resolveDataset(ds, { env: { PERSODE_DATA_DIR: cacheDir, PERSODE_OFFLINE: "1" } });
    expect(viaCache.source).toBe("cache");
  });

  it("an option wins over its env var", async () => {
    const { cacheDir, explicit, root } = await everywhere();
    const other = join(root, "other.json");
    await writeFile(other, GOOD);
    const r = await resolveDataset(ds, { path: other, cacheDir, env: { PERSODE_FAKE_PATH: explicit } });
    expect(r.path).toBe(other);
  });
});

describe("explicit path", () => {
  it("rejects a mismatching file and leaves the cache alone", async () => {
    const root = await tempDir();
    const cacheDir = join(root, "cache");
    const bad = join(root, "bad.json");
    await writeFile(bad, BAD);
    const err = await resolveDataset(ds, { path: bad, cacheDir, env: {} }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DatasetIntegrityError);
    expect((err as Error).message).toContain(bad);
    expect((err as Error).message).toContain(ds.sha256);
    expect(await entries(cacheDir)).toEqual([]);
  });

  it("reports a missing file instead of falling through", async () => {
    const root = await tempDir();
    await writeFile(join(root, ds.fileName), GOOD);
    const err = await resolveDataset(ds, {
      cacheDir: root,
      env: { PERSODE_FAKE_PATH: join(root, "nope.json") },
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DatasetUnavailableError);
    expect((err as Error).message).toContain("PERSODE_FAKE_PATH");
    expect((err as Error).message).toContain("nope.json");
  });

  it("copies a verified explicit file into the cache", async () => {
    const root = await tempDir();
    const cacheDir = join(root, "cache");
    const f = join(root, "mine.json");
    await writeFile(f, GOOD);
    const r = await resolveDataset(ds, { path: f, cacheDir, env: {} });
    expect(r.cachePath).toBe(join(cacheDir, ds.fileName));
    expect(await entries(cacheDir)).toEqual([ds.fileName]);
  });
});

describe("mirror and cache", () => {
  it("a mirror hit is copied into the cache, so a later run without the mirror finds it", async () => {
    const root = await tempDir();
    const cacheDir = join(root, "cache");
    const mirrorDir = join(root, "mirror");
    await mkdir(mirrorDir);
    await writeFile(join(mirrorDir, ds.fileName), GOOD);
    const first = await resolveDataset(ds, { cacheDir, mirrorDir, offline: true, env: {} });
    expect(first.source).toBe("mirror");
    expect(await entries(cacheDir)).toEqual([ds.fileName]);
    expect((await readFile(join(cacheDir, ds.fileName))).equals(GOOD)).toBe(true);
    const second = await resolveDataset(ds, { cacheDir, offline: true, env: {} });
    expect(second.source).toBe("cache");
  });

  it("fillCache: false never writes", async () => {
    const root = await tempDir();
    const cacheDir = join(root, "cache");
    const mirrorDir = join(root, "mirror");
    await mkdir(mirrorDir);
    await writeFile(join(mirrorDir, ds.fileName), GOOD);
    const r = await resolveDataset(ds, { cacheDir, mirrorDir, offline: true, fillCache: false, env: {} });
    expect(r.source).toBe("mirror");
    expect(r.cachePath).toBeUndefined();
    expect(await entries(cacheDir)).toEqual([]);
  });

  it("a cache hit makes no request", async () => {
    const root = await tempDir();
    await writeFile(join(root, ds.fileName), GOOD);
    const server = await serving(GOOD);
    const r = await resolveDataset(ds, { cacheDir: root, url: server.url("/x"), env: {} });
    expect(r.source).toBe("cache");
    expect(server.requests()).toBe(0);
  });

  it("a corrupted cached copy is ignored and replaced by the verified mirror file", async () => {
    const root = await tempDir();
    const cacheDir = join(root, "cache");
    const mirrorDir = join(root, "mirror");
    await mkdir(cacheDir);
    await mkdir(mirrorDir);
    await writeFile(join(cacheDir, ds.fileName), BAD);
    await writeFile(join(mirrorDir, ds.fileName), GOOD);
    const r = await resolveDataset(ds, { cacheDir, mirrorDir, offline: true, env: {} });
    expect(r.source).toBe("mirror");
    expect((await readFile(join(cacheDir, ds.fileName))).equals(GOOD)).toBe(true);
  });

  it("a mismatching mirror file is never used", async () => {
    const root = await tempDir();
    const cacheDir = join(root, "cache");
    const mirrorDir = join(root, "mirror");
    await mkdir(mirrorDir);
    await writeFile(join(mirrorDir, ds.fileName), BAD);
    const err = await resolveDataset(ds, { cacheDir, mirrorDir, offline: true, env: {} }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DatasetUnavailableError);
    expect((err as Error).message).toMatch(/mirror: .*fake_v1\.json has sha256 [0-9a-f]{64}, not the pinned one/);
    expect(await entries(cacheDir)).toEqual([]);
  });
});

describe("offline with nothing available", () => {
  it("names the dataset, the env vars, the URL and the fix", async () => {
    const root = await tempDir();
    for (const real of PINNED_DATASETS) {
      const err = await resolveDataset(real, { cacheDir: root, env: { PERSODE_OFFLINE: "1" } }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(DatasetUnavailableError);
      const msg = (err as Error).message;
      expect(msg).toContain(real.fileName);
      expect(msg).toContain(
        ({ locomo: "LoCoMo", epirec: "EpiRec v1.0", "locomo-audit": "LoCoMo audit", emobank: "EmoBank" } as Record<string, string>)[
          real.name
        ],
      );
      // a mirror must hold every pinned file: the message names them all
      for (const other of PINNED_DATASETS) expect(msg).toContain(other.fileName);
      expect(msg).toContain(real.envPathVar);
      expect(msg).toContain("PERSODE_DATA_MIRROR");
      expect(msg).toContain("PERSODE_DATA_DIR");
      expect(msg).toContain("PERSODE_OFFLINE=1");
      expect(msg).toContain(real.url);
      expect(msg).toContain("pnpm bench all");
      expect(msg).toContain(join(root, real.fileName));
    }
    expect(await entries(root)).toEqual([]);
  });

  it("PERSODE_OFFLINE is read like every Persode flag (as the model loader reads it): on/yes/TRUE never download, junk is an error", async () => {
    const server = await serving(GOOD);
    for (const value of ["on", "yes", "TRUE", " 1 "]) {
      const err = await resolveDataset(ds, { cacheDir: await tempDir(), url: server.url("/f"), env: { PERSODE_OFFLINE: value } }).catch(
        (e: unknown) => e,
      );
      expect(err, value).toBeInstanceOf(DatasetUnavailableError);
    }
    await expect(
      resolveDataset(ds, { cacheDir: await tempDir(), url: server.url("/f"), env: { PERSODE_OFFLINE: "maybe" } }),
    ).rejects.toThrow(DatasetError);
    await expect(
      resolveDataset(ds, { cacheDir: await tempDir(), url: server.url("/f"), env: { PERSODE_OFFLINE: "maybe" } }),
    ).rejects.toThrow(/PERSODE_OFFLINE="maybe" is not a boolean/);
    expect(server.requests()).toBe(0);
    const r = await resolveDataset(ds, { cacheDir: await tempDir(), url: server.url("/f"), env: { PERSODE_OFFLINE: "off" } });
    expect(r.source).toBe("download");
  });

  it("the offline option overrides PERSODE_OFFLINE", async () => {
    const root = await tempDir();
    const server = await serving(GOOD);
    const r = await resolveDataset(ds, { cacheDir: root, url: server.url("/f"), offline: false, env: { PERSODE_OFFLINE: "1" } });
    expect(r.source).toBe("download");
    const root2 = await tempDir();
    await expect(resolveDataset(ds, { cacheDir: root2, url: server.url("/f"), offline: true, env: {} })).rejects.toBeInstanceOf(
      DatasetUnavailableError,
    );
    expect(server.requests()).toBe(1);
  });
});

describe("download from a local server", () => {
  it("right bytes: verified, renamed into the cache, no temporary file left", async () => {
    const cacheDir = join(await tempDir(), "fresh", "cache");
    const server = await serving(GOOD);
    const r = await resolveDataset(ds, { cacheDir, url: server.url("/fake_v1.json"), env: {} });
    expect(r.source).toBe("download");
    expect(r.sha256).toBe(ds.sha256);
    expect(r.path).toBe(join(cacheDir, ds.fileName));
    expect(await entries(cacheDir)).toEqual([ds.fileName]);
    expect((await readFile(r.path)).equals(GOOD)).toBe(true);
    const again = await resolveDataset(ds, { cacheDir, url: server.url("/fake_v1.json"), env: {} });
    expect(again.source).toBe("cache");
    expect(server.requests()).toBe(1);
  });

  it("works without a content-length (chunked body)", async () => {
    const cacheDir = await tempDir();
    const server = await serve((_req, res) => {
      res.writeHead(200);
      res.write(GOOD.subarray(0, 10));
      setTimeout(() => res.end(GOOD.subarray(10)), 20);
    });
    const r = await resolveDataset(ds, { cacheDir, url: server.url("/f"), env: {} });
    expect(r.bytes.equals(GOOD)).toBe(true);
  });

  it("a compressed body (content-length counts the encoded bytes) is decoded and verified, not called truncated", async () => {
    const cacheDir = await tempDir();
    const gz = gzipSync(GOOD);
    const server = await serve((_req, res) => {
      res.writeHead(200, { "content-encoding": "gzip", "content-length": gz.length });
      res.end(gz);
    });
    const r = await resolveDataset(ds, { cacheDir, url: server.url("/f"), env: {} });
    expect(r.source).toBe("download");
    expect(r.bytes.equals(GOOD)).toBe(true);
    expect((await readFile(join(cacheDir, ds.fileName))).equals(GOOD)).toBe(true);
  });

  it("a timeout setTimeout cannot honour is rejected before any request", async () => {
    const server = await serving(GOOD);
    for (const downloadTimeoutMs of [0, -5, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 31]) {
      const cacheDir = await tempDir();
      const err = await resolveDataset(ds, { cacheDir, url: server.url("/f"), downloadTimeoutMs, env: {} }).catch((e: unknown) => e);
      expect(err, String(downloadTimeoutMs)).toBeInstanceOf(DatasetError);
      expect((err as Error).message).toMatch(/timeout .* must be a whole number of milliseconds/);
      expect(await entries(cacheDir)).toEqual([]);
    }
    expect(server.requests()).toBe(0);
  });

  it("wrong bytes: integrity error, nothing cached, and an existing cached copy is left untouched", async () => {
    const cacheDir = await tempDir();
    const server = await serving(BAD);
    const err = await resolveDataset(ds, { cacheDir, url: server.url("/f"), env: {} }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DatasetIntegrityError);
    expect((err as DatasetIntegrityError).expectedSha256).toBe(ds.sha256);
    expect(await entries(cacheDir)).toEqual([]);

    // A stale cached file (not the pinned bytes) is still not overwritten by a failing download.
    const stale = Buffer.from("stale");
    await writeFile(join(cacheDir, ds.fileName), stale);
    await expect(resolveDataset(ds, { cacheDir, url: server.url("/f"), env: {} })).rejects.toBeInstanceOf(DatasetIntegrityError);
    expect(await entries(cacheDir)).toEqual([ds.fileName]);
    expect((await readFile(join(cacheDir, ds.fileName))).equals(stale)).toBe(true);
  });

  it("truncated body: download error, nothing cached", async () => {
    const cacheDir = await tempDir();
    const server = await serve((_req, res) => {
      res.writeHead(200, { "content-length": GOOD.length });
      res.write(GOOD.subarray(0, 20));
      setTimeout(() => res.socket?.destroy(), 20);
    });
    const err = await resolveDataset(ds, { cacheDir, url: server.url("/f"), env: {} }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DatasetDownloadError);
    expect((err as Error).message).toMatch(/after 20 bytes|received 20 of/);
    expect(await entries(cacheDir)).toEqual([]);
  });

  it("HTTP 404: download error naming the status and URL, nothing cached", async () => {
    const cacheDir = await tempDir();
    const server = await serve((_req, res) => {
      res.writeHead(404, { "content-type": "text/plain" });
      res.end("not here");
    });
    const url = server.url("/missing.json");
    const err = await resolveDataset(ds, { cacheDir, url, env: {} }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DatasetDownloadError);
    expect((err as Error).message).toContain("HTTP 404");
    expect((err as Error).message).toContain(url);
    expect(await entries(cacheDir)).toEqual([]);
  });

  it("stalled body: aborted by the idle timeout, nothing cached", async () => {
    const cacheDir = await tempDir();
    const server = await serve((_req, res) => {
      res.writeHead(200, { "content-length": GOOD.length });
      res.write(GOOD.subarray(0, 5)); // then nothing, connection held open
    });
    const err = await resolveDataset(ds, { cacheDir, url: server.url("/f"), downloadTimeoutMs: 200, env: {} }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DatasetDownloadError);
    expect((err as Error).message).toMatch(/no data for 200 ms after 5 bytes/);
    expect(await entries(cacheDir)).toEqual([]);
  });

  it("stalled before any response: aborted by the timeout, nothing cached", async () => {
    const cacheDir = await tempDir();
    const server = await serve(() => {
      /* never answer */
    });
    const err = await resolveDataset(ds, { cacheDir, url: server.url("/f"), downloadTimeoutMs: 200, env: {} }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DatasetDownloadError);
    expect((err as Error).message).toMatch(/no response within 200 ms/);
    expect(await entries(cacheDir)).toEqual([]);
  });

  it("an unwritable cache directory is reported before any request", async () => {
    const root = await tempDir();
    const blocker = join(root, "a-file");
    await writeFile(blocker, "x");
    const server = await serving(GOOD);
    const err = await resolveDataset(ds, { cacheDir: join(blocker, "cache"), url: server.url("/f"), env: {} }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DatasetError);
    expect((err as Error).message).toMatch(/Cannot write the download .* Set PERSODE_DATA_DIR/);
    expect(server.requests()).toBe(0);
  });

  it("connection refused: download error, nothing cached", async () => {
    const cacheDir = await tempDir();
    const server = await serving(GOOD);
    const url = server.url("/f");
    await server.close();
    servers = servers.filter((s) => s !== server);
    await expect(resolveDataset(ds, { cacheDir, url, env: {} })).rejects.toBeInstanceOf(DatasetDownloadError);
    expect(await entries(cacheDir)).toEqual([]);
  });

  it("draws a progress bar on stderr only when asked (or on a TTY)", async () => {
    const writes: string[] = [];
    vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
      writes.push(String(chunk));
      return true;
    });
    const server = await serving(GOOD);
    await resolveDataset(ds, { cacheDir: await tempDir(), url: server.url("/f"), progress: false, env: {} });
    expect(writes).toEqual([]);
    await resolveDataset(ds, { cacheDir: await tempDir(), url: server.url("/f"), progress: true, env: {} });
    const out = writes.join("");
    expect(out).toContain("100%");
    expect(out).toContain(ds.fileName);
    expect(out.endsWith("\n")).toBe(true);
  });

  it("downloads the real pinned files when served the pinned bytes", async () => {
    for (const real of PINNED_DATASETS) {
      const bytes = (await resolveDataset(real, pinnedDataOptions())).bytes;
      const server = await serving(bytes);
      const cacheDir = await tempDir();
      const r = await resolveDataset(real, { cacheDir, url: server.url(`/${real.fileName}`), env: {} });
      expect(r.source).toBe("download");
      expect(r.sha256).toBe(real.sha256);
      expect(await entries(cacheDir)).toEqual([real.fileName]);
    }
  });
});
