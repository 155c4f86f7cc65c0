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
