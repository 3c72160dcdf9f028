import { createHash, randomBytes } from "node:crypto";
import { type FileHandle, mkdir, open, rename, rm } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { fetchWithIdleTimeout, IdleTimeoutError, Progress, requireTimerMs } from "@persode/util";
import { DatasetDownloadError, DatasetError, DatasetIntegrityError } from "./errors.js";

/** What to download and where the verified file goes. */
export interface VerifiedDownload {
  url: string;
  /** The pinned sha256 the body must have. */
  sha256: string;
  /** Final location; written only after the bytes verify, by an atomic rename. */
  destPath: string;
  /** Abort when no bytes arrive for this long (connection, headers or body). */
  idleTimeoutMs: number;
  /** Label for messages and the progress bar. */
  label: string;
  /** Draw a progress bar on stderr (default: only when stderr is a TTY). */
  progress?: boolean;
}

/** Unique temporary name beside `destPath` (same directory, so the final rename is atomic). */
function tempPathFor(destPath: string): string {
  return join(dirname(destPath), `.${basename(destPath)}.${process.pid}.${randomBytes(6).toString("hex")}.part`);
}

/**
 * Stream `url` into a temporary file while hashing it, verify length and sha256, then rename it to `destPath`.
 * On any failure the temporary file is removed and `destPath` is left exactly as it was.
 */
export async function downloadVerified(d: VerifiedDownload): Promise<Buffer> {
  try {
    requireTimerMs(d.idleTimeoutMs, `Download timeout for ${d.label}`);
  } catch (e) {
    throw new DatasetError((e as Error).message);
  }
  const tmp = tempPathFor(d.destPath);
  let handle: FileHandle;
  try {
    await mkdir(dirname(d.destPath), { recursive: true });
    handle = await open(tmp, "wx");
  } catch (e) {
    throw new DatasetError(
      `Cannot write the download of ${d.label} into ${dirname(d.destPath)}: ${(e as Error).message}. ` +
        "Set PERSODE_DATA_DIR (or the `cacheDir` option) to a writable folder.",
    );
  }
  const fail = (why: string) =>
    new DatasetDownloadError(
      `Downloading ${d.label} from ${d.url} failed: ${why}. Nothing was written to ${d.destPath}.`,
    );

  // Aborts the request (and its body stream) however this function ends.
  const controller = new AbortController();
  let closed = false;
  let bar: Progress | undefined;
  let received = 0;
  let ok = false;
  try {
    let res: Response;
    try {
      res = await fetchWithIdleTimeout(fetch, d.idleTimeoutMs)(d.url, { signal: controller.signal, redirect: "follow" });
    } catch (e) {
      throw fail(e instanceof IdleTimeoutError ? `no response within ${d.idleTimeoutMs} ms (connection stalled)` : describe(e));
    }
    if (!res.ok) {
      await res.body?.cancel().catch(() => undefined);
      throw fail(`HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ""}`);
    }
    // content-length counts the bytes on the wire; fetch decodes a compressed body (gzip, br, …), so the
    // length can only be checked, and shown as progress, when the body arrives unencoded.
    const encoding = (res.headers.get("content-encoding") ?? "identity").trim().toLowerCase();
    const lengthHeader = encoding === "identity" ? res.headers.get("content-length") : null;
    const expectedLength = lengthHeader !== null && /^\d+$/.test(lengthHeader) ? Number(lengthHeader) : undefined;
    bar = new Progress(`Downloading ${d.label}`, {
      ...(expectedLength !== undefined ? { total: expectedLength } : {}),
      unit: "bytes",
      delayMs: 0,
      ...(d.progress !== undefined ? { enabled: d.progress } : {}),
    });
    const hash = createHash("sha256");
    const chunks: Buffer[] = [];
    if (!res.body) throw fail("the response has no body");
    const reader = res.body.getReader();
    for (;;) {
      let step: Awaited<ReturnType<typeof reader.read>>;
      try {
        step = await reader.read();
      } catch (e) {
        throw fail(
          e instanceof IdleTimeoutError
            ? `no data for ${d.idleTimeoutMs} ms after ${received} bytes (connection stalled)`
            : `the connection broke after ${received} bytes (${describe(e)})`,
        );
      }
      if (step.done) break;
      const chunk = Buffer.from(step.value.buffer, step.value.byteOffset, step.value.byteLength);
      hash.update(chunk);
      chunks.push(chunk);
      received += chunk.length;
      await handle.write(chunk);
      bar.update(received);
    }
    if (expectedLength !== undefined && received !== expectedLength) {
      throw fail(`truncated body: received ${received} of ${expectedLength} bytes`);
    }
    const actual = hash.digest("hex");
    if (actual !== d.sha256) {
      throw new DatasetIntegrityError(
        `Downloaded ${d.label} from ${d.url} has sha256 ${actual}, but the pinned sha256 is ${d.sha256}. ` +
          `The bytes were discarded and ${d.destPath} was left unchanged.`,
        actual,
        d.sha256,
      );
    }
    await handle.sync();
    await handle.close();
    closed = true;
    await rename(tmp, d.destPath);
    ok = true;
    return Buffer.concat(chunks, received);
  } finally {
    controller.abort();
    bar?.finish(ok);
    if (!closed) await handle.close().catch(() => undefined);
    if (!ok) await rm(tmp, { force: true });
  }
}

function describe(e: unknown): string {
  if (e instanceof Error) {
    const cause = (e as Error & { cause?: unknown }).cause;
    const causeText = cause instanceof Error ? cause.message : cause !== undefined ? String(cause) : "";
    return causeText && causeText !== e.message ? `${e.message}: ${causeText}` : e.message;
  }
  return String(e);
}
