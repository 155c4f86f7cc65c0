// The statistics the bench's verdicts rest on: the median's confidence interval, the verdict of one
// method, the agreement of several, and the summary line `pnpm bench` and `--quick` both print.
import { describe, expect, it } from 'vitest';
import { blockedInterval, medianInterval } from '../src/harness/stats.mjs';
import { judge, summaryLine, targetsOf, verdict } from '../src/verdicts.mjs';
import { normalFrom, rng } from './rng.mjs';

describe('medianInterval', () => {
  const ranks = (n) => Array.from({ length: n }, (_, i) => n - i); // unsorted on purpose

  it('takes the order statistics whose binomial coverage is at least 90%', () => {
    expect(medianInterval(ranks(12))).toEqual({ lo: 3, hi: 10, coverage: 1 - 2 * (79 / 4096), n: 12 });
    expect(medianInterval(ranks(10))).toEqual({ lo: 2, hi: 9, coverage: 1 - 2 * (11 / 1024), n: 10 });
    expect(medianInterval(ranks(8))).toEqual({ lo: 2, hi: 7, coverage: 1 - 2 * (9 / 256), n: 8 });
  });

  it('falls back to min–max below five values and says how little that covers', () => {
    expect(medianInterval(ranks(4))).toEqual({ lo: 1, hi: 4, coverage: 0.875, n: 4 });
    expect(medianInterval([7])).toEqual({ lo: 7, hi: 7, coverage: 0, n: 1 });
    const none = medianInterval([]);
    expect([none.lo, none.hi, none.n]).toEqual([NaN, NaN, 0]);
  });

  it('contains the true median at least 90% of the time (skewed draws, 12 per interval)', () => {
    const next = rng(27);
    const draw = () => -Math.log(1 - next()); // exponential: median ln 2
    let hits = 0;
    const trials = 4000;
    for (let t = 0; t < trials; t++) {
      const { lo, hi } = medianInterval(Array.from({ length: 12 }, draw));
      if (lo <= Math.LN2 && Math.LN2 <= hi) hits++;
    }
    expect(hits / trials).toBeGreaterThanOrEqual(0.93); // 0.961 in theory
    expect(hits / trials).toBeLessThanOrEqual(0.99);
  });
});

describe('blockedInterval', () => {
  /** `k` blocks of `rounds` values: a block effect (sd `between`) plus round noise (sd `within`). */
  const draws = (next, k, rounds, between, within) => {
    const normal = normalFrom(next);
    const xs = [];
    const blocks = [];
    for (let b = 0; b < k; b++) {
      const shift = between * normal();
      for (let r = 0; r < rounds; r++) {
        xs.push(1.15 + shift + within * normal());
        blocks.push(b);
      }
    }
    return { xs, blocks };
  };

  it('is the 90% t-interval of the block medians when the blocks disagree', () => {
    // Two sets of processes, each tight, 0.26 apart: 10 rounds of one, 3 of the other. The pooled
    // interval of 13 values (x(4)–x(10)) is 1.03–1.09, which the second set's median (1.31) is far from.
    const xs = [1.0, 1.01, 1.02, 1.03, 1.04, 1.05, 1.06, 1.07, 1.08, 1.09, 1.3, 1.31, 1.32];
    const blocks = xs.map((_, i) => (i < 10 ? 0 : 1));
    expect(medianInterval(xs)).toMatchObject({ lo: 1.03, hi: 1.09 });
    // Block medians 1.045 and 1.31: mean 1.1775 ± 6.314 · 0.1874 / √2 (t with one degree of freedom).
    const two = blockedInterval(xs, blocks);
    expect(two).toMatchObject({ n: 13, blocks: 2 });
    expect(two.lo).toBeCloseTo(0.341, 3);
    expect(two.hi).toBeCloseTo(2.014, 3);
  });

  it('keeps the pooled interval where it is the wider one', () => {
    const close = [1.0, 1.01, 1.02, 1.03, 1.04, 1.05, 1.06, 1.07];
    // Block medians 1.03 and 1.04: the t-interval 1.0034–1.0666 reaches past the pooled 1.01–1.06.
    const alternating = blockedInterval(close, [0, 1, 0, 1, 0, 1, 0, 1]);
    expect(alternating.lo).toBeCloseTo(1.0034, 4);
    expect(alternating.hi).toBeCloseTo(1.0666, 4);
    // Six blocks of identical medians: nothing to add to the pooled interval.
    const same = [1.0, 1.1, 1.0, 1.1, 1.0, 1.1, 1.0, 1.1, 1.0, 1.1, 1.0, 1.1];
    expect(blockedInterval(same, [0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5])).toEqual({
      ...medianInterval(same),
      blocks: 6,
    });
  });

  it('covers the mean about 90% of the time when blocks differ more than rounds (and narrows with blocks)', () => {
    const next = rng(2711);
    const trials = 3000;
    const run = (k) => {
      let hits = 0;
      let width = 0;
      let minMaxHits = 0;
      for (let t = 0; t < trials; t++) {
        const { xs, blocks } = draws(next, k, 2, 0.03, 0.005);
        const { lo, hi } = blockedInterval(xs, blocks);
        if (lo <= 1.15 && 1.15 <= hi) hits++;
        width += hi - lo;
        // The rule before: the pooled interval widened to every block's median.
        const mids = Array.from({ length: k }, (_, b) => (xs[2 * b] + xs[2 * b + 1]) / 2);
        const pooled = medianInterval(xs);
        if (Math.min(pooled.lo, ...mids) <= 1.15 && 1.15 <= Math.max(pooled.hi, ...mids)) minMaxHits++;
      }
      return { coverage: hits / trials, width: width / trials, minMax: minMaxHits / trials };
    };
    const three = run(3);
    const six = run(6);
    expect(three.coverage).toBeGreaterThanOrEqual(0.88);
    expect(six.coverage).toBeGreaterThanOrEqual(0.88);
    expect(six.coverage).toBeLessThanOrEqual(0.97);
    // The old rule fell short on three blocks (75% for the block medians alone; 80% with the pooled interval here).
    expect(three.minMax).toBeLessThan(0.85);
    // Twice the blocks, a much narrower interval (0.052 vs 0.090 here); the old rule could only widen.
    expect(six.width).toBeLessThan(three.width * 0.7);
  });

  it('is the pooled interval when there is one block', () => {
    const xs = [1.2, 1.0, 1.1, 1.3, 1.05, 1.15];
    expect(
      blockedInterval(
        xs,
        xs.map(() => 7),
      ),
    ).toEqual({ ...medianInterval(xs), blocks: 1 });
  });
});

