/**
 * Closed-form ridge regression (Hoerl & Kennard 1970) for the EmoBank estimator: w = (XᵀX + λI)⁻¹Xᵀy on
 * centred features, intercept unpenalised. Solved by Cholesky in float64 with a fixed summation order,
 * so a fit is reproducible bit for bit; no randomness anywhere.
 */

/** A fitted linear model: ŷ = intercept + w·x. */
export interface LinearModel {
  intercept: number;
  weights: Float64Array;
}

/**
 * Fit ridge regressions of several targets on the same features at once (one Gram matrix, one
 * Cholesky factor). `x` is row-major n × d; each target has n values. λ ≥ 0 (λ > 0 when d ≥ n).
 */
export function fitRidge(x: Float64Array, n: number, d: number, targets: readonly ArrayLike<number>[], lambda: number): LinearModel[] {
  if (x.length !== n * d) throw new RangeError(`fitRidge: x has ${x.length} values, expected n·d = ${n}·${d}`);
  if (!(lambda >= 0)) throw new RangeError(`fitRidge: λ must be ≥ 0, got ${lambda}`);
  if (n < 1) throw new RangeError("fitRidge: no training rows");
  const mu = new Float64Array(d);
  for (let i = 0; i < n; i++) for (let j = 0; j < d; j++) mu[j]! += x[i * d + j]!;
  for (let j = 0; j < d; j++) mu[j] = mu[j]! / n;
  // Gram matrix of centred features (upper triangle, mirrored).
  const g = new Float64Array(d * d);
  const row = new Float64Array(d);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < d; j++) row[j] = x[i * d + j]! - mu[j]!;
    for (let a = 0; a < d; a++) {
      const ra = row[a]!;
      if (ra === 0) continue;
      for (let b = a; b < d; b++) g[a * d + b]! += ra * row[b]!;
    }
  }
  for (let a = 0; a < d; a++) {
    g[a * d + a]! += lambda;
    for (let b = a + 1; b < d; b++) g[b * d + a] = g[a * d + b]!;
  }
  const L = cholesky(g, d);
  return targets.map((y, t) => {
    if (y.length !== n) throw new RangeError(`fitRidge: target ${t} has ${y.length} values, expected ${n}`);
    let ym = 0;
    for (let i = 0; i < n; i++) ym += y[i]!;
    ym /= n;
    const rhs = new Float64Array(d);
    for (let i = 0; i < n; i++) {
      const yi = y[i]! - ym;
      for (let j = 0; j < d; j++) rhs[j]! += (x[i * d + j]! - mu[j]!) * yi;
    }
    const w = choleskySolve(L, d, rhs);
    let b = ym;
    for (let j = 0; j < d; j++) b -= w[j]! * mu[j]!;
    return { intercept: b, weights: w };
  });
}

/** ŷ = intercept + w·x for one feature vector. */
export function predictLinear(m: LinearModel, x: ArrayLike<number>): number {
  let s = m.intercept;
  for (let j = 0; j < m.weights.length; j++) s += m.weights[j]! * x[j]!;
  return s;
}

/** Lower-triangular L with LLᵀ = A (A symmetric positive definite, row-major d × d). */
export function cholesky(a: Float64Array, d: number): Float64Array {
  const L = new Float64Array(d * d);
  for (let i = 0; i < d; i++) {
    for (let j = 0; j <= i; j++) {
      let s = a[i * d + j]!;
      for (let k = 0; k < j; k++) s -= L[i * d + k]! * L[j * d + k]!;
      if (i === j) {
        if (!(s > 0)) throw new RangeError(`cholesky: matrix is not positive definite at pivot ${i} (${s}); increase λ`);
        L[i * d + i] = Math.sqrt(s);
      } else L[i * d + j] = s / L[j * d + j]!;
    }
  }
  return L;
}

/** Solve LLᵀw = b by forward then back substitution. */
export function choleskySolve(L: Float64Array, d: number, b: Float64Array): Float64Array {
  const z = new Float64Array(d);
  for (let i = 0; i < d; i++) {
    let s = b[i]!;
    for (let k = 0; k < i; k++) s -= L[i * d + k]! * z[k]!;
    z[i] = s / L[i * d + i]!;
  }
  const w = new Float64Array(d);
  for (let i = d - 1; i >= 0; i--) {
    let s = z[i]!;
    for (let k = i + 1; k < d; k++) s -= L[k * d + i]! * w[k]!;
    w[i] = s / L[i * d + i]!;
  }
  return w;
}
