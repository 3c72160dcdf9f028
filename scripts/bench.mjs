#!/usr/bin/env node
// `pnpm bench …`: rebuilds first only if sources changed, then runs scripts/bench-run.mjs in a child
// process and keeps watch, so a stop request always reaches the run and is honoured within a fraction
// of a second, even in the middle of long synchronous loops: SIGINT, SIGTERM and SIGHUP received here
// are forwarded to the child and written to an interrupt file the run looks at between chunks of work
// (PERSODE_INTERRUPT_FILE); when this script's parent dies (`kill -TERM` on pnpm kills pnpm and its
// shell but not node), the run is stopped as by SIGTERM. Exits with the run's code (130/143/129 after a
// signal: nothing is published then).
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { rmSync, writeFileSync } from "node:fs";
import { constants, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ensureBuilt } from "./ensure-built.mjs";

if (!ensureBuilt()) {
  process.stderr.write("error: the build failed; fix the errors above and run the command again\n");
  process.exit(1);
}

const flag = join(tmpdir(), `persode-interrupt-${process.pid}-${randomBytes(4).toString("hex")}`);
const child = spawn(process.execPath, [fileURLToPath(new URL("./bench-run.mjs", import.meta.url)), ...process.argv.slice(2)], {
  stdio: "inherit",
  env: { ...process.env, PERSODE_INTERRUPT_FILE: flag },
});

let stopping = false;
/** Pass a stop signal on: to the run's interrupt file (read between chunks) and to the run itself. */
function stop(signal) {
  if (!stopping) {
    stopping = true;
    try {
      writeFileSync(flag, signal);
    } catch {
      // the signal itself still reaches the run
    }
  }
  child.kill(signal);
}
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => stop(signal));

const parent = process.ppid;
const watch = setInterval(() => {
  if (process.ppid !== parent) stop("SIGTERM");
}, 250);

child.on("exit", (code, signal) => {
  clearInterval(watch);
  rmSync(flag, { force: true });
  process.exitCode = code ?? 128 + (constants.signals[signal] ?? 0);
});
child.on("error", (e) => {
  clearInterval(watch);
  process.stderr.write(`error: cannot start ${process.execPath}: ${e.message}\n`);
  process.exitCode = 1;
});
