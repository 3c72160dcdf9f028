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
  const { mu, gram } = gramOf(x, n, d);
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

/**
 * Σᵢ xᵢ (into mu, not yet divided by n) and the upper triangle of XᵀX, each entry summed over i in ascending order
 * with a rounded multiply and add. Dense features (neural embeddings) take a column-major path that sums four
 * entries at once from contiguous columns; sparse ones (hashing) visit only each row's non-zero pairs. Both give
 * the same bits: a skipped term is a ±0 product, and adding ±0 leaves every partial sum as it is (a sum that
 * starts at +0 never becomes −0).
 * @internal exported for tests only: test/ridge.test.ts compares the two paths bit for bit.
 */
export function gramOf(
  x: Float64Array,
  n: number,
  d: number,
  path: "auto" | "dense" | "sparse" = "auto",
): { mu: Float64Array; gram: Float64Array } {
  let nonZero = 0;
  for (let k = 0; k < n * d; k++) if (x[k] !== 0) nonZero++;
  const dense = path === "dense" || (path === "auto" && nonZero > 0.5 * n * d);
  return dense ? gramDense(x, n, d) : gramSparse(x, n, d);
}

function gramSparse(x: Float64Array, n: number, d: number): { mu: Float64Array; gram: Float64Array } {
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
  return { mu, gram };
}

function gramDense(x: Float64Array, n: number, d: number): { mu: Float64Array; gram: Float64Array } {
  const mu = new Float64Array(d);
  const gram = new Float64Array(d * d);
  // column-major copy: column j of X is cols[j·n … j·n + n − 1]
  const cols = new Float64Array(n * d);
  for (let i = 0; i < n; i++) for (let j = 0; j < d; j++) cols[j * n + i] = x[i * d + j]!;
  for (let j = 0; j < d; j++) {
    let s = 0;
    for (let i = 0, c = j * n; i < n; i++) s += cols[c + i]!;
    mu[j] = s;
  }
  // Rows a and a + 1 of the upper triangle together: each loaded column b feeds both rows' sums (8 sums at once).
  // Every entry is still its own sum over i in ascending order, so the bits are those of one sum per entry.
  for (let a = 0; a < d; a += 2) {
    const ca = a * n;
    gram[a * d + a] = columnDot(cols, ca, ca, n);
    if (a + 1 === d) break;
    const a1 = a + 1;
    const cb1 = a1 * n;
    let b = a1;
    for (; b + 3 < d; b += 4) {
      const c0 = b * n;
      const c1 = c0 + n;
      const c2 = c1 + n;
      const c3 = c2 + n;
      let s0 = 0;
      let s1 = 0;
      let s2 = 0;
      let s3 = 0;
      let t0 = 0;
      let t1 = 0;
      let t2 = 0;
      let t3 = 0;
      for (let i = 0; i < n; i++) {
        const va = cols[ca + i]!;
        const vb = cols[cb1 + i]!;
        const x0 = cols[c0 + i]!;
        const x1 = cols[c1 + i]!;
        const x2 = cols[c2 + i]!;
        const x3 = cols[c3 + i]!;
        s0 += va * x0;
        s1 += va * x1;
        s2 += va * x2;
        s3 += va * x3;
        t0 += vb * x0;
        t1 += vb * x1;
        t2 += vb * x2;
        t3 += vb * x3;
      }
      gram[a * d + b] = s0;
      gram[a * d + b + 1] = s1;
      gram[a * d + b + 2] = s2;
      gram[a * d + b + 3] = s3;
      gram[a1 * d + b] = t0;
      gram[a1 * d + b + 1] = t1;
      gram[a1 * d + b + 2] = t2;
      gram[a1 * d + b + 3] = t3;
    }
    for (; b < d; b++) {
      const cb = b * n;
      gram[a * d + b] = columnDot(cols, ca, cb, n);
      gram[a1 * d + b] = columnDot(cols, cb1, cb, n);
    }
  }
  return { mu, gram };
}

/** Σᵢ cols[p + i]·cols[q + i] over i = 0 … n − 1 in ascending order. */
function columnDot(cols: Float64Array, p: number, q: number, n: number): number {
  let s = 0;
  for (let i = 0; i < n; i++) s += cols[p + i]! * cols[q + i]!;
  return s;
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
