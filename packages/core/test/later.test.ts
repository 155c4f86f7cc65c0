import { describe, expect, it } from 'vitest';
import { Later } from '../src/binding/body';

describe('Later (core body reads without a promise)', () => {
  it('calls every waiter once, in order, from the settling call', () => {
    const later = new Later<number>();
    const seen: string[] = [];
    later.onSettled((ok, v) => seen.push(`a ${ok} ${v}`));
    later.onSettled((ok, v) => seen.push(`b ${ok} ${v}`));
    later.onSettled((ok, v) => seen.push(`c ${ok} ${v}`));
    expect(seen).toEqual([]);
    later.resolve(7);
    expect(seen).toEqual(['a true 7', 'b true 7', 'c true 7']);
    later.resolve(8);
    later.fail(new Error('late'));
    expect(seen).toHaveLength(3);
  });

  it('calls a waiter added after settling at once', () => {
    const later = Later.failed<number>('nope');
    let got: unknown[] = [];
    later.onSettled((ok, v) => (got = [ok, v]));
    expect(got).toEqual([false, 'nope']);
  });

  it('map: maps a value, passes a failure through, and fails when the map throws', () => {
    const source = new Later<number>();
    const doubled = source.map((n) => n * 2);
    const thrown = source.map(() => {
      throw new RangeError('bad');
    });
    const results: unknown[] = [];
    doubled.onSettled((ok, v) => results.push([ok, v]));
    thrown.onSettled((ok, v) => results.push([ok, (v as Error).message]));
    source.resolve(21);
    expect(results).toEqual([
      [true, 42],
      [false, 'bad'],
    ]);
    const failed = Later.failed<number>('x').map((n) => n + 1);
    failed.onSettled((ok, v) => results.push([ok, v]));
    expect(results[2]).toEqual([false, 'x']);
  });

  it('map: fails without a throw when the map fails `into`, and its return value is ignored', () => {
    const source = new Later<number>();
    let given: unknown;
    const refused = source.map((n, into) => {
      given = into;
      if (n < 0) into.fail(new RangeError(`negative: ${n}`));
      return n;
    });
    expect(given).toBeUndefined();
    const results: unknown[] = [];
    refused.onSettled((ok, v) => results.push([ok, v instanceof RangeError ? v.message : v]));
    source.resolve(-3);
    expect(given).toBe(refused);
    expect(results).toEqual([[false, 'negative: -3']]);
    // A waiter added afterwards sees the same failure; a second settle changes nothing.
    refused.resolve(5);
    refused.onSettled((ok, v) => results.push([ok, (v as Error).message]));
    expect(results[1]).toEqual([false, 'negative: -3']);
    // Mapped from an already-settled source: fails at once, before any waiter.
    const early = Later.failed<number>('unused').map((n) => n);
    const late = new Later<number>();
    late.resolve(-1);
    const now = late.map((n, into) => (into.fail('refused'), n));
    now.onSettled((ok, v) => results.push([ok, v]));
    early.onSettled((ok, v) => results.push([ok, v]));
    expect(results.slice(2)).toEqual([
      [false, 'refused'],
      [false, 'unused'],
    ]);
  });
});

describe('Later waiters without closures', () => {
  it('calls a waiter object, in order with callbacks, and a mapped Later is one of them', () => {
    const later = new Later<number>();
    const seen: string[] = [];
    later.onSettled({ settled: (ok, v) => seen.push(`object ${ok} ${v}`) });
    later.onSettled((ok, v) => seen.push(`callback ${ok} ${v}`));
    later.map((n) => n + 1).onSettled({ settled: (ok, v) => seen.push(`mapped ${ok} ${v}`) });
    later.resolve(1);
    expect(seen).toEqual(['object true 1', 'callback true 1', 'mapped true 2']);
    const settled = Later.failed<number>('no');
    settled.onSettled({ settled: (ok, v) => seen.push(`late ${ok} ${v}`) });
    expect(seen[3]).toBe('late false no');
  });
});
