import { describe, expect, it } from "vitest";
import { cholesky, choleskySolve, fitRidge, pearson, predictLinear } from "../src/index.js";
import { gramOf } from "../src/estimators/ridge.js";

describe("ridge regression", () => {
  it("recovers exact weights from noiseless data with λ = 0", () => {
    const n = 40;
    const d = 3;
    const x = new Float64Array(n * d);
    const y = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const r = [Math.sin(i), Math.cos(3 * i), (i % 7) / 7];
      r.forEach((v, j) => (x[i * d + j] = v));
      y[i] = 2 + 1.5 * r[0]! - 0.5 * r[1]! + 3 * r[2]!;
    }
    const [m] = fitRidge(x, n, d, [y], 0);
    expect(m!.intercept).toBeCloseTo(2, 10);
    expect(Array.from(m!.weights).map((w) => Number(w.toFixed(10)))).toEqual([1.5, -0.5, 3]);
    expect(predictLinear(m!, [1, 1, 1])).toBeCloseTo(6, 10);
  });

  it("shrinks like the one-feature closed form w = Sxy / (Sxx + λ)", () => {
    const xs = [1, 2, 3, 4, 6];
    const ys = [2, 3, 5, 4, 9];
    const mx = 16 / 5;
    const my = 23 / 5;
    const sxy = xs.reduce((s, v, i) => s + (v - mx) * (ys[i]! - my), 0);
    const sxx = xs.reduce((s, v) => s + (v - mx) ** 2, 0);
    const [m] = fitRidge(Float64Array.from(xs), 5, 1, [ys], 2);
    expect(m!.weights[0]).toBeCloseTo(sxy / (sxx + 2), 12);
    expect(m!.intercept).toBeCloseTo(my - (sxy / (sxx + 2)) * mx, 12);
  });

  it("Cholesky factors and solves a small SPD system", () => {
    const a = Float64Array.from([4, 2, 0.6, 2, 5, 1, 0.6, 1, 3]);
    const L = cholesky(a, 3);
    for (let i = 0; i < 3; i++)
      for (let j = 0; j < 3; j++) {
        let s = 0;
        for (let k = 0; k < 3; k++) s += L[i * 3 + k]! * L[j * 3 + k]!;
        expect(s).toBeCloseTo(a[i * 3 + j]!, 12);
      }
    const w = choleskySolve(L, 3, Float64Array.from([1, 2, 3]));
    const back = [0, 1, 2].map((i) => a[i * 3]! * w[0]! + a[i * 3 + 1]! * w[1]! + a[i * 3 + 2]! * w[2]!);
    back.forEach((v, i) => expect(v).toBeCloseTo(i + 1, 12));
    expect(() => cholesky(Float64Array.from([1, 2, 2, 1]), 2)).toThrow(/not positive definite/);
  });

  it("Pearson r matches a hand computation and is NaN for a constant side", () => {
    expect(pearson([1, 2, 3], [2, 4, 7])).toBeCloseTo(0.9933992677987828, 14);
    expect(pearson([1, 1, 1], [1, 2, 3])).toBeNaN();
  });
});

describe("Gram matrix paths", () => {
  /** Deterministic pseudo-random features (xorshift), with exact zeros, −0 and a wide range of magnitudes. */
  function features(n: number, d: number, zeroShare: number, seed: number): Float64Array {
    let s = seed >>> 0 || 1;
    const next = () => ((s ^= s << 13), (s ^= s >>> 17), (s ^= s << 5), (s >>> 0) / 2 ** 32);
    return Float64Array.from({ length: n * d }, () => {
      const u = next();
      if (u < zeroShare) return u < zeroShare / 4 ? -0 : 0;
      return (next() - 0.5) * 10 ** Math.floor(next() * 6 - 3);
    });
  }

  it("the dense (column-major) and sparse (non-zero pairs) paths give the same bits, sparse or dense data", () => {
    for (const [n, d, zeros] of [
      [301, 37, 0],
      [301, 37, 0.3],
      [120, 64, 0.9],
      [7, 5, 1],
    ] as const) {
      const x = features(n, d, zeros, n * d + Math.round(zeros * 10));
      const a = gramOf(x, n, d, "dense");
      const b = gramOf(x, n, d, "sparse");
      const first = (p: Float64Array, q: Float64Array) => p.findIndex((v, i) => !Object.is(v, q[i]));
      expect(first(a.gram, b.gram), `gram, ${n}×${d}, ${zeros} zeros`).toBe(-1);
      expect(first(a.mu, b.mu), `Σx, ${n}×${d}, ${zeros} zeros`).toBe(-1);
      // and they computed something: the diagonal is Σ x², positive unless a column is all zero
      if (zeros < 1) expect(a.gram[0]).toBeGreaterThan(0);
    }
  });
});
