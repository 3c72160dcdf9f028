/**
 * The estimate kernel's column loop (./estimate-kernel.ts) as a WebAssembly function, for the thread pool's hot
 * path: the same float operations in the same order as the JavaScript loop (WebAssembly never fuses a multiply
 * and an add), so both give the same bits (test/bootstrap.test.ts compares them), at about half the time per
 * term (no bounds checks, no int-to-float conversion stubs). The module is written out here instruction by
 * instruction and encoded by a few lines below; it imports one shared memory ("env" "memory") that holds the
 * job's arrays, so every thread of the pool reads them without a copy.
 *
 *   estimate(counts, n, width, columns, parent, base, start, at, delta, sums, out, samples, b0)
 *
 * Every argument is an i32: a byte offset into the memory, or a count. For column c and resample r of the
 * block: s = (parent[c] < 0 ? base[c]·n : sums[parent[c]·width + r]) plus count[r·n + at[j]]·delta[j] over
 * j in start[c] … start[c + 1] − 1 in four interleaved partial sums, combined (s0 + s1) + (s2 + s3); then
 * sums[c·width + r] = s and out[c·samples + b0 + r] = s / n.
 */

const I32 = 0x7f;
const F64 = 0x7c;

/** Unsigned and signed LEB128. */
function uleb(x: number): number[] {
  const out: number[] = [];
  do {
    let b = x & 0x7f;
    x >>>= 7;
    if (x !== 0) b |= 0x80;
    out.push(b);
  } while (x !== 0);
  return out;
}
function sleb(x: number): number[] {
  const out: number[] = [];
  for (;;) {
    const b = x & 0x7f;
    x >>= 7;
    if ((x === 0 && (b & 0x40) === 0) || (x === -1 && (b & 0x40) !== 0)) return [...out, b];
    out.push(b | 0x80);
  }
}
const vec = (items: number[][]): number[] => [...uleb(items.length), ...items.flat()];
const name = (s: string): number[] => vec([...s].map((ch) => [ch.charCodeAt(0)]));
const section = (id: number, body: number[]): number[] => [id, ...uleb(body.length), ...body];

// the arguments, then the locals, by index
const [COUNTS, N, WIDTH, COLUMNS, PARENT, BASE, START, AT, DELTA, SUMS, OUT, SAMPLES, B0] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
const PARAMS = 13;
const [C, R, J, M, P, ROW] = [13, 14, 15, 16, 17, 18];
const [S0, S1, S2, S3, FROM, NF] = [19, 20, 21, 22, 23, 24];

// instructions
const get = (l: number) => [0x20, ...uleb(l)];
const set = (l: number) => [0x21, ...uleb(l)];
const i32 = (v: number) => [0x41, ...sleb(v)];
const f64zero = [0x44, 0, 0, 0, 0, 0, 0, 0, 0];
const i32load = (offset = 0) => [0x28, 2, ...uleb(offset)];
const f64load = (offset = 0) => [0x2b, 3, ...uleb(offset)];
const f64store = [0x39, 3, 0];
const [add, mul, shl, ltS, geS, gtS] = [[0x6a], [0x6c], [0x74], [0x48], [0x4e], [0x4a]];
const [fadd, fmul, fdiv, fromI32] = [[0xa0], [0xa2], [0xa3], [0xb7]];
const [END, BREAK_IF, BRANCH] = [[0x0b], [0x0d], [0x0c]];
/** `while (!exit) body`: block { loop { exit; br_if 1; body; br 0 } }. */
const loopUntil = (exit: number[], body: number[]) => [
  0x02,
  0x40,
  0x03,
  0x40,
  ...exit,
  ...BREAK_IF,
  1,
  ...body,
  ...BRANCH,
  0,
  ...END,
  ...END,
];

/** The byte address of element `index` (instructions leaving an i32) of the array at local `array`, elements of 2^shift bytes. */
const element = (array: number, index: number[], shift: number) => [...get(array), ...index, ...i32(shift), ...shl, ...add];

