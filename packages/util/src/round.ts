/**
 * Round like Python's `round(x, n)`: correctly rounded from the exact binary value, exact ties to
 * even (docs/spec.md, preamble). `Number(x.toFixed(n))` differs on exact ties (it rounds them up).
 */
export function pyRound(x: number, n = 0): number {
  if (!Number.isFinite(x)) return x;
  if (!Number.isInteger(n) || n < 0 || n > 20) throw new RangeError(`pyRound: digits must be an integer in [0, 20], got ${n}`);
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
