import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { rmSync, writeFileSync } from "node:fs";
import { constants, tmpdir } from "node:os";
import { join } from "node:path";
import { SIGNAL_EXIT, type StopSignal } from "./interrupt.js";

/** Set in the environment of a supervised run, so it does not supervise itself again. */
export const SUPERVISED_ENV = "PERSODE_SUPERVISED";

/**
 * Run `node script …args` as a child and keep watch, so a stop request always reaches the run and is
 * honoured within a fraction of a second, even in the middle of long synchronous loops (which cannot run
 * a signal handler): SIGINT, SIGTERM and SIGHUP received here are forwarded to the child and written to
 * the interrupt file it looks at between chunks of work (PERSODE_INTERRUPT_FILE, see interrupt.ts); when
 * this process's parent dies (`kill -TERM` on pnpm kills pnpm and its shell, not node), the run is
 * stopped as by SIGTERM. Resolves with the child's exit code (128 + the signal's number if it was killed).
 */
export function runSupervised(script: string, args: readonly string[]): Promise<number> {
  const flag = join(tmpdir(), `persode-interrupt-${process.pid}-${randomBytes(4).toString("hex")}`);
  const child = spawn(process.execPath, [script, ...args], {
    stdio: "inherit",
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
    child.kill(signal);
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
  return new Promise((resolve) => {
    child.on("exit", (code, signal) => {
      done();
      resolve(code ?? 128 + (signal ? (constants.signals[signal] ?? 0) : 0));
    });
    child.on("error", (e) => {
      done();
      process.stderr.write(`error: cannot start ${process.execPath} ${script}: ${e.message}\n`);
      resolve(1);
    });
  });
}
