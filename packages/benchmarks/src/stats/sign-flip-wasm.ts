/**
 * The sign-flip test's inner loop (./sign-flip-kernel.ts) as a WebAssembly function: per test, for each sign vector
 * s of the block, flipped = Σ_k table[k·256 + byte(s, offsets[k])] over the test's active bytes k in ascending order
 * (four sign vectors at a time, four independent sums, so the additions overlap), and a count of
 * |Σd − 2·flipped| ≥ threshold. The same float operations in the same order per sign vector as the plain loop, so
 * the same counts (test/significance.test.ts compares them with flipping each sign). It imports one shared memory
 * ("env" "memory") holding the job's arrays.
 *
 *   signFlip(bytes, bytesPerSample, tests, start, offsets, table, total, threshold, s0, s1, count, blocks, u)
 *
 * Every argument is an i32: a byte offset into the memory, or a count; count[t·blocks + u] = the block's count for test t.
 */
import {
  add,
  F64,
  fabs,
  fadd,
  f64load,
  fge,
  fsub,
  geS,
  get,
  gtS,
  I32,
  i32,
  i32load,
  i32load8u,
  i32store,
  loopUntil,
  moduleBytes,
  mul,
  set,
  shl,
} from "./wasm-encoding.js";

// the arguments, then the locals, by index
const [BYTES, G, TESTS, START, OFFSETS, TABLE, TOTAL, THRESHOLD, S0, S1, COUNT, BLOCKS, U] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
const PARAMS = 13;
const [T, K, K1, S, C, O, TK, ROW] = [13, 14, 15, 16, 17, 18, 19, 20];
const I32_LOCALS = 8;
const [TOT, THR, F0] = [21, 22, 23];
const F64_LOCALS = 6;
const WAYS = 4;

const element = (array: number, index: number[], shift: number) => [...get(array), ...index, ...i32(shift), ...shl, ...add];
/** c += |tot − 2·f| ≥ thr (2·f as f + f: the same bits). */
const countIf = (f: number) => [
  ...get(C),
  ...get(TOT),
  ...get(f),
  ...get(f),
  ...fadd,
  ...fsub,
  ...fabs,
  ...get(THR),
  ...fge,
  ...add,
  ...set(C),
];
/** f_w += table[tk + byte(row + w·G + o)·8], the table row's address tk already in bytes. */
const lookup = (w: number) => [
  ...get(F0 + w),
  ...get(TK),
  ...[...get(ROW), ...get(O), ...add, ...(w === 0 ? [] : [...get(G), ...i32(w), ...mul, ...add]), ...i32load8u()],
  ...i32(3),
  ...shl,
  ...add,
  ...f64load(),
  ...fadd,
  ...set(F0 + w),
];
/** Over sign vectors s … s + ways − 1: zero the sums, add every active byte's table entry, count the extreme ones. */
const vectors = (ways: number) => [
  ...Array.from({ length: ways }, (_, w) => [0x44, 0, 0, 0, 0, 0, 0, 0, 0, ...set(F0 + w)]).flat(),
  ...[...get(BYTES), ...get(S), ...get(G), ...mul, ...add, ...set(ROW)],
  ...[...element(START, get(T), 2), ...i32load(), ...set(K)],
  ...loopUntil(
    [...get(K), ...get(K1), ...geS],
    [
      ...[...element(OFFSETS, get(K), 2), ...i32load(), ...set(O)],
      ...[...element(TABLE, get(K), 11), ...set(TK)],
      ...Array.from({ length: ways }, (_, w) => lookup(w)).flat(),
      ...[...get(K), ...i32(1), ...add, ...set(K)],
    ],
  ),
  ...Array.from({ length: ways }, (_, w) => countIf(F0 + w)).flat(),
  ...[...get(S), ...i32(ways), ...add, ...set(S)],
];

const body: number[] = loopUntil(
  [...get(T), ...get(TESTS), ...geS],
  [
    ...[...element(START, get(T), 2), ...i32load(4), ...set(K1)],
    ...[...element(TOTAL, get(T), 3), ...f64load(), ...set(TOT)],
    ...[...element(THRESHOLD, get(T), 3), ...f64load(), ...set(THR)],
    ...[...i32(0), ...set(C)],
    ...[...get(S0), ...set(S)],
    ...loopUntil([...get(S), ...i32(WAYS), ...add, ...get(S1), ...gtS], vectors(WAYS)),
    ...loopUntil([...get(S), ...get(S1), ...geS], vectors(1)),
    ...[...element(COUNT, [...get(T), ...get(BLOCKS), ...mul, ...get(U), ...add], 2), ...get(C), ...i32store()],
    ...[...get(T), ...i32(1), ...add, ...set(T)],
  ],
);

/** The module's bytes. */
export const SIGN_FLIP_WASM: Uint8Array = moduleBytes(
  "signFlip",
  PARAMS,
  [
    [I32_LOCALS, I32],
    [F64_LOCALS, F64],
  ],
  body,
);
