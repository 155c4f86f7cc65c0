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

/**
 * `medianInterval` for values measured in independent blocks (each block a fresh set of
 * processes at another minute): the interval of all values, widened to take in every block's own
 * median. Values within a block share its processes and its minute, so they can agree closely
 * with each other and still miss what another block measures (two processes of the same code
 * differ by a few percent for as long as they live, by up to ±10% on this VM); an interval that
 * ignored that would be narrower than what a rerun can reproduce.
 *
 * @param xs the values
 * @param blocks each value's block (same length as `xs`)
 * @returns `medianInterval`'s `{ lo, hi, coverage, n }` plus `blocks` (how many blocks)
 */
export function blockedInterval(xs, blocks, level = 0.9) {
  const ci = medianInterval(xs, level);
  const byBlock = new Map();
  xs.forEach((x, i) => byBlock.set(blocks[i], [...(byBlock.get(blocks[i]) ?? []), x]));
  const mids = [...byBlock.values()].map(median);
  if (mids.length < 2) return { ...ci, blocks: mids.length };
  return { ...ci, lo: Math.min(ci.lo, ...mids), hi: Math.max(ci.hi, ...mids), blocks: mids.length };
}
