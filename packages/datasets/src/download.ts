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

/** The idle timeout must be a usable timer delay; a bad one is the caller's configuration error. */
function checkIdleTimeout(d: VerifiedDownload): void {
  try {
    requireTimerMs(d.idleTimeoutMs, `Download timeout for ${d.label}`);
  } catch (e) {
    throw new DatasetError((e as Error).message);
  }
}

/** The temporary file a download streams into; `closed` once committed, so cleanup never closes it twice. */
interface TempFile {
  path: string;
  handle: FileHandle;
  closed: boolean;
}

/** Create `destPath`'s folder and a new, exclusively opened temporary file beside it. */
async function openTempFile(d: VerifiedDownload): Promise<TempFile> {
  const path = tempPathFor(d.destPath);
  try {
    await mkdir(dirname(d.destPath), { recursive: true });
    return { path, handle: await open(path, "wx"), closed: false };
  } catch (e) {
    throw new DatasetError(
      `Cannot write the download of ${d.label} into ${dirname(d.destPath)}: ${(e as Error).message}. ` +
        "Set PERSODE_DATA_DIR (or the `cacheDir` option) to a writable folder.",
    );
  }
}

/** The error for a failed transfer: what went wrong, from where, and that nothing was written. */
function downloadFailed(d: VerifiedDownload, why: string): DatasetDownloadError {
  return new DatasetDownloadError(`Downloading ${d.label} from ${d.url} failed: ${why}. Nothing was written to ${d.destPath}.`);
}

/** Send the request (redirects followed, stalls cut off) and accept only a successful status. */
async function request(d: VerifiedDownload, signal: AbortSignal): Promise<Response> {
  let res: Response;
  try {
    res = await fetchWithIdleTimeout(fetch, d.idleTimeoutMs)(d.url, { signal, redirect: "follow" });
  } catch (e) {
    throw downloadFailed(d, e instanceof IdleTimeoutError ? `no response within ${d.idleTimeoutMs} ms (connection stalled)` : describe(e));
  }
  if (!res.ok) {
    await res.body?.cancel().catch(() => undefined);
    throw downloadFailed(d, `HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ""}`);
  }
  return res;
}

/**
 * The body's length in bytes when it is known. content-length counts the bytes on the wire; fetch decodes a
 * compressed body (gzip, br, …), so the length can only be checked, and shown as progress, when the body arrives unencoded.
 */
function unencodedLength(res: Response): number | undefined {
  const encoding = (res.headers.get("content-encoding") ?? "identity").trim().toLowerCase();
  const lengthHeader = encoding === "identity" ? res.headers.get("content-length") : null;
  return lengthHeader !== null && /^\d+$/.test(lengthHeader) ? Number(lengthHeader) : undefined;
}

/** The progress bar of one download, in bytes, out of the body's length when it is known. */
function progressBar(d: VerifiedDownload, expectedLength: number | undefined): Progress {
  return new Progress(`Downloading ${d.label}`, {
    ...(expectedLength !== undefined ? { total: expectedLength } : {}),
    unit: "bytes",
    delayMs: 0,
    ...(d.progress !== undefined ? { enabled: d.progress } : {}),
  });
}

/** Stream the body into the temporary file, hashing it and advancing the bar; returns the bytes and their sha256. */
async function streamToFile(d: VerifiedDownload, res: Response, file: TempFile, bar: Progress): Promise<{ bytes: Buffer; sha256: string }> {
  if (!res.body) throw downloadFailed(d, "the response has no body");
  const hash = createHash("sha256");
  const chunks: Buffer[] = [];
  let received = 0;
  const reader = res.body.getReader();
  for (;;) {
    let step: Awaited<ReturnType<typeof reader.read>>;
    try {
      step = await reader.read();
    } catch (e) {
      throw downloadFailed(
        d,
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
    await file.handle.write(chunk);
    bar.update(received);
  }
  return { bytes: Buffer.concat(chunks, received), sha256: hash.digest("hex") };
}

/** The body must be complete (as long as announced) and have the pinned sha256. */
function verify(d: VerifiedDownload, received: number, expectedLength: number | undefined, actual: string): void {
  if (expectedLength !== undefined && received !== expectedLength) {
    throw downloadFailed(d, `truncated body: received ${received} of ${expectedLength} bytes`);
  }
  if (actual !== d.sha256) {
    throw new DatasetIntegrityError(
      `Downloaded ${d.label} from ${d.url} has sha256 ${actual}, but the pinned sha256 is ${d.sha256}. ` +
        `The bytes were discarded and ${d.destPath} was left unchanged.`,
      actual,
      d.sha256,
    );
  }
}

/** Flush the verified bytes to disk, close the file and rename it over `destPath` (atomic: same folder). */
async function commit(file: TempFile, destPath: string): Promise<void> {
  await file.handle.sync();
  await file.handle.close();
  file.closed = true;
  await rename(file.path, destPath);
}

/** Close the temporary file if still open and remove it; never throws on the close, so the removal always runs. */
async function discard(file: TempFile): Promise<void> {
  if (!file.closed) await file.handle.close().catch(() => undefined);
  await rm(file.path, { force: true });
}

/**
 * Stream `url` into a temporary file while hashing it, verify length and sha256, then rename it to `destPath`.
 * On any failure the temporary file is removed and `destPath` is left exactly as it was.
 */
export async function downloadVerified(d: VerifiedDownload): Promise<Buffer> {
  checkIdleTimeout(d);
  const file = await openTempFile(d);
  // Aborts the request (and its body stream) however this function ends.
  const controller = new AbortController();
  let bar: Progress | undefined;
  let ok = false;
  try {
    const res = await request(d, controller.signal);
    const expectedLength = unencodedLength(res);
    bar = progressBar(d, expectedLength);
    const { bytes, sha256 } = await streamToFile(d, res, file, bar);
    verify(d, bytes.length, expectedLength, sha256);
    await commit(file, d.destPath);
    ok = true;
    return bytes;
  } finally {
    controller.abort();
    bar?.finish(ok);
    if (!ok) await discard(file);
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