/** s_k += f64(count[row + at[j + k]·4]) · delta[j + k] (k = 0 … 3 through the loads' offsets). */
const term = (s: number, k: number) => [
  ...get(s),
  ...element(ROW, [...element(AT, get(J), 2), ...i32load(4 * k)], 2),
  ...i32load(),
  ...fromI32,
  ...element(DELTA, get(J), 3),
  ...f64load(8 * k),
  ...fmul,
  ...fadd,
  ...set(s),
];

const body: number[] = [
  ...[...get(N), ...fromI32, ...set(NF)],
  ...loopUntil(
    [...get(C), ...get(COLUMNS), ...geS],
    [
      // p = parent[c]; from = base[c]·n; m = start[c + 1]
      ...[...element(PARENT, get(C), 2), ...i32load(), ...set(P)],
      ...[...element(BASE, get(C), 3), ...f64load(), ...get(NF), ...fmul, ...set(FROM)],
      ...[...element(START, get(C), 2), ...i32load(4), ...set(M)],
      ...[...i32(0), ...set(R)],
      ...loopUntil(
        [...get(R), ...get(WIDTH), ...geS],
        [
          // row = counts + r·n·4; j = start[c]
          ...[...element(COUNTS, [...get(R), ...get(N), ...mul], 2), ...set(ROW)],
          ...[...element(START, get(C), 2), ...i32load(), ...set(J)],
          // s0 = p < 0 ? from : sums[p·width + r]; s1 = s2 = s3 = 0
          ...[...get(P), ...i32(0), ...ltS, 0x04, F64, ...get(FROM), 0x05],
          ...[...element(SUMS, [...get(P), ...get(WIDTH), ...mul, ...get(R), ...add], 3), ...f64load(), ...END, ...set(S0)],
          ...[...f64zero, ...set(S1), ...f64zero, ...set(S2), ...f64zero, ...set(S3)],
          ...loopUntil(
            [...get(J), ...i32(4), ...add, ...get(M), ...gtS],
            [...term(S0, 0), ...term(S1, 1), ...term(S2, 2), ...term(S3, 3), ...get(J), ...i32(4), ...add, ...set(J)],
          ),
          ...loopUntil([...get(J), ...get(M), ...geS], [...term(S0, 0), ...get(J), ...i32(1), ...add, ...set(J)]),
          // s0 = (s0 + s1) + (s2 + s3); sums[c·width + r] = s0; out[c·samples + b0 + r] = s0 / n
          ...[...get(S0), ...get(S1), ...fadd, ...get(S2), ...get(S3), ...fadd, ...fadd, ...set(S0)],
          ...[...element(SUMS, [...get(C), ...get(WIDTH), ...mul, ...get(R), ...add], 3), ...get(S0), ...f64store],
          ...[...element(OUT, [...get(C), ...get(SAMPLES), ...mul, ...get(B0), ...add, ...get(R), ...add], 3)],
          ...[...get(S0), ...get(NF), ...fdiv, ...f64store],
          ...[...get(R), ...i32(1), ...add, ...set(R)],
        ],
      ),
      ...[...get(C), ...i32(1), ...add, ...set(C)],
    ],
  ),
  ...END,
];

/** The module's bytes. */
export const ESTIMATE_WASM: Uint8Array = Uint8Array.from([
  ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
  // type 0: (13 × i32) → ()
  ...section(1, vec([[0x60, ...vec(Array.from({ length: PARAMS }, () => [I32])), 0]])),
  // import env.memory: shared, 1 … 65 536 pages
  ...section(2, vec([[...name("env"), ...name("memory"), 0x02, 0x03, ...uleb(1), ...uleb(65_536)]])),
  ...section(3, vec([uleb(0)])),
  ...section(7, vec([[...name("estimate"), 0x00, 0]])),
  ...section(
    10,
    vec([
      (() => {
        const code = [
          ...vec([
            [...uleb(6), I32],
            [...uleb(6), F64],
          ]),
          ...body,
        ];
        return [...uleb(code.length), ...code];
      })(),
    ]),
  ),
]);
