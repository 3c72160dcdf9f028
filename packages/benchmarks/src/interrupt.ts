import { readFileSync } from "node:fs";

/** The signals a run stops on, and the exit code of each (128 + the signal's number). */
export const SIGNAL_EXIT = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;

/** A signal a run stops on. */
export type StopSignal = keyof typeof SIGNAL_EXIT;

/**
 * The file `pnpm bench`'s supervisor (scripts/bench.mjs's main thread) writes a signal's name into when it receives
 * one (or when its parent, pnpm, dies): long synchronous loops cannot run a signal handler, so they look
 * for this file between chunks instead.
 */
const INTERRUPT_FILE_ENV = "PERSODE_INTERRUPT_FILE";

/** Thrown between two chunks of long work once a stop signal has arrived: nothing may be published after it. */
export class Interrupted extends Error {
  override readonly name = "Interrupted";
  constructor(readonly signal: StopSignal) {
    super(`interrupted (${signal})`);
  }
}

let pending: StopSignal | undefined;
let lastLook = Number.NEGATIVE_INFINITY;

/** Record a stop signal (from a signal handler); the next checkInterrupt throws. */
export function noteInterrupt(signal: StopSignal): void {
  pending ??= signal;
}

/**
 * The stop signal that has arrived, if any: noted by a handler, or written to the interrupt file (looked at every 100 ms at most, or now
 * with `force`).
 */
export function interruption(force = false): StopSignal | undefined {
  if (pending !== undefined) return pending;
  const file = process.env[INTERRUPT_FILE_ENV];
  if (!file) return undefined;
  const now = performance.now();
  if (!force && now - lastLook < 100) return undefined;
  lastLook = now;
  let text: string;
  try {
    text = readFileSync(file, "utf8").trim();
  } catch {
    return undefined;
  }
  if (Object.hasOwn(SIGNAL_EXIT, text)) pending = text as StopSignal;
  return pending;
}

/** Between chunks of long synchronous work (a query's rankings, a few hundred resamples): throw Interrupted once a stop signal arrived. */
export function checkInterrupt(): void {
  const s = interruption();
  if (s !== undefined) throw new Interrupted(s);
}
