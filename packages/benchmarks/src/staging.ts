import {
  closeSync,
  copyFileSync,
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  realpathSync,
  renameSync,
  rmSync,
  rmdirSync,
  statSync,
  symlinkSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { hostname, homedir } from "node:os";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { WriteError, explainWriteError } from "@persode/util";
import { Interrupted, SIGNAL_EXIT, interruption, noteInterrupt, type StopSignal } from "./interrupt.js";
import { UsageError } from "./options.js";
import { remove, reportStaging } from "./supervise.js";

/** A file staged outside the results folder (e.g. the README) and where it goes on publishing. */
export interface StagedFile {
  from: string;
  to: string;
}

const SIGNALS = Object.keys(SIGNAL_EXIT) as StopSignal[];

/** Prefix of the publisher's own entries inside a results folder (never results, never published). */
const OWN_PREFIX = ".persode-";
/** The lock file inside a results folder: the pid of the run writing into it. */
const LOCK_NAME = `${OWN_PREFIX}lock`;
const STAGING_RE = /^\.persode-staging-(\d+)$/;

/** The repository this harness belongs to (packages/benchmarks/{src,dist}/staging.* → three folders up). */
const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");

/** The real path of `p`, resolving symlinks of its nearest existing ancestor (for a folder not yet created). */
function realish(p: string): string {
  const abs = resolve(p);
  try {
    return realpathSync(abs);
  } catch {
    const parent = dirname(abs);
    return parent === abs ? abs : join(realish(parent), basename(abs));
  }
}

/** Whether `inner` is `outer` or inside it. */
function within(inner: string, outer: string): boolean {
  const rel = relative(outer, inner);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/**
 * The `--out` results folder as an absolute path (`fallback`, relative to the caller's folder, when not
 * given), refused up front when publishing into it could mix results with what the user keeps there:
 * an empty value, the file-system root, the home folder or one of its ancestors, this repository's root
 * or one of its ancestors, the root of any git repository (a folder holding `.git`), or a folder inside a `.git`.
 */
export function resultsFolder(value: string | undefined, fallback: string, cwd: string = process.cwd()): string {
  if (value !== undefined && value.trim() === "") {
    throw new UsageError(`--out is empty; give the results folder to write into (default ${fallback}), e.g. --out my-results`);
  }
  const out = resolve(cwd, value ?? fallback);
  const real = realish(out);
  const refuse = (why: string) => {
    throw new UsageError(
      `--out ${value ?? fallback} is ${why}; results are published as files into a folder of their own — choose a new or dedicated folder, e.g. --out ${join(value ?? fallback, "persode-results")}`,
    );
  };
  if (dirname(real) === real) refuse(`the file-system root (${real})`);
  const home = realish(homedir());
  if (within(home, real)) refuse(real === home ? `your home folder (${real})` : `an ancestor of your home folder (${real})`);
  const repo = realish(REPO_ROOT);
  if (within(repo, real)) refuse(real === repo ? `the repository root (${real})` : `an ancestor of the repository root ${repo} (${real})`);
  if (existsSync(join(real, ".git"))) refuse(`the root of a git repository (${real} holds .git)`);
  if (real.split(sep).includes(".git")) refuse(`inside a git repository's own .git folder (${real})`);
  return out;
}

/** Whether process `pid` is alive (on this host): signal 0 is delivered, or refused only for lack of permission. */
function alive(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

function note(message: string): void {
  process.stderr.write(`note: ${message}\n`);
}

/** A file's identity: which inode a staged entry is, to tell the run's own files from the links to `out`. */
function identity(path: string): string {
  const s = lstatSync(path);
  return `${s.dev}:${s.ino}`;
}

/**
 * A run's results folder, staged. The lock `out/.persode-lock` (the run's pid) keeps a second run out
 * (a lock whose pid is dead is taken over, with a note). The run writes into `out/.persode-staging-<pid>`,
 * which starts as hard links to what `out` holds (no bytes are copied; every writer replaces files by
 * rename, so a link is never written through), so runs of other embedders still merge into the previous
 * files. `publish()` then renames into `out` exactly the files the run wrote — each one atomically,
 * results first, manifest and report last — and the staged extra files (README); every other file in
 * `out` is left as it is, and `out` itself is never renamed or removed (a mount point works). Until then
 * `out` is untouched: a failure discards the staging folder, and so does SIGINT/SIGTERM/SIGHUP (exit
 * 130/143/129). Staging folders of runs that were killed are removed by the next run, with a note.
 */
export class StagedResults {
  /** The folder the run writes into. */
  readonly dir: string;
  private readonly extras: StagedFile[] = [];
  private readonly handlers = new Map<string, () => void>();
  /** Identity of every entry linked in from `out`, by path relative to `dir`. */
  private readonly linked = new Map<string, string>();
  private readonly visited = new Set<string>();
  private readonly lock: string;
  private ownsLock = false;
  private createdOut = false;
  private finished = false;

  private constructor(readonly out: string) {
    this.dir = join(out, `${OWN_PREFIX}staging-${process.pid}`);
    this.lock = join(out, LOCK_NAME);
  }

  /** Stage `out` (an absolute path): take its lock, link what it holds into a fresh staging folder and arm the signal handlers. */
  static begin(out: string): StagedResults {
    const staged = new StagedResults(out);
    if (existsSync(out) && !statSync(out).isDirectory()) {
      throw new WriteError(
        `cannot write results into ${out}: it is a file, not a folder; give --out a folder (new or existing)`,
        out,
        "ENOTDIR",
      );
    }
    try {
      if (!existsSync(out)) {
        mkdirSync(out, { recursive: true });
        staged.createdOut = true;
      }
      staged.acquireLock();
      staged.removeLeftovers();
      mkdirSync(staged.dir);
      reportStaging(staged.dir);
      staged.visited.add(realpathSync(out));
      staged.linkTree(out, staged.dir, "");
    } catch (e) {
      staged.discard();
      if (e instanceof UsageError) throw e;
      const err = explainWriteError(out, e);
      throw err instanceof WriteError
        ? new WriteError(err.message.replace(/^cannot write /, "cannot write results into "), out, err.code, { cause: e })
        : err;
    }
    for (const signal of SIGNALS) {
      const handler = () => {
        noteInterrupt(signal);
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

  /** A path beside `target` to stage a file for it (renamed over `target` by publish()); removes leftovers of killed runs there. */
  stageFileFor(target: string): string {
    const prefix = `${basename(target)}.staging-`;
    let names: string[] = [];
    try {
      names = readdirSync(dirname(target));
    } catch {
      // the folder does not exist yet: nothing left over
    }
    for (const name of names) {
      const pid = name.startsWith(prefix) ? Number(name.slice(prefix.length)) : NaN;
      if (/^\d+$/.test(name.slice(prefix.length)) && !alive(pid)) {
        remove(join(dirname(target), name));
        note(`removed ${join(dirname(target), name)}, left by an interrupted run (pid ${pid})`);
      }
    }
    const from = `${target}.staging-${process.pid}`;
    this.extras.push({ from, to: target });
    return from;
  }

  /**
   * Move the files the run wrote into `out` (each by an atomic rename; a file of `out` the run did not
   * write stays as it is) and the staged extra files into place. Synchronous, so no signal handler runs
   * in between. Returns the published paths, relative to `out`.
   */
  publish(): string[] {
    if (this.finished) throw new Error("StagedResults: already published or discarded");
    // Nothing is published after a stop signal, even one that arrived while the last work ran.
    const signal = interruption(true);
    if (signal !== undefined) throw new Interrupted(signal);
    const produced: string[] = [];
    const walk = (rel: string) => {
      for (const entry of readdirSync(join(this.dir, rel), { withFileTypes: true })) {
        const r = rel === "" ? entry.name : join(rel, entry.name);
        if (entry.isDirectory()) walk(r);
        else if (this.linked.get(r) !== identity(join(this.dir, r))) produced.push(r);
      }
    };
    walk("");
    // Results first, then what is derived from them: figures, and last the manifest and report that describe them.
    const rank = (r: string) => (r === "manifest.json" || r === "report.html" ? 2 : r.startsWith(`figures${sep}`) ? 1 : 0);
    produced.sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
    for (const r of produced) {
      const to = join(this.out, r);
      try {
        mkdirSync(dirname(to), { recursive: true });
        moveFile(join(this.dir, r), to);
      } catch (e) {
        throw explainWriteError(to, e);
      }
    }
    for (const { from, to } of this.extras) if (existsSync(from)) moveFile(from, to);
    this.createdOut = false;
    this.discard();
    return produced;
  }

  /** Throw the staged work away (idempotent): the results folder stays as it was. */
  discard(): void {
    if (this.finished) return;
    remove(this.dir);
    for (const { from } of this.extras) remove(from);
    if (this.ownsLock) remove(this.lock);
    if (this.createdOut) {
      try {
        rmdirSync(this.out);
      } catch {
        // not empty: something else was put there meanwhile; leave it
      }
    }
    this.finished = true;
    for (const [signal, handler] of this.handlers) process.off(signal, handler);
    this.handlers.clear();
  }

  /** Create the lock file exclusively; a lock of a dead pid is taken over, a live one refuses the run. */
  private acquireLock(): void {
    const content = `${JSON.stringify({ pid: process.pid, host: hostname(), started: new Date().toISOString() })}\n`;
    for (let attempt = 0; ; attempt++) {
      try {
        const fd = openSync(this.lock, "wx");
        try {
          writeSync(fd, content);
        } finally {
          closeSync(fd);
        }
        this.ownsLock = true;
        return;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== "EEXIST" || attempt > 2) throw e;
      }
      let owner: { pid?: unknown; host?: unknown; started?: unknown } = {};
      const text = readLock(this.lock);
      try {
        owner = JSON.parse(text) as typeof owner;
      } catch {
        // unreadable or half-written: treated as the lock of a run that died
      }
      const pid = Number(owner.pid);
      const otherHost = typeof owner.host === "string" && owner.host !== hostname();
      if (otherHost || alive(pid)) {
        throw new UsageError(
          `another run (pid ${String(owner.pid)}${otherHost ? ` on ${String(owner.host)}` : ""}, started ${String(owner.started)}) is writing into ${this.out}; ` +
            `wait for it to finish, or use another --out. If no such run exists, delete ${this.lock}`,
        );
      }
      // Re-read just before removing it: another run may have taken the stale lock over meanwhile.
      if (readLock(this.lock) === text) unlinkSync(this.lock);
      note(`took over the lock of ${this.out} from pid ${String(owner.pid)}, which is no longer running`);
    }
  }

  /** Staging left by killed runs: `.persode-staging-<pid>` inside `out`, and the older `.<name>.staging-/replaced-<pid>` beside it. */
  private removeLeftovers(): void {
    const found: [string, number][] = [];
    for (const name of readdirSync(this.out)) {
      const m = STAGING_RE.exec(name);
      if (m) found.push([join(this.out, name), Number(m[1])]);
    }
    const legacy = new RegExp(`^\\.${basename(this.out).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\.(?:staging|replaced)-(\\d+)$`);
    try {
      for (const name of readdirSync(dirname(this.out))) {
        const m = legacy.exec(name);
        if (m) found.push([join(dirname(this.out), name), Number(m[1])]);
      }
    } catch {
      // the parent is not readable: nothing of ours can be there
    }
    for (const [path, pid] of found) {
      if (pid === process.pid || !alive(pid)) {
        remove(path);
        note(`removed ${path}, the staging folder of an interrupted run (pid ${pid})`);
      }
    }
  }

  /** Recreate `from`'s tree in `to`: folders made, files hard-linked (copied where links are not supported), symlinks recreated. */
  private linkTree(from: string, to: string, rel: string): void {
    for (const entry of readdirSync(from, { withFileTypes: true })) {
      if (rel === "" && entry.name.startsWith(OWN_PREFIX)) continue;
      const src = join(from, entry.name);
      const dst = join(to, entry.name);
      const r = rel === "" ? entry.name : join(rel, entry.name);
      // A symlink to a folder is staged as a folder of links too: a write must never go through it before publishing.
      const folder = entry.isDirectory() || (entry.isSymbolicLink() && isFolder(src));
      if (folder) {
        const real = realpathSync(src);
        if (this.visited.has(real)) continue; // a symlink cycle
        this.visited.add(real);
        mkdirSync(dst);
        this.linkTree(src, dst, r);
        continue;
      }
      if (entry.isSymbolicLink()) symlinkSync(readlinkSync(src), dst);
      else if (entry.isFile()) {
        try {
          linkSync(src, dst);
        } catch {
          copyFileSync(src, dst);
        }
      } else continue;
      this.linked.set(r, identity(dst));
    }
  }
}

/** Whether `path` is a folder (following symlinks); false when it cannot be read. */
function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** The lock file's text ("" when it is gone or unreadable). */
function readLock(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return "";
  }
}

/** Rename `from` to `to`; across file systems (a mount inside the results folder), copy beside `to` and rename that. */
function moveFile(from: string, to: string): void {
  try {
    renameSync(from, to);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EXDEV") throw e;
    const tmp = `${to}.tmp-${process.pid}`;
    try {
      copyFileSync(from, tmp);
      renameSync(tmp, to);
    } catch (err) {
      remove(tmp);
      throw err;
    }
    rmSync(from, { force: true });
  }
}
