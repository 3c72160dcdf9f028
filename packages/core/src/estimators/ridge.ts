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

/** The sufficient statistics of a ridge fit: centred Gram matrix, centred Xᵀy per target, means. */
export interface RidgeProblem {
  n: number;
  d: number;
  /** Row-major d × d: Σᵢ (xᵢ − μ)(xᵢ − μ)ᵀ. */
  gram: Float64Array;
  /** Per target: Σᵢ (xᵢ − μ)(yᵢ − ȳ). */
  xty: Float64Array[];
  mu: Float64Array;
  yMean: number[];
}

/**
 * Accumulate a ridge problem over row-major n × d features and several targets. Zero features are
 * skipped (hashing vectors are sparse), the Gram matrix is XᵀX − n·μμᵀ; fixed summation order.
 */
export function ridgeProblem(x: Float64Array, n: number, d: number, targets: readonly ArrayLike<number>[]): RidgeProblem {
  if (x.length !== n * d) throw new RangeError(`ridgeProblem: x has ${x.length} values, expected n·d = ${n}·${d}`);
  if (n < 1) throw new RangeError("ridgeProblem: no training rows");
  const mu = new Float64Array(d);
  const gram = new Float64Array(d * d);
  const nz = new Int32Array(d);
  for (let i = 0; i < n; i++) {
    let m = 0;
    for (let j = 0; j < d; j++) {
      const v = x[i * d + j]!;
      if (v !== 0) {
        nz[m++] = j;
        mu[j]! += v;
      }
    }
    for (let p = 0; p < m; p++) {
      const a = nz[p]!;
      const va = x[i * d + a]!;
      for (let q = p; q < m; q++) {
        const b = nz[q]!;
        gram[a * d + b]! += va * x[i * d + b]!;
      }
    }
  }
  for (let j = 0; j < d; j++) mu[j] = mu[j]! / n;
  for (let a = 0; a < d; a++) {
    for (let b = a; b < d; b++) {
      const g = gram[a * d + b]! - n * mu[a]! * mu[b]!;
      gram[a * d + b] = g;
      gram[b * d + a] = g;
    }
  }
  const yMean: number[] = [];
  const xty = targets.map((y, t) => {
    if (y.length !== n) throw new RangeError(`ridgeProblem: target ${t} has ${y.length} values, expected ${n}`);
    let ym = 0;
    for (let i = 0; i < n; i++) ym += y[i]!;
    ym /= n;
    yMean.push(ym);
    const r = new Float64Array(d);
    for (let i = 0; i < n; i++) {
      const yi = y[i]! - ym;
      for (let j = 0; j < d; j++) {
        const v = x[i * d + j]!;
        if (v !== 0) r[j]! += v * yi;
      }
    }
    // Σ (x − μ)(y − ȳ) = Σ x (y − ȳ), since Σ (y − ȳ) = 0 up to rounding; keep the exact centred form:
    let sy = 0;
    for (let i = 0; i < n; i++) sy += y[i]! - ym;
    for (let j = 0; j < d; j++) r[j] = r[j]! - mu[j]! * sy;
    return r;
  });
  return { n, d, gram, xty, mu, yMean };
}

/** Solve a ridge problem for one λ ≥ 0: w = (G + λI)⁻¹ Xᵀy per target, intercept ȳ − w·μ (unpenalised). */
export function solveRidge(p: RidgeProblem, lambda: number): LinearModel[] {
  if (!(lambda >= 0)) throw new RangeError(`solveRidge: λ must be ≥ 0, got ${lambda}`);
  const { d } = p;
  const g = Float64Array.from(p.gram);
  for (let a = 0; a < d; a++) g[a * d + a]! += lambda;
  const L = cholesky(g, d);
  return p.xty.map((rhs, t) => {
    const w = choleskySolve(L, d, rhs);
    let b = p.yMean[t]!;
    for (let j = 0; j < d; j++) b -= w[j]! * p.mu[j]!;
    return { intercept: b, weights: w };
  });
}

/** Fit ridge regressions of several targets on the same features (closed form; see ridgeProblem, solveRidge). */
export function fitRidge(x: Float64Array, n: number, d: number, targets: readonly ArrayLike<number>[], lambda: number): LinearModel[] {
  return solveRidge(ridgeProblem(x, n, d, targets), lambda);
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
