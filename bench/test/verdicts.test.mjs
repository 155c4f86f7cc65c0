// The statistics the bench's verdicts rest on: the median's confidence interval, the verdict of one
// method, the agreement of several, and the summary line `pnpm bench` and `--quick` both print.
import { describe, expect, it } from 'vitest';
import { blockedInterval, medianInterval } from '../src/harness/stats.mjs';
import { intervalsAgree, judge, summaryLine, targetsOf, verdict } from '../src/verdicts.mjs';

/** A seeded generator (mulberry32), so the coverage check sees the same draws every run. */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

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
  it("widens the pooled interval to every block's median", () => {
    // Two sets of processes, each tight, 0.26 apart: 10 rounds of one, 3 of the other. The pooled
    // interval of 13 values (x(4)–x(10)) is 1.03–1.09, which the second set's median (1.31) is far from.
    const xs = [1.0, 1.01, 1.02, 1.03, 1.04, 1.05, 1.06, 1.07, 1.08, 1.09, 1.3, 1.31, 1.32];
    const blocks = xs.map((_, i) => (i < 10 ? 0 : 1));
    expect(medianInterval(xs)).toMatchObject({ lo: 1.03, hi: 1.09 });
    expect(blockedInterval(xs, blocks)).toMatchObject({ lo: 1.03, hi: 1.31, n: 13, blocks: 2 });
    // Blocks whose medians lie inside the pooled interval leave it as it is.
    const close = [1.0, 1.01, 1.02, 1.03, 1.04, 1.05, 1.06, 1.07];
    expect(blockedInterval(close, [0, 1, 0, 1, 0, 1, 0, 1])).toEqual({ ...medianInterval(close), blocks: 2 });
    const lopsided = blockedInterval(
      [1.0, 1.01, 1.02, 1.03, 1.04, 1.05, 1.06, 1.07, 0.8],
      [0, 0, 0, 0, 0, 0, 0, 0, 1],
    );
    expect(lopsided).toMatchObject({ lo: 0.8, hi: 1.06, blocks: 2 });
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
  it('needs one value inside every interval', () => {
    expect(
      intervalsAgree([
        [1, 2],
        [1.5, 3],
        [1.9, 2.5],
      ]),
    ).toBe(true);
    // pairwise overlapping is not enough: [1, 2] and [2.5, 3] share nothing
    expect(
      intervalsAgree([
        [1, 2],
        [1.5, 3],
        [2.5, 3],
      ]),
    ).toBe(false);
    expect(
      intervalsAgree([
        [1, 2],
        [NaN, NaN],
      ]),
    ).toBe(undefined);
  });

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
        { paired: row(1.12, [1.05, 1.2], 1.13, [1.1, 1.16]) },
        {
          'api/fastify': { rpsRatio: 1.15, rpsInterval: [1.14, 1.15] },
          'api/raw': { cpuRatio: 1.25, cpuInterval: [1.24, 1.26] },
        },
      ),
    };
    expect(summaryLine(targets, scenarios)).toBe(
      'bench: info api/fastify 1.36 (1.30–1.41) api/raw-cpu 1.03 (0.99–1.06) [paired; req/s target met, cpu target met; ' +
        'methods agree, methods agree]; movies api/fastify 1.12 (1.05–1.20) api/raw-cpu 1.13 (1.10–1.16) [paired; ' +
        'req/s target unsettled, cpu target unsettled; methods agree, methods disagree]',
    );
  });
});
