import { describe, expect, it } from 'vitest';
import { admits, rateOf, retryAfter, standing, taken } from './gcra';

const S = 1_000_000;

/** Takes `cost` from a bucket at `now`; returns the new TAT or undefined when refused. */
function take(rate: ReturnType<typeof rateOf>, tat: number, now: number, cost = 1): number | undefined {
  return admits(rate, tat, now, cost) ? taken(rate, tat, now, cost) : undefined;
}

describe('gcra', () => {
  it('admits exactly `limit` units at once from a full bucket, then one per interval', () => {
    const rate = rateOf(5, 60); // one unit every 12 s
    expect(rate).toEqual({ limit: 5, interval: 12 * S, tolerance: 60 * S });
    let tat = 0;
    const now = 1000 * S;
    for (let i = 0; i < 5; i++) tat = take(rate, tat, now) ?? Number.NaN;
    expect(tat).toBe(now + 60 * S);
    expect(take(rate, tat, now)).toBeUndefined();
    expect(take(rate, tat, now + 12 * S - 1)).toBeUndefined();
    expect(take(rate, tat, now + 12 * S)).toBe(now + 72 * S);
  });

  it('keeps limit × interval within the window when the window does not divide evenly', () => {
    const rate = rateOf(7, 60);
    expect(rate.interval).toBe(8_571_428);
    let tat = 0;
    let admitted = 0;
    for (let i = 0; i < 20; i++) {
      const next = take(rate, tat, 5 * S);
      if (next !== undefined) {
        tat = next;
        admitted++;
      }
    }
    expect(admitted).toBe(7);
  });

  it('reports remaining units and whole seconds until one more (the draft r and t)', () => {
    const rate = rateOf(5, 60);
    const now = 100 * S;
    expect(standing(rate, 0, now)).toEqual({ remaining: 5, reset: 0 });
    expect(standing(rate, now + 12 * S, now)).toEqual({ remaining: 4, reset: 12 });
    expect(standing(rate, now + 60 * S, now)).toEqual({ remaining: 0, reset: 12 });
    expect(standing(rate, now + 60 * S, now + 500_000)).toEqual({ remaining: 0, reset: 12 });
    expect(standing(rate, now + 60 * S, now + 11 * S + 1)).toEqual({ remaining: 0, reset: 1 });
    expect(standing(rate, now + 60 * S, now + 12 * S)).toEqual({ remaining: 1, reset: 12 });
  });

  it('says when a refused cost fits: retry-after in whole seconds, at least 1', () => {
    const rate = rateOf(5, 60);
    const now = 100 * S;
    const full = now + 60 * S;
    expect(retryAfter(rate, full, now, 1)).toBe(12);
    expect(retryAfter(rate, full, now + 11 * S + 1, 1)).toBe(1);
    expect(retryAfter(rate, full, now, 3)).toBe(36);
    expect(retryAfter(rate, full, now + 12 * S, 1)).toBe(1);
  });

  it('lets a cost of several units drain the bucket faster, and a cost of 0 through', () => {
    const rate = rateOf(10, 10);
    const now = 7 * S;
    const after = take(rate, 0, now, 4)!;
    expect(standing(rate, after, now).remaining).toBe(6);
    expect(take(rate, after, now, 7)).toBeUndefined();
    expect(take(rate, after, now, 0)).toBe(after);
  });
});
