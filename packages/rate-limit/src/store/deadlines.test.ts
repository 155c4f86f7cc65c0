import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Deadlines } from './deadlines';

const timedOut = (): Error => new Error('late');

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('Deadlines', () => {
  it('ticks every quarter of the timeout, and a call waits ticks × period (between timeout and timeout + period)', () => {
    const d = new Deadlines({ timeoutMs: 250, timedOut });
    expect([d.period, d.ticks]).toEqual([63, 5]);
    expect((d.ticks - 1) * d.period).toBeGreaterThanOrEqual(250);
    const one = new Deadlines({ timeoutMs: 1, timedOut });
    expect([one.period, one.ticks]).toEqual([1, 2]);
    const odd = new Deadlines({ timeoutMs: 10, timedOut });
    expect([odd.period, odd.ticks, (odd.ticks - 1) * odd.period >= 10]).toEqual([3, 5, true]);
  });

  it('fails a call not settled in time: not before timeoutMs, by timeoutMs + one period', () => {
    const d = new Deadlines({ timeoutMs: 100, timedOut });
    const fail = vi.fn();
    d.add(fail);
    vi.advanceTimersByTime(99);
    expect(fail).not.toHaveBeenCalled();
    vi.advanceTimersByTime(100 + d.period - 99);
    expect(fail).toHaveBeenCalledTimes(1);
    expect(fail.mock.calls[0]![0]).toEqual(new Error('late'));
    expect(d.pending).toBe(0);
  });

  it('never fails a settled call, whatever the order calls settle in', () => {
    const d = new Deadlines({ timeoutMs: 100, timedOut });
    const fails = [vi.fn(), vi.fn(), vi.fn()];
    const calls = fails.map((f) => d.add(f));
    d.settle(calls[1]!);
    expect(d.pending).toBe(2);
    d.settle(calls[0]!);
    expect(d.pending).toBe(1);
    vi.advanceTimersByTime(200);
    expect(fails.map((f) => f.mock.calls.length)).toEqual([0, 0, 1]);
  });

  it('runs one timer for every call in flight, and none while nothing waits', () => {
    const d = new Deadlines({ timeoutMs: 100, timedOut });
    expect(vi.getTimerCount()).toBe(0);
    const calls = Array.from({ length: 100 }, () => d.add(() => undefined));
    expect(vi.getTimerCount()).toBe(1);
    for (const c of calls) d.settle(c);
    // The sweep stops at its next tick once nothing waits.
    vi.advanceTimersByTime(d.period);
    expect(vi.getTimerCount()).toBe(0);
    // A later call starts it again, and its wait counts from then.
    const fail = vi.fn();
    d.add(fail);
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(99);
    expect(fail).not.toHaveBeenCalled();
    vi.advanceTimersByTime(d.period + 1);
    expect(fail).toHaveBeenCalledTimes(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('fails calls added at different times each at its own deadline', () => {
    const d = new Deadlines({ timeoutMs: 100, timedOut });
    const first = vi.fn();
    const second = vi.fn();
    d.add(first);
    vi.advanceTimersByTime(60);
    d.add(second);
    vi.advanceTimersByTime(40 + d.period); // 125 ms: the first is due, the second has waited 65
    expect([first.mock.calls.length, second.mock.calls.length]).toEqual([1, 0]);
    vi.advanceTimersByTime(34); // the second has waited 99 ms
    expect(second).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1 + d.period);
    expect(second).toHaveBeenCalledTimes(1);
  });
});
