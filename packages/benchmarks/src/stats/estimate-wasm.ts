/**
 * The estimate kernel's column loop (./estimate-kernel.ts) as a WebAssembly function with 128-bit SIMD, for the
 * thread pool's hot path: LANES resamples of a block at a time, two per f64x2 register, the same float operations
 * in the same order per resample as the JavaScript loop (WebAssembly never fuses a multiply and an add), so both
 * give the same bits (test/bootstrap.test.ts compares them). The draw counts are item-major (item i's counts of
 * the block's resamples are contiguous), so one term is a few vector loads, multiplies and adds, not a gather per
 * resample. The module is written out here instruction by instruction and encoded by a few lines below; it
 * imports one shared memory ("env" "memory") that holds the job's arrays, so every thread of the pool reads them
 * without a copy.
 *
 *   estimate(counts, n, stride, width, columns, parent, base, start, at, delta, sums, out, samples, b0)
 *
 * Every argument is an i32: a byte offset into the memory, or a count. Counts and sums are float64 rows of
 * `stride` (a multiple of LANES, at least width) per item and per column. For column c and resample r < width:
 * s = (parent[c] < 0 ? base[c]·n : sums[parent[c]·stride + r]), then s = s + count[at[j]·stride + r]·delta[j]
 * for j = start[c] … start[c + 1] − 1 in that order; sums[c·stride + r] = s and out[c·samples + b0 + r] = s / n.
 */

import {
  add,
  ELSE,
  END,
  F64,
  f64load,
  f64store,
  f64x2add,
  f64x2mul,
  f64x2splat,
  fdiv,
  fmul,
  fromI32,
  geS,
  get,
  I32,
  i32,
  i32load,
  IF,
  loopUntil,
  ltS,
  moduleBytes,
  mul,
  set,
  shl,
  V128,
  v128load,
  v128store,
} from "./wasm-encoding.js";

/** Resamples per step of the column loop: LANES / 2 f64x2 accumulators. */
export const LANES = 8;

// the arguments, then the locals, by index
const [COUNTS, N, STRIDE, WIDTH, COLUMNS, PARENT, BASE, START, AT, DELTA, SUMS, OUT, SAMPLES, B0] = [
  0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13,
];
const PARAMS = 14;
const [C, R, J, J0, M, P, ROW] = [14, 15, 16, 17, 18, 19, 20];
const I32_LOCALS = 7;
const [FROM, NF] = [21, 22];
const F64_LOCALS = 2;
const ACCS = LANES / 2;
const V128_LOCALS = ACCS + 1;
const D = PARAMS + I32_LOCALS + F64_LOCALS;
const ACC = (k: number) => D + 1 + k;

const each = (f: (k: number) => number[]) => Array.from({ length: ACCS }, (_, k) => f(k)).flat();

/** The byte address of element `index` (instructions leaving an i32) of the array at local `array`, elements of 2^shift bytes. */
const element = (array: number, index: number[], shift: number) => [...get(array), ...index, ...i32(shift), ...shl, ...add];
/** The byte address of float64 element [row·stride + r] of the rows at local `array`. */
const cell = (array: number, row: number[]) => element(array, [...row, ...get(STRIDE), ...mul, ...get(R), ...add], 3);

const body: number[] = [
  ...[...get(N), ...fromI32, ...set(NF)],
  ...loopUntil(
    [...get(C), ...get(COLUMNS), ...geS],
    [
      // p = parent[c]; from = base[c]·n; j0 = start[c]; m = start[c + 1]
      ...[...element(PARENT, get(C), 2), ...i32load(), ...set(P)],
      ...[...element(BASE, get(C), 3), ...f64load(), ...get(NF), ...fmul, ...set(FROM)],
      ...[...element(START, get(C), 2), ...i32load(), ...set(J0)],
      ...[...element(START, get(C), 2), ...i32load(4), ...set(M)],
      ...[...i32(0), ...set(R)],
      ...loopUntil(
        [...get(R), ...get(WIDTH), ...geS],
        [
          // acc = p < 0 ? from : sums[p·stride + r …]
          ...[...get(P), ...i32(0), ...ltS, ...IF],
          ...[...get(FROM), ...f64x2splat, ...set(ACC(0)), ...each((k) => (k === 0 ? [] : [...get(ACC(0)), ...set(ACC(k))]))],
          ...ELSE,
          ...each((k) => [...cell(SUMS, get(P)), ...v128load(16 * k), ...set(ACC(k))]),
          ...END,
          // acc += count[at[j]·stride + r …] · delta[j], j = j0 … m − 1
          ...[...get(J0), ...set(J)],
          ...loopUntil(
            [...get(J), ...get(M), ...geS],
            [
              ...[...element(DELTA, get(J), 3), ...f64load(), ...f64x2splat, ...set(D)],
              ...[...cell(COUNTS, [...element(AT, get(J), 2), ...i32load()]), ...set(ROW)],
              ...each((k) => [...get(ACC(k)), ...get(ROW), ...v128load(16 * k), ...get(D), ...f64x2mul, ...f64x2add, ...set(ACC(k))]),
              ...[...get(J), ...i32(1), ...add, ...set(J)],
            ],
          ),
          ...each((k) => [...cell(SUMS, get(C)), ...get(ACC(k)), ...v128store(16 * k)]),
          ...[...get(R), ...i32(LANES), ...add, ...set(R)],
        ],
      ),
      // out[c·samples + b0 + r] = sums[c·stride + r] / n, r < width
      ...[...i32(0), ...set(R)],
      ...loopUntil(
        [...get(R), ...get(WIDTH), ...geS],
        [
          ...element(OUT, [...get(C), ...get(SAMPLES), ...mul, ...get(B0), ...add, ...get(R), ...add], 3),
          ...[...cell(SUMS, get(C)), ...f64load(), ...get(NF), ...fdiv, ...f64store()],
          ...[...get(R), ...i32(1), ...add, ...set(R)],
        ],
      ),
      ...[...get(C), ...i32(1), ...add, ...set(C)],
    ],
  ),
];

/** The module's bytes. */
export const ESTIMATE_WASM: Uint8Array = moduleBytes(
  "estimate",
  PARAMS,
  [
    [I32_LOCALS, I32],
    [F64_LOCALS, F64],
    [V128_LOCALS, V128],
  ],
  body,
);
