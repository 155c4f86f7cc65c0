/**
 * The known name closest to a mistyped one (case-insensitive edit distance), for a "did you mean"
 * in a wiring message; `undefined` when none is close enough to be a likely typo.
 *
 * @param word - What was written, e.g. `'maxAg'`.
 * @param names - The names that exist.
 * @example
 * closestName('alowOrigins', ['allowOrigins', 'maxAge']); // 'allowOrigins'
 */
export function closestName(word: string, names: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(word.length / 3)) + 1;
  for (const name of names) {
    const d = distance(word.toLowerCase(), name.toLowerCase());
    if (d < bestDistance) {
      best = name;
      bestDistance = d;
    }
  }
  return best;
}

/** Levenshtein distance (option and operation names: short words only). */
function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++)
      row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[b.length]!;
}
