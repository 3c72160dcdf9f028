/**
 * The bootstrap draw's loop (./draw-kernel.ts) as a WebAssembly function: seedrandom's xor4096 stepped with the
 * generator's own recurrence (xor4096.js `next`), every draw mapped to index = floor(uint32 · n / 2^32). Pure
 * 32-bit integer arithmetic, and the index as the high word of the exact 64-bit product (uint32 · n < 2^53, so it
 * is the same integer as the float computation), so the indices are the documented ones on every machine
 * (test/bootstrap.test.ts compares them with seedrandom's `int32()`). It imports one shared memory ("env"
 * "memory"): the stream's 128 state words at byte 0, its indices from byte 512.
 *
 *   draw(n, total, i, w)
 *
 * draws `total` indices from state (X, i, w) into the memory.
 */
import {
  add,
  and,
  extendU,
  geS,
  get,
  I32,
  i32,
  i32load,
  i32store,
  i64const,
  i64mul,
  i64shrU,
  loopUntil,
  moduleBytes,
  set,
  shl,
  shrU,
  wrap,
  xor,
} from "./wasm-encoding.js";

/** Where the indices start in the memory (after the 128 state words). */
export const DRAW_OUT = 512;

// the arguments, then the locals, by index
const [N, TOTAL, XI, W] = [0, 1, 2, 3];
const PARAMS = 4;
const [K, V, T, AT] = [4, 5, 6, 7];

/** The byte address of state word (local `index` & 127). */
const word = (index: number[]) => [...index, ...i32(127), ...and, ...i32(2), ...shl];

const body: number[] = loopUntil(
  [...get(K), ...get(TOTAL), ...geS],
  [
    // w = w + 0x61c88647; v = X[(i + 34) & 127]; i = (i + 1) & 127; t = X[i]
    ...[...get(W), ...i32(0x61c88647), ...add, ...set(W)],
    ...[...word([...get(XI), ...i32(34), ...add]), ...i32load(), ...set(V)],
    ...[...get(XI), ...i32(1), ...add, ...i32(127), ...and, ...set(XI)],
    ...[...word(get(XI)), ...set(AT)],
    ...[...get(AT), ...i32load(), ...set(T)],
    // v ^= v << 13; t ^= t << 17; v ^= v >>> 15; t ^= t >>> 12; X[i] = v = v ^ t
    ...[...get(V), ...get(V), ...i32(13), ...shl, ...xor, ...set(V)],
    ...[...get(T), ...get(T), ...i32(17), ...shl, ...xor, ...set(T)],
    ...[...get(V), ...get(V), ...i32(15), ...shrU, ...xor, ...set(V)],
    ...[...get(T), ...get(T), ...i32(12), ...shrU, ...xor, ...set(T)],
    ...[...get(V), ...get(T), ...xor, ...set(V)],
    ...[...get(AT), ...get(V), ...i32store()],
    // out[k] = ((v + (w ^ (w >>> 16))) as uint32 · n) >> 32
    ...[...get(K), ...i32(2), ...shl],
    ...[...get(V), ...get(W), ...get(W), ...i32(16), ...shrU, ...xor, ...add, ...extendU],
    ...[...get(N), ...extendU, ...i64mul, ...i64const(32), ...i64shrU, ...wrap],
    ...i32store(DRAW_OUT),
    ...[...get(K), ...i32(1), ...add, ...set(K)],
  ],
);

/** The module's bytes. */
export const DRAW_WASM: Uint8Array = moduleBytes("draw", PARAMS, [[4, I32]], body);
