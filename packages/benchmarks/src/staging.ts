import { cpSync, existsSync, mkdirSync, renameSync, rmSync, statSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { WriteError, explainWriteError } from "@persode/util";

/** A file staged outside the results folder (e.g. the README) and where it goes on publishing. */
export interface StagedFile {
  from: string;
  to: string;
}

const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
const SIGNAL_EXIT: Record<(typeof SIGNALS)[number], number> = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 };

/**
 * A run's results folder, staged: a copy of `out` beside it (`.<name>.staging-<pid>`, so runs of
 * other embedders still merge into the previous files) that the run writes into; `publish()` then
 * swaps it in for `out` and renames the staged extra files (README) into place, all synchronously,
 * so results, manifest, figures, report and README change together. Until then `out` is untouched:
 * a failure discards the staging folder, and so does SIGINT/SIGTERM/SIGHUP (exit 130/143/129).
 */
export class StagedResults {
  /** The folder the run writes into. */
  readonly dir: string;
  private readonly extras: StagedFile[] = [];
  private readonly handlers = new Map<string, () => void>();
  private finished = false;

  private constructor(readonly out: string) {
    this.dir = join(dirname(out), `.${basename(out)}.staging-${process.pid}`);
  }

  /** Stage `out` (an absolute path): copy what it holds into a fresh staging folder and arm the signal handlers. */
  static begin(out: string): StagedResults {
    const staged = new StagedResults(out);
    if (existsSync(out) && !statSync(out).isDirectory()) {
      throw new WriteError(`cannot write results into ${out}: it is a file, not a folder; give --out a folder (new or existing)`, out, "ENOTDIR");
    }
    try {
      rmSync(staged.dir, { recursive: true, force: true });
      if (existsSync(out)) cpSync(out, staged.dir, { recursive: true, preserveTimestamps: true });
      else mkdirSync(staged.dir, { recursive: true });
    } catch (e) {
      staged.discard();
      const err = explainWriteError(out, e);
      throw err instanceof WriteError ? new WriteError(err.message.replace(/^cannot write /, "cannot write results into "), out, err.code, { cause: e }) : err;
    }
    for (const signal of SIGNALS) {
      const handler = () => {
        staged.discard();
        process.stderr.write(`\ninterrupted (${signal}): nothing was published; ${out} is unchanged\n`);
        process.exit(SIGNAL_EXIT[signal]);
      };
      staged.handlers.set(signal, handler);
      process.on(signal, handler);
    }
    return staged;
  }

  /**
   * Stage `out`, run `work` on the staging folder (it publishes when it is done) and discard whatever was not
   * published, however `work` ends; an error's message names `out`, not its staging copy.
   */
  static async within<T>(out: string, work: (staged: StagedResults) => Promise<T>): Promise<T> {
    const staged = StagedResults.begin(out);
    try {
      return await work(staged);
    } catch (e) {
      if (e instanceof Error) e.message = e.message.split(staged.dir).join(out);
      throw e;
    } finally {
      staged.discard();
    }
  }

  /** A path beside `target` to stage a file for it (renamed over `target` by publish()). */
  stageFileFor(target: string): string {
    const from = `${target}.staging-${process.pid}`;
    this.extras.push({ from, to: target });
    return from;
  }

  /**
   * Make the staged folder the results folder and move staged files into place. Synchronous, so no
   * signal handler runs in between; if the swap fails, the previous folder is put back.
   */
  publish(): void {
    if (this.finished) throw new Error("StagedResults: already published or discarded");
    const previous = join(dirname(this.out), `.${basename(this.out)}.replaced-${process.pid}`);
    rmSync(previous, { recursive: true, force: true });
    const hadPrevious = existsSync(this.out);
    if (hadPrevious) renameSync(this.out, previous);
    try {
      renameSync(this.dir, this.out);
    } catch (e) {
      if (hadPrevious) renameSync(previous, this.out);
      throw explainWriteError(this.out, e);
    }
    for (const { from, to } of this.extras) if (existsSync(from)) renameSync(from, to);
    if (hadPrevious) rmSync(previous, { recursive: true, force: true });
    this.finish();
  }

  /** Throw the staged work away (idempotent): the results folder stays as it was. */
  discard(): void {
    if (this.finished) return;
    const remove = (path: string) => {
      try {
        rmSync(path, { recursive: true, force: true });
      } catch {
        // nothing was created there (e.g. a file stands where its folder would be)
      }
    };
    remove(this.dir);
    for (const { from } of this.extras) remove(from);
    this.finish();
  }

  private finish(): void {
    this.finished = true;
    for (const [signal, handler] of this.handlers) process.off(signal, handler);
    this.handlers.clear();
  }
}
