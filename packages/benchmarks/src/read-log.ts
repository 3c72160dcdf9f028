/**
 * The files of its results folder an experiment read (earlier runs it merges into, files it checked for), reported to
 * whoever listens while it runs: the result cache (result-cache.ts) replays a run only while they are unchanged.
 */

/** One read of a file: its text (undefined when it was absent or unreadable), or only whether it exists. */
export type FileRead = { path: string; text: string | undefined } | { path: string; exists: boolean };

let listener: ((read: FileRead) => void) | undefined;

/** Report every read to `onRead` while `work` runs (one listener at a time: experiments run one after another). */
export async function observeReads<T>(onRead: (read: FileRead) => void, work: () => Promise<T>): Promise<T> {
  if (listener !== undefined) throw new Error("observeReads: already observing (experiments run one at a time)");
  listener = onRead;
  try {
    return await work();
  } finally {
    listener = undefined;
  }
}

/** Tell the listener, if any, that `read` happened. */
export function logRead(read: FileRead): void {
  listener?.(read);
}
