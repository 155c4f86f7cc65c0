// `rejudge` rebuilds a saved run's targets from the samples its .json keeps.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { rejudge } from '../src/rejudge.mjs';

const saved = (stamp) =>
  JSON.parse(readFileSync(new URL(`../results/${stamp}.json`, import.meta.url), 'utf8'));

describe('rejudge', () => {
  it("gives a saved run's own ratios and intervals back from its samples", () => {
    // The 22:03 run was judged with the overlap rule; its methods agreed on all ten targets under
    // both rules, so its summary line is the same, digit for digit.
    const run = saved('2026-11-26T22-03-32Z');
    const again = rejudge(run);
    expect(again.summary).toBe(run.summary);
    expect(again.scenarios.map((s) => s.name)).toEqual(['info', 'movies', 'items', 'notfound', 'invalid']);
    for (const [name, t] of Object.entries(run.targets))
      for (const kind of ['rps', 'cpu'])
        for (const [m, r] of Object.entries(t[kind].methods))
          expect(again.targets[name][kind].methods[m].interval).toEqual(r.interval);
    expect(again.agreement).toMatchObject({ checks: 24 });
    expect(again.markdown).toContain('| invalid | CPU ×raw ≤ 1.20 |');
  });

  it('judges an older run by the current rules: the 19:55 422 agrees within its spread', () => {
    const run = saved('2026-11-26T19-55-35Z');
    expect(run.targets.invalid.rps.agree).toBe(false); // the overlap rule
    const again = rejudge(run);
    expect(again.targets.invalid.rps).toMatchObject({ agree: true, verdict: 'met' });
    expect(again.agreement.leans.every((l) => !l.apart)).toBe(true);
  });
});
