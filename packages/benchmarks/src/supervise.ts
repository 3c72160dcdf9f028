import { randomBytes } from "node:crypto";
import { rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { parentPort, Worker } from "node:worker_threads";
import { SIGNAL_EXIT, type StopSignal } from "./interrupt.js";

/** Set in the environment of a supervised run, so it does not supervise itself again. */
export const SUPERVISED_ENV = "PERSODE_SUPERVISED";

/** The message a supervised run posts for each staging folder it creates (reportStaging). */
interface StagingMessage {
  persodeStaging: string;
}

/**
 * Remove a file or folder, ignoring one that is already gone or cannot be removed: staging.ts removes what it
 * created with this, and the supervisor a reported staging folder once the run's thread has ended (a folder left
 * behind is removed by the next run's removeLeftovers).
 */
export function remove(path: string): void {
  try {
    // retried when a write still in flight (a stop signal's discard) adds an entry while the folder is emptied
    rmSync(path, { recursive: true, force: true, maxRetries: 3 });
  } catch {
    // nothing was created there (e.g. a file stands where its folder would be), or it cannot be removed: nothing to lose
  }
}

/**
 * Tell the supervisor (when this is a supervised run) about a staging folder this run created: the supervisor removes
 * it once the run's thread has ended, whatever became of it. The run's own discard removes it first; this catches a
 * write that was still in flight when a stop signal discarded the folder and created it again.
 */
export function reportStaging(dir: string): void {
  if (process.env[SUPERVISED_ENV] === "1" && parentPort) parentPort.postMessage({ persodeStaging: dir } satisfies StagingMessage);
}

/**
 * The worker's entry: stop requests from the main thread are raised as the signal itself (`process.emit`), so the run's
 * own handlers (staging.ts) run as soon as it is between two awaits; without a handler the run ends as a process does
 * on that signal (exit 128 + its number). Then the script runs with the argv a process of its own would have.
 */
const ENTRY = `
const { parentPort } = require("node:worker_threads");
const { constants } = require("node:os");
parentPort.on("message", (signal) => {
  if (process.listenerCount(signal) > 0) process.emit(signal, signal);
  else process.exit(128 + constants.signals[signal]);
});
parentPort.unref();
const [script, url] = require("node:worker_threads").workerData;
process.argv[1] = script;
import(url).catch((e) => {
  process.stderr.write(String((e && e.stack) || e) + "\\n");
  process.exitCode = 1;
});
`;

/**
 * Run `node script …args` and keep watch, so a stop request always reaches the run and is honoured within a fraction
 * of a second, even in the middle of long synchronous loops (which cannot run a signal handler). The run is a worker
 * thread of this process (one Node start-up instead of two) that sees what a child process would: its own
 * process.argv (`[node, script, …args]`), environment and exit code (`process.exitCode`, `process.exit(code)`), and
 * its output on this process's stdout and stderr. This thread stays free for signals: SIGINT, SIGTERM and SIGHUP
 * received here are written to the interrupt file the run looks at between chunks of work (PERSODE_INTERRUPT_FILE,
 * see interrupt.ts) and raised in the run; when this process's parent dies (`kill -TERM` on pnpm kills pnpm and its
 * shell, not node), the run is stopped as by SIGTERM. Resolves with the run's exit code.
 */
export function runSupervised(script: string, args: readonly string[]): Promise<number> {
  const flag = join(tmpdir(), `persode-interrupt-${process.pid}-${randomBytes(4).toString("hex")}`);
  const worker = new Worker(ENTRY, {
    eval: true,
    argv: [...args],
    workerData: [script, pathToFileURL(script).href],
    env: { ...process.env, PERSODE_INTERRUPT_FILE: flag, [SUPERVISED_ENV]: "1" },
  });
  let stopping = false;
  const stop = (signal: StopSignal) => {
    if (!stopping) {
      stopping = true;
      try {
        writeFileSync(flag, signal);
      } catch {
        // the signal itself still reaches the run
      }
    }
    worker.postMessage(signal);
  };
  const handlers = (Object.keys(SIGNAL_EXIT) as StopSignal[]).map((signal) => {
    const handler = () => stop(signal);
    process.on(signal, handler);
    return [signal, handler] as const;
  });
  const parent = process.ppid;
  const watch = setInterval(() => {
    if (process.ppid !== parent) stop("SIGTERM");
  }, 250);
  const done = () => {
    clearInterval(watch);
    for (const [signal, handler] of handlers) process.off(signal, handler);
    rmSync(flag, { force: true });
  };
  /** The run's staging folders (reportStaging): removed once its thread has ended (a published one is gone already). */
  const staging = new Set<string>();
  worker.on("message", (m: unknown) => {
    if (typeof m === "object" && m !== null && typeof (m as StagingMessage).persodeStaging === "string")
      staging.add((m as StagingMessage).persodeStaging);
  });
  return new Promise((resolve) => {
    let failed = false;
    worker.on("error", (e) => {
      failed = true;
      process.stderr.write(`error: ${e.stack ?? e.message}\n`);
    });
    worker.on("exit", (code) => {
      done();
      for (const dir of staging) remove(dir);
      resolve(failed && code === 0 ? 1 : code);
    });
  });
}