describe('verdict', () => {
  it('is met or missed only when the whole interval is on one side of the target', () => {
    expect(verdict([1.1, 1.3], 1.1, true)).toBe('met');
    expect(verdict([1.09, 1.3], 1.1, true)).toBe('unsettled');
    expect(verdict([0.9, 1.09], 1.1, true)).toBe('missed');
    expect(verdict([1.0, 1.2], 1.2, false)).toBe('met');
    expect(verdict([1.15, 1.25], 1.2, false)).toBe('unsettled');
    expect(verdict([1.21, 1.3], 1.2, false)).toBe('missed');
    expect(verdict([NaN, NaN], 1.2, false)).toBe('n/a');
  });
});

describe('agreement', () => {
  it('reads the verdict from the paired method and withholds it when the methods disagree', () => {
    const agreeing = judge(
      {
        standalone: { value: 1.2, interval: [0.95, 1.45] },
        paired: { value: 1.3, interval: [1.2, 1.4] },
        corun: { value: 1.38, interval: [1.36, 1.4] },
      },
      1.1,
      true,
    );
    expect(agreeing).toMatchObject({ agree: true, reference: 'paired', verdict: 'met' });
    expect(agreeing.methods.standalone.verdict).toBe('unsettled');

    const apart = judge(
      { paired: { value: 1.3, interval: [1.2, 1.4] }, corun: { value: 1.05, interval: [1.0, 1.1] } },
      1.1,
      true,
    );
    expect(apart).toMatchObject({ agree: false, reference: 'paired', verdict: 'unsettled' });
    expect(apart.methods.paired.verdict).toBe('met');
  });

  it('will not settle a target on fewer than three ratios', () => {
    const t = judge({ paired: { value: 1.5, interval: [1.5, 1.5], n: 1 } }, 1.1, true);
    expect(t.verdict).toBe('unsettled');
    const three = judge({ paired: { value: 1.5, interval: [1.4, 1.6], n: 3 } }, 1.1, true);
    expect(three.verdict).toBe('met');
    // nor does it contradict a method that has enough
    const lone = judge(
      {
        standalone: { value: 0.9, interval: [0.9, 0.9], n: 1 },
        paired: { value: 1.5, interval: [1.4, 1.6], n: 12 },
      },
      1.1,
      true,
    );
    expect(lone).toMatchObject({ agree: undefined, verdict: 'met' });
  });

  it('will not settle a target on one block, nor let one block contradict two', () => {
    const one = judge({ paired: { value: 1.5, interval: [1.45, 1.55], n: 10, blocks: 1 } }, 1.1, true);
    expect(one.verdict).toBe('unsettled');
    const two = judge(
      {
        paired: { value: 1.5, interval: [1.4, 1.6], n: 10, blocks: 2 },
        corun: { value: 1.2, interval: [1.18, 1.22], n: 3, blocks: 1 },
      },
      1.1,
      true,
    );
    expect(two).toMatchObject({ agree: undefined, verdict: 'met' });
    expect(two.methods.corun.verdict).toBe('unsettled');
  });

  it("sets the co-run's CPU ratio aside: judged and shown, but it neither agrees nor disagrees", () => {
    const post = { name: 'movies', method: 'POST' };
    const paired = {
      rpsVsFastify: 1.14,
      rpsVsFastifyInterval: [1.12, 1.17],
      cpuVsRaw: 1.07,
      cpuVsRawInterval: [1.03, 1.09],
    };
    // The 14:40 run of 2026-11-26: co-run CPU 1.12 (1.09–1.18) beside paired 1.07 (1.03–1.09).
    const t = targetsOf(
      post,
      { paired },
      {
        'api/fastify': { rpsRatio: 1.17, rpsInterval: [1.11, 1.25], rounds: 6, blocks: 3 },
        'api/raw': { cpuRatio: 1.12, cpuInterval: [1.09, 1.18], rounds: 6, blocks: 3 },
      },
    );
    expect(t.cpu).toMatchObject({ agree: undefined, reference: 'paired', verdict: 'met' });
    expect(t.cpu.methods.corun).toMatchObject({ verdict: 'met', aside: true });
    // The req/s ratio is still a method: a co-run far from the paired interval withholds the verdict.
    expect(t.rps).toMatchObject({ agree: true, verdict: 'met' });
    const apart = targetsOf(
      post,
      { paired },
      { 'api/fastify': { rpsRatio: 1.3, rpsInterval: [1.25, 1.35], rounds: 6, blocks: 3 } },
    );
    expect(apart.rps).toMatchObject({ agree: false, verdict: 'unsettled' });
    // Nor can an aside method be the reference when it is the only one.
    const alone = judge({ corun: { value: 1.0, interval: [0.95, 1.05] } }, 1.1, false, { aside: ['corun'] });
    expect(alone).toMatchObject({ agree: undefined, reference: undefined, verdict: 'n/a' });
  });

  it('falls back to the standalone method when a run has no paired phase', () => {
    const t = judge({ standalone: { value: 1.0, interval: [0.9, 1.05] } }, 1.1, true);
    expect(t).toMatchObject({ agree: undefined, reference: 'standalone', verdict: 'missed' });
  });
});

