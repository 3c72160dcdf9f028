/**
 * A preload for timing a whole process by kind of thread (`node --import <this file's URL> …`, used by
 * perf-phases.ts `timeProcess`; Linux only): how much of its CPU went to the threads that run JavaScript (the main
 * thread and every worker thread) and how much to the helper threads Node starts for V8 and libuv — V8's
 * concurrent JIT compiler and garbage collector, libuv's file I/O. Worker threads are started after this module
 * runs and helper threads before it (it starts libuv's thread pool itself, with one file stat), so at exit the
 * helpers are the threads still alive that already existed here; every other thread's CPU, those that ended too,
 * is the process's CPU less theirs (the caller has the process's CPU from its own accounting of children). With
 * PERSODE_THREAD_CPU_OUT unset, or without /proc, it does nothing.
 *
 * Writes `{"helpers": s}` (CPU seconds) to the file PERSODE_THREAD_CPU_OUT names, at exit.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { stat } from "node:fs/promises";
import { isMainThread } from "node:worker_threads";

/** CPU seconds of thread `tid` of this process: its scheduler run time (schedstat, ns), or undefined once it has ended. */
function threadCpu(tid: string): number | undefined {
  try {
    return Number(readFileSync(`/proc/self/task/${tid}/schedstat`, "utf8").split(" ")[0]) / 1e9;
  } catch {
    return undefined;
  }
}

/** The threads of this process other than the main one, by id (none without /proc). */
function otherThreads(): string[] {
  try {
    const main = String(process.pid);
    return readdirSync("/proc/self/task").filter((t) => t !== main);
  } catch {
    return [];
  }
}

const out = process.env.PERSODE_THREAD_CPU_OUT;
if (out && isMainThread) {
  // libuv starts its whole thread pool on the first request: now, before anything is measured
  await stat("/").catch(() => undefined);
  const helpers = otherThreads();
  if (helpers.length > 0)
    process.on("exit", () => {
      let seconds = 0;
      for (const t of helpers) seconds += threadCpu(t) ?? 0;
      writeFileSync(out, JSON.stringify({ helpers: seconds }));
    });
}
