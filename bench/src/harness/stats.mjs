// Order statistics for the reports.

/** The median of `xs` (the mean of the middle two for an even count); NaN when empty. */
export const median = (xs) => {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** The first and third quartiles of `xs` (linear interpolation); NaNs when empty. */
export function quartiles(xs) {
  if (xs.length === 0) return [NaN, NaN];
  const s = [...xs].sort((a, b) => a - b);
  const at = (q) => {
    const i = (s.length - 1) * q;
    const lo = Math.floor(i);
    return s[lo] + (s[Math.min(lo + 1, s.length - 1)] - s[lo]) * (i - lo);
  };
  return [at(0.25), at(0.75)];
}

/** P(X ≤ k) for X ~ Binomial(n, 1/2). */
function halfBinomialCdf(n, k) {
  let term = 2 ** -n; // P(X = 0)
  let sum = 0;
  for (let i = 0; i <= k; i++) {
    sum += term;
    term = (term * (n - i)) / (i + 1);
  }
  return sum;
}

/**
 * A distribution-free confidence interval of the median of `xs`: the order statistics
 * `[x(k), x(n+1-k)]` with the largest `k` whose coverage (1 − 2·P(Bin(n, ½) < k)) is still at
 * least `level`; `[min, max]` when even that falls short (n < 5 at 0.90), with its own coverage.
 * Unlike the quartiles, it says where the median is, not where one round's ratio falls, so two
 * methods whose intervals do not overlap disagree about the value itself.
 *
 * @returns `{ lo, hi, coverage, n }` (NaNs when `xs` is empty)
 */
export function medianInterval(xs, level = 0.9) {
  const n = xs.length;
  if (n === 0) return { lo: NaN, hi: NaN, coverage: NaN, n };
  const s = [...xs].sort((a, b) => a - b);
  const coverage = (k) => 1 - 2 * halfBinomialCdf(n, k - 1);
  let k = 1;
  while (k + 1 <= (n + 1) / 2 && coverage(k + 1) >= level) k++;
  return { lo: s[k - 1], hi: s[n - k], coverage: coverage(k), n };
}

// Two-sided 90% quantiles of Student's t by degrees of freedom (t₀.₉₅,ν); 1.645 (the normal's) past 30.
// prettier-ignore
const T90 = [NaN, 6.314, 2.92, 2.353, 2.132, 2.015, 1.943, 1.895, 1.86, 1.833, 1.812, 1.796, 1.782, 1.771,
  1.761, 1.753, 1.746, 1.74, 1.734, 1.729, 1.725, 1.721, 1.717, 1.714, 1.711, 1.708, 1.706, 1.703, 1.701,
  1.699, 1.697];

/** The 90% t-interval of the mean of `xs` (at least two values): `mean ± t₀.₉₅,ₙ₋₁ · sd / √n`. */
export function meanInterval(xs) {
  const n = xs.length;
  const mean = xs.reduce((a, b) => a + b, 0) / n;
  const sd = Math.sqrt(xs.reduce((a, x) => a + (x - mean) ** 2, 0) / (n - 1));
  const half = ((T90[n - 1] ?? 1.645) * sd) / Math.sqrt(n);
  return { lo: mean - half, hi: mean + half, mean };
}

/**
 * The 90% interval for values measured in independent blocks (each block a fresh set of
 * processes at another minute). Values within a block share its processes and its minute, so they
 * share that block's offset (two processes of the same code differ a little for as long as they
 * live: ~0.015 sd on `POST /movies` here, beside 0.046 sd of one round's own noise, over 18 paired
 * blocks); an interval from the values alone is narrower than what a rerun reproduces. So the
 * blocks count as the samples: the interval is the 90% t-interval of the mean of the blocks' own
 * medians (`meanInterval`), or the values' `medianInterval` where that is wider. It narrows as
 * blocks are added, as a confidence interval should (taking in every block's median instead, the
 * rule before 2026-11-26, only widened with every block, and with 3 blocks covered 75%, not 90%).
 * Under 2 blocks, the values' interval alone (the verdicts call one block too few).
 *
 * @param xs the values
 * @param blocks each value's block (same length as `xs`)
 * @returns `medianInterval`'s `{ lo, hi, coverage, n }` plus `blocks` (how many blocks)
 */
export function blockedInterval(xs, blocks) {
  const ci = medianInterval(xs);
  const byBlock = new Map();
  xs.forEach((x, i) => byBlock.set(blocks[i], [...(byBlock.get(blocks[i]) ?? []), x]));
  const mids = [...byBlock.values()].map(median);
  if (mids.length < 2) return { ...ci, blocks: mids.length };
  const across = meanInterval(mids);
  return { ...ci, lo: Math.min(ci.lo, across.lo), hi: Math.max(ci.hi, across.hi), blocks: mids.length };
}

// prettier-ignore
const ACKLAM = {
  a: [-39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716, 2.506628277459239],
  b: [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572],
  c: [-0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783],
  d: [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416],
};
const poly = (cs, x) => cs.reduce((acc, c) => acc * x + c, 0);

/**
 * The standard normal's quantile: the `z` with P(Z ≤ z) = `p` (Acklam's rational approximation,
 * relative error under 1.2e-9). `normalQuantile(0.95)` is 1.645, the half-width of a 90% interval
 * in standard errors.
 */
export function normalQuantile(p) {
  if (!(p > 0 && p < 1)) return p === 0 ? -Infinity : p === 1 ? Infinity : NaN;
  const { a, b, c, d } = ACKLAM;
  if (p < 0.02425 || p > 0.97575) {
    const q = Math.sqrt(-2 * Math.log(Math.min(p, 1 - p)));
    const z = poly(c, q) / (poly(d, q) * q + 1);
    return p < 0.5 ? z : -z;
  }
  const q = p - 0.5;
  const r = q * q;
  return (poly(a, r) * q) / (poly(b, r) * r + 1);
}