describe('summaryLine', () => {
  const row = (rps, rpsI, cpu, cpuI) => ({
    rpsVsFastify: rps,
    rpsVsFastifyInterval: rpsI,
    cpuVsRaw: cpu,
    cpuVsRawInterval: cpuI,
  });
  const scenarios = [
    { name: 'info', method: 'GET' },
    { name: 'movies', method: 'POST' },
  ];

  it('gives each scenario the reference ratios, their intervals, the verdicts and the agreement', () => {
    const targets = {
      info: targetsOf(
        scenarios[0],
        { paired: row(1.36, [1.3, 1.41], 1.03, [0.99, 1.06]) },
        {
          'api/fastify': { rpsRatio: 1.39, rpsInterval: [1.37, 1.41] },
          'api/raw': { cpuRatio: 1.03, cpuInterval: [1.02, 1.05] },
        },
      ),
      movies: targetsOf(
        scenarios[1],
        {
          standalone: row(1.1, [0.95, 1.25], 1.3, [1.25, 1.35]),
          paired: row(1.12, [1.05, 1.2], 1.13, [1.1, 1.16]),
        },
        {
          'api/fastify': { rpsRatio: 1.15, rpsInterval: [1.14, 1.15] },
          'api/raw': { cpuRatio: 1.25, cpuInterval: [1.24, 1.26] },
        },
      ),
    };
    expect(summaryLine(targets, scenarios)).toBe(
      'bench: info api/fastify 1.36 (1.30–1.41) api/raw-cpu 1.03 (0.99–1.06) [paired; req/s target met, cpu target met; ' +
        'methods agree, one method]; movies api/fastify 1.12 (1.05–1.20) api/raw-cpu 1.13 (1.10–1.16) [paired; ' +
        'req/s target unsettled, cpu target unsettled; methods agree, methods disagree]',
    );
  });
});
