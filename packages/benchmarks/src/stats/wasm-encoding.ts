/**
 * The few pieces of the WebAssembly binary format (https://webassembly.github.io/spec/core/binary/) the statistics
 * kernels' hand-written modules need (./estimate-wasm.ts, ./draw-wasm.ts, ./sign-flip-wasm.ts): LEB128 numbers,
 * the instructions they use, and one function's module over one imported shared memory. Written out rather than
 * taken from a toolchain: each module is a few dozen instructions, and its listing is the documentation.
 */

/** Value types. */
export const I32 = 0x7f;
export const F64 = 0x7c;
export const V128 = 0x7b;

/** Unsigned LEB128. */
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

/** Signed LEB128 (of a 32-bit integer). */
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

// locals and constants
export const get = (l: number): number[] => [0x20, ...uleb(l)];
export const set = (l: number): number[] => [0x21, ...uleb(l)];
export const i32 = (v: number): number[] => [0x41, ...sleb(v)];
// memory (memarg: log2 alignment, offset)
export const i32load = (offset = 0): number[] => [0x28, 2, ...uleb(offset)];
export const i32load8u = (offset = 0): number[] => [0x2d, 0, ...uleb(offset)];
export const f64load = (offset = 0): number[] => [0x2b, 3, ...uleb(offset)];
export const i32store = (offset = 0): number[] => [0x36, 2, ...uleb(offset)];
export const f64store = (offset = 0): number[] => [0x39, 3, ...uleb(offset)];
// i32, i64 and f64 arithmetic
export const [add, mul, and, xor, shl, shrU, ltS, geS, gtS] = [[0x6a], [0x6c], [0x71], [0x73], [0x74], [0x76], [0x48], [0x4e], [0x4a]];
export const [i64mul, i64shrU, i64const, extendU, wrap] = [[0x7e], [0x88], (v: number) => [0x42, ...sleb(v)], [0xad], [0xa7]];
export const [fadd, fsub, fmul, fdiv, fabs, fge, fromI32] = [[0xa0], [0xa1], [0xa2], [0xa3], [0x99], [0x66], [0xb7]];
// 128-bit SIMD
const simd = (op: number): number[] => [0xfd, ...uleb(op)];
export const v128load = (offset = 0): number[] => [...simd(0x00), 3, ...uleb(offset)];
export const v128store = (offset = 0): number[] => [...simd(0x0b), 3, ...uleb(offset)];
export const [f64x2splat, f64x2add, f64x2mul] = [simd(0x14), simd(240), simd(242)];
// control
export const [END, IF, ELSE] = [[0x0b], [0x04, 0x40], [0x05]];
const [BREAK_IF, BRANCH] = [[0x0d], [0x0c]];

/** `while (!exit) body`: block { loop { exit; br_if 1; body; br 0 } }. */
export const loopUntil = (exit: number[], body: number[]): number[] => [
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

/**
 * The bytes of a module exporting one function `exported` of `params` i32 arguments and no result, with `locals`
 * (count and type, in index order after the arguments) and `body` (without its final `end`), over one imported
 * shared memory "env" "memory" of 1 … 65 536 pages.
 */
export function moduleBytes(exported: string, params: number, locals: readonly [number, number][], body: readonly number[]): Uint8Array {
  const code = [...vec(locals.map(([count, type]) => [...uleb(count), type])), ...body, ...END];
  return Uint8Array.from([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    // type 0: (params × i32) → ()
    ...section(1, vec([[0x60, ...vec(Array.from({ length: params }, () => [I32])), 0]])),
    ...section(2, vec([[...name("env"), ...name("memory"), 0x02, 0x03, ...uleb(1), ...uleb(65_536)]])),
    ...section(3, vec([uleb(0)])),
    ...section(7, vec([[...name(exported), 0x00, 0]])),
    ...section(10, vec([[...uleb(code.length), ...code]])),
  ]);
}
