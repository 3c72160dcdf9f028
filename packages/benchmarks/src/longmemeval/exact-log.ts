/**
 * Correctly rounded natural logarithm of a positive half-integer or integer x (x = N / 2, N a positive integer),
 * as CPython's `math.log` gives it (glibc's log is correctly rounded on these; V8's Math.log is not always, which
 * would move BM25 idf values — and so near-ties — by one ulp). Computed in 192-bit fixed point with BigInt:
 * ln N = e·ln 2 + 2·atanh((f − 1)/(f + 1)) for N = 2^e·f, f ∈ [1, 2); then ln x = ln N − ln 2. Memoised.
 */
const P = 192n;
const ONE = 1n << P;

/** 2·atanh(z) = 2 Σ z^(2k+1)/(2k+1), z = num/den in fixed point. */
function twoAtanh(num: bigint, den: bigint): bigint {
  const z = (num << P) / den;
  const z2 = (z * z) >> P;
  let term = z;
  let sum = 0n;
  for (let k = 1n; term !== 0n; k += 2n) {
    sum += term / k;
    term = (term * z2) >> P;
  }
  return 2n * sum;
}

const LN2 = twoAtanh(1n, 3n); // ln 2 = 2·atanh(1/3)
const memo = new Map<number, number>();

/** ln(x) correctly rounded for x = N/2 with N a positive safe integer. */
export function exactLogHalfInteger(x: number): number {
  const cached = memo.get(x);
  if (cached !== undefined) return cached;
  const n2 = x * 2;
  if (!Number.isSafeInteger(n2) || n2 <= 0) throw new RangeError(`exactLogHalfInteger: ${x} is not a positive multiple of 1/2`);
  const big = BigInt(n2);
  const e = big.toString(2).length - 1;
  // f = big / 2^e in [1, 2): (f − 1)/(f + 1) = (big − 2^e)/(big + 2^e)
  const p2 = 1n << BigInt(e);
  const lnN = BigInt(e) * LN2 + twoAtanh(big - p2, big + p2);
  const v = lnN - LN2;
  const out = Number(v) / Number(ONE);
  memo.set(x, out);
  return out;
}
