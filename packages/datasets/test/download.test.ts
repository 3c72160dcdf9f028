import { createHash } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { downloadVerified } from "../src/download.js";
import { cleanup, entries, startServer, tempDir, type LocalServer } from "./helpers.js";

const BODY = Buffer.from("the pinned bytes of a download");
const SHA = createHash("sha256").update(BODY).digest("hex");

let server: LocalServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  await cleanup();
});

describe("downloadVerified commit step", () => {
  it("a rename that fails after the bytes verified (destPath is a folder) still removes the temporary file", async () => {
    server = await startServer((_req, res) => {
      res.writeHead(200, { "content-length": BODY.length });
      res.end(BODY);
    });
    const dir = await tempDir();
    const destPath = join(dir, "data.json");
    await mkdir(destPath);
    await writeFile(join(destPath, "keep"), "untouched");
    const d = { url: server.url("/f"), sha256: SHA, destPath, idleTimeoutMs: 5_000, label: "test file", progress: false };
    await expect(downloadVerified(d)).rejects.toThrow();
    expect(server.requests()).toBe(1);
    expect(await entries(dir)).toEqual(["data.json"]);
    expect(await entries(destPath)).toEqual(["keep"]);

    // The same download into a free path commits: the verified bytes, under destPath only.
    const free = join(dir, "free.json");
    const bytes = await downloadVerified({ ...d, destPath: free });
    expect(bytes.equals(BODY)).toBe(true);
    expect((await readFile(free)).equals(BODY)).toBe(true);
    expect(await entries(dir)).toEqual(["data.json", "free.json"]);
  });
});
