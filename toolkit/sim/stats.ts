// The comparison's statistics: Student's t distribution (exact, through the regularized
// incomplete beta function), the paired t-test and the Benjamini–Hochberg adjustment.

/** ln Γ(x) for x > 0 (Lanczos, g = 7, nine terms: about 15 significant digits). */
const LANCZOS = [
  0.9999999999998099, 676.5203681218851, -1259.139216722403, 771.3234287776531, -176.6150291621406, 12.50734327868691,
  -0.1385710952657201, 9.984369578019572e-6, 1.505632735149312e-7,
];
export const logGamma = (x: number): number => {
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  const y = x - 1;
  const t = y + 7.5;
  let a = LANCZOS[0] as number;
  for (let i = 1; i < LANCZOS.length; i++) a += (LANCZOS[i] as number) / (y + i);
  return 0.5 * Math.log(2 * Math.PI) + (y + 0.5) * Math.log(t) - t + Math.log(a);
};

/** The continued fraction of the incomplete beta function (modified Lentz; Numerical Recipes' betacf). */
const betaFraction = (a: number, b: number, x: number): number => {
  const tiny = 1e-300;
  const clamp = (v: number) => (Math.abs(v) < tiny ? tiny : v);
  let c = 1;
  let d = 1 / clamp(1 - ((a + b) * x) / (a + 1));
  let h = d;
  for (let m = 1; m <= 500; m++) {
    const m2 = 2 * m;
    const even = (m * (b - m) * x) / ((a - 1 + m2) * (a + m2));
    d = 1 / clamp(1 + even * d);
    c = clamp(1 + even / c);
    h *= d * c;
    const odd = (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + 1 + m2));
    d = 1 / clamp(1 + odd * d);
    c = clamp(1 + odd / c);
    h *= d * c;
    if (Math.abs(d * c - 1) < 1e-15) break;
  }
  return h;
};

/** The regularized incomplete beta function I_x(a, b). */
export const incompleteBeta = (x: number, a: number, b: number): number => {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const front = Math.exp(logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log(1 - x));
  // The fraction converges fast on this side of the mean; the other side by symmetry.
  return x < (a + 1) / (a + b + 2) ? (front * betaFraction(a, b, x)) / a : 1 - (front * betaFraction(b, a, 1 - x)) / b;
};

/** P(|T| ≥ |t|) for Student's t with df degrees of freedom: I_{df/(df+t²)}(df/2, 1/2). */
export const tTwoSided = (t: number, df: number): number =>
  Number.isFinite(t) ? incompleteBeta(df / (df + t * t), df / 2, 0.5) : 0;

/** Student's t CDF, P(T ≤ t). */
export const tCdf = (t: number, df: number): number => (t >= 0 ? 1 - tTwoSided(t, df) / 2 : tTwoSided(t, df) / 2);

/** The t quantile for a probability p above one half (0.975: the two-sided 95% one), by bisection on the CDF. */
export const tQuantile = (p: number, df: number): number => {
  if (!(df >= 1) || !(p > 0.5 && p < 1)) return NaN;
  let lo = 0;
  let hi = 1;
  while (tCdf(hi, df) < p) hi *= 2;
  for (let i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
    const mid = (lo + hi) / 2;
    if (tCdf(mid, df) < p) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
};

/** The two-sided 95% t quantile for df degrees of freedom (12.706 for 1, 2.086 for 20, 1.960 as df grows). */
export const t975 = (df: number): number => tQuantile(0.975, df);

export interface PairedTest {
  /** Pairs (seeds). */
  readonly n: number;
  /** Mean of the differences b − a. */
  readonly diff: number;
  /** Its 95% interval; null with fewer than two pairs. */
  readonly low: number | null;
  readonly high: number | null;
  /** The two-sided p-value of "the mean difference is 0"; null with fewer than two pairs. */
  readonly p: number | null;
}

/**
 * The paired t-test of b against a (pair i: a[i], b[i]). Differences that are all
 * equal give no spread: p is 1 when they are all 0 (nothing moved) and 0 otherwise
 * (every pair moved by exactly the same amount, which no noise does).
 */
export const pairedTest = (a: ReadonlyArray<number>, b: ReadonlyArray<number>): PairedTest => {
  const d = a.map((x, i) => (b[i] ?? NaN) - x);
  const n = d.length;
  const diff = n === 0 ? 0 : d.reduce((x, y) => x + y, 0) / n;
  if (n < 2) return { n, diff, low: null, high: null, p: null };
  const se = Math.sqrt(d.reduce((s, x) => s + (x - diff) ** 2, 0) / (n - 1) / n);
  const half = t975(n - 1) * se;
  const p = se === 0 ? (diff === 0 ? 1 : 0) : tTwoSided(diff / se, n - 1);
  return { n, diff, low: diff - half, high: diff + half, p };
};

/**
 * Benjamini–Hochberg adjusted p-values (q-values): rejecting every q ≤ α keeps the
 * expected share of false discoveries among the rejections at most α (for independent
 * or positively dependent tests). Nulls (untested) stay null and do not count.
 */
export const benjaminiHochberg = (ps: ReadonlyArray<number | null>): Array<number | null> => {
  const tested = ps
    .map((p, i) => ({ p, i }))
    .filter((x): x is { p: number; i: number } => x.p !== null)
    .sort((x, y) => x.p - y.p || x.i - y.i);
  const m = tested.length;
  const q: Array<number | null> = ps.map(() => null);
  let running = 1;
  for (let k = m - 1; k >= 0; k--) {
    const { p, i } = tested[k] as { p: number; i: number };
    running = Math.min(running, (p * m) / (k + 1));
    q[i] = running;
  }
  return q;
};
