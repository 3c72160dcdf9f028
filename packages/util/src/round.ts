/**
 * Round like Python's `round(x, n)`: correctly rounded from the exact binary value, exact ties to
 * even (docs/spec.md, preamble). `Number(x.toFixed(n))` differs on exact ties (it rounds them up).
 */
export function pyRound(x: number, n = 0): number {
  if (!Number.isFinite(x)) return x;
  if (!Number.isInteger(n) || n < 0 || n > 20) throw new RangeError(`pyRound: digits must be an integer in [0, 20], got ${n}`);
  const quick = n <= 15 ? roundedFar(Math.abs(x), n) : undefined;
  if (quick !== undefined) return x < 0 || Object.is(x, -0) ? -quick : quick;
  return exactRound(x, n);
}

/** 10^0 … 10^15, each exact in a double. */
const POW10 = Array.from({ length: 16 }, (_, i) => 10 ** i);

/**
 * round(a, n) for a ≥ 0 when a·10^n is far from a tie, else undefined. y = a·10^n as a double is within
 * y·2^-53 < 1.2e-7 of the exact product (y < 1e9), so a fractional part more than 1e-6 from one half leaves the
 * exact product on the same side of it: Math.round(y) is the correctly rounded integer K, and K / 10^n (both exact)
 * is divided with one correct rounding, i.e. the double nearest K·10^-n, which is what parsing the digits gives.
 */
function roundedFar(a: number, n: number): number | undefined {
  const p = POW10[n]!;
  const y = a * p;
  if (!(y < 1e9)) return undefined;
  const f = y - Math.floor(y);
  return Math.abs(f - 0.5) > 1e-6 ? Math.round(y) / p : undefined;
}

/**
 * pyRound by decimal expansion: exact for every finite x, ties included.
 * @internal exported for tests only: test/round.test.ts checks the quick path against it.
 */
export function exactRound(x: number, n: number): number {
  // toFixed works on the exact binary value; ties (the only disagreement) are detected
  // from a longer exact expansion: a tie at n digits is exactly "...5" followed by zeros.
  const wide = Math.abs(x).toFixed(Math.min(100, n + 30));
  const dot = wide.indexOf(".");
  const tail = wide.slice(dot + 1 + n);
  let s: string;
  if (/^50*$/.test(tail)) {
    // exact tie: keep the truncated value when its last digit is even, else round away
    const kept = wide.slice(0, dot + 1 + n).replace(/\.$/, "");
    const lastDigit = Number(kept[kept.length - 1]);
    if (lastDigit % 2 === 0) s = kept;
    else s = Math.abs(x).toFixed(n); // toFixed rounds exact ties up (away from zero for |x|)
  } else {
    s = Math.abs(x).toFixed(n);
  }
  const r = Number(s);
  return x < 0 || Object.is(x, -0) ? -r : r;
}
