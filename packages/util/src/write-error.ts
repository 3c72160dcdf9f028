import { statSync } from "node:fs";
import { dirname, resolve } from "node:path";

/** A write that the file system refused, explained: the path, why, and how to fix it; `code` is the system error code. */
export class WriteError extends Error {
  override readonly name = "WriteError";
  constructor(
    message: string,
    readonly path: string,
    readonly code: string | undefined,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The nearest ancestor of `path` that exists but is not a folder (why a write gives ENOTDIR). */
function fileInTheWay(path: string): string | undefined {
  for (let p = dirname(resolve(path)); ; p = dirname(p)) {
    try {
      return statSync(p).isDirectory() ? undefined : p;
    } catch {
      if (dirname(p) === p) return undefined;
    }
  }
}

/**
 * Turn a file-system error from writing `path` into a WriteError naming the path and the fix
 * (ENOTDIR, EISDIR, EACCES/EPERM, EROFS, ENOSPC, EEXIST on a folder); other errors are returned as they are.
 */
export function explainWriteError(path: string, error: unknown): Error {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const abs = resolve(path);
  let why: string | undefined;
  const file = code === "ENOTDIR" || code === "EEXIST" || code === "ENOTEMPTY" ? fileInTheWay(path) : undefined;
  switch (file === undefined ? code : "ENOTDIR") {
    case "ENOTDIR":
      why = file
        ? `${file} is a file, not a folder; choose a path under a folder, or move that file away`
        : "a part of the path is a file, not a folder; choose a path whose folders are folders";
      break;
    case "EISDIR":
      why = "it is a folder, not a file; give a file path (for example a name inside that folder)";
      break;
    case "EACCES":
    case "EPERM":
      why = "permission denied; choose a location you can write to, or fix the folder's permissions";
      break;
    case "EROFS":
      why = "the file system is read-only; choose a writable location";
      break;
    case "ENOSPC":
      why = "the disk is full; free some space or choose another location";
      break;
    case "EEXIST":
    case "ENOTEMPTY":
      why = "a folder of that name is in the way; give a file path, or remove that folder";
      break;
  }
  if (why === undefined || error instanceof WriteError) return error as Error;
  return new WriteError(`cannot write ${abs}: ${why} (${code})`, abs, code, { cause: error });
}
