import { randomBytes } from "node:crypto";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { explainWriteError } from "./write-error.js";

/**
 * Write a file atomically: the bytes go to a fresh temporary file beside the target, which is then
 * renamed over it. Readers see the old file or the new one, never a partial one; on any failure the
 * temporary file is removed and the previous file is left untouched.
 */
export async function writeFileAtomic(path: string, data: string | Uint8Array): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.tmp-${process.pid}-${randomBytes(4).toString("hex")}`;
  try {
    await writeFile(tmp, data, { flag: "wx" });
    await rename(tmp, path);
  } catch (e) {
    await rm(tmp, { force: true }).catch(() => undefined);
    throw e;
  }
}

/**
 * writeFileAtomic, with a write the file system refuses (a file or folder in the way, no permission, a
 * full disk) turned into a WriteError naming the path and the fix (explainWriteError).
 */
export async function writeFileAtomicExplained(path: string, data: string | Uint8Array): Promise<void> {
  try {
    await writeFileAtomic(path, data);
  } catch (e) {
    throw explainWriteError(path, e);
  }
}
