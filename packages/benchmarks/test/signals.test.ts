// `pnpm bench` honours SIGINT and SIGTERM within about a second, also in the middle of a long
// synchronous bootstrap (here Exp. 5 with 20 000 resamples, ≈ 6 s of work on a 2-core machine, its bootstrap from
// ≈ 1.5 s on; --no-cache, so a run an earlier test interrupted after Exp. 5's result was recorded in the result
// cache is not replayed in a fraction of a second), and also when the
// signal goes to its parent (pnpm, which dies without passing SIGTERM on): exit 130/143, nothing is
// published, no process, staging folder or lock is left behind.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pinnedDataEnv } from "./bench-helpers.js";

const BENCH = fileURLToPath(new URL("../../../scripts/bench.mjs", import.meta.url));
const CLI = fileURLToPath(new URL("../dist/cli.js", import.meta.url));

let root: string;
let env: Record<string, string>;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "persode-signals-"));
  env = { ...(process.env as Record<string, string>), ...(await pinnedDataEnv(join(root, "cache"))) };
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A results folder holding one file of the user's. */
function userFolder(name: string): string {
  const out = join(root, name);
  mkdirSync(out);
  writeFileSync(join(out, "mine.txt"), "the user's\n");
  return out;
}

/** Wait until the run holds the lock of `out` and has worked a while inside its long loops; returns the run's pid. */
async function runningIn(out: string, proc: ChildProcess): Promise<number> {
  const lock = join(out, ".persode-lock");
  for (let i = 0; i < 600 && !existsSync(lock); i++) {
    if (proc.exitCode !== null) throw new Error(`the run ended early with ${proc.exitCode}`);
    await sleep(100);
  }
  const pid = JSON.parse(readFileSync(lock, "utf8")).pid as number;
  await sleep(2500); // past loading and ranking, into the bootstrap
  return pid;
}

function collect(proc: ChildProcess): { stderr: () => string; exit: Promise<number | null> } {
  let err = "";
  proc.stderr?.on("data", (d) => (err += String(d)));
  return { stderr: () => err, exit: new Promise((r) => proc.on("exit", (code) => r(code))) };
}

/** The run ends within `ms` (a liveness guard: it would otherwise run for minutes). */
async function within<T>(p: Promise<T>, ms: number): Promise<T | "still running"> {
  return Promise.race([p, sleep(ms).then(() => "still running" as const)]);
}

describe("stop signals during a long run", () => {
  for (const [signal, code] of [
    ["SIGINT", 130],
    ["SIGTERM", 143],
  ] as const) {
    it(`${signal} to pnpm bench: exit ${code}, nothing published`, async () => {
      const out = userFolder(signal);
      const proc = spawn(process.execPath, [BENCH, "exp5", "--samples", "20000", "--no-cache", "--out", out], {
        cwd: root,
        env,
        stdio: ["ignore", "pipe", "pipe"],
      });
      const run = collect(proc);
      const pid = await runningIn(out, proc);
      proc.kill(signal);
      expect(await within(run.exit, 10_000)).toBe(code);
      expect(run.stderr()).toContain(`interrupted (${signal}): nothing was published; ${out} is unchanged`);
      expect(readdirSync(out)).toEqual(["mine.txt"]);
      expect(alive(pid)).toBe(false);
    }, 90_000);
  }

  it("SIGINT to the CLI run directly (node dist/cli.js): exit 130, nothing published", async () => {
    const out = userFolder("direct");
    const proc = spawn(process.execPath, [CLI, "exp5", "--samples", "20000", "--no-cache", "--out", out], {
      cwd: root,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const run = collect(proc);
    const pid = await runningIn(out, proc);
    proc.kill("SIGINT");
    expect(await within(run.exit, 10_000)).toBe(130);
    expect(run.stderr()).toContain("interrupted (SIGINT): nothing was published");
    expect(readdirSync(out)).toEqual(["mine.txt"]);
    expect(alive(pid)).toBe(false);
  }, 90_000);

  it("SIGKILL of the parent (what pnpm does to itself on SIGTERM): the run stops, nothing published", async () => {
    const out = userFolder("orphan");
    // a stand-in for pnpm: a process that runs the bench script and is then killed outright
    const parent = spawn(
      process.execPath,
      [
        "-e",
        `require("child_process").spawn(process.execPath, ${JSON.stringify([BENCH, "exp5", "--samples", "20000", "--no-cache", "--out", out])}, { stdio: "ignore" }); setInterval(() => {}, 1000);`,
      ],
      { cwd: root, env, stdio: "ignore" },
    );
    const pid = await runningIn(out, parent);
    parent.kill("SIGKILL");
    for (let i = 0; i < 200 && (alive(pid) || existsSync(join(out, ".persode-lock"))); i++) await sleep(100);
    expect(alive(pid)).toBe(false);
    expect(readdirSync(out)).toEqual(["mine.txt"]);
  }, 90_000);
});
