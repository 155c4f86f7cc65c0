// The memory store: one process's buckets in a Map (key → TAT), answered synchronously.
import { performance } from 'node:perf_hooks';
import { admits, taken } from '../gcra/gcra';
import type { Bucket, RateLimitStore, Taken } from './store';

/** Options of `memoryStore`. */
export interface MemoryStoreOptions {
  /**
   * At most this many keys are held; past it, expired buckets are swept and then the longest-held
   * keys are dropped (their clients start again with a full bucket). [100 000]
   */
  readonly maxKeys?: number;
  /** The clock in milliseconds (monotonic). For tests. [`performance.now`] */
  readonly clock?: () => number;
}

const SWEEP_EVERY = 4096;

/**
 * Buckets in this process's memory: exact for one process (every request is decided
 * synchronously, so concurrent requests cannot both take the last unit), nothing shared with
 * other processes — behind a load balancer use `redisStore`. A full bucket is the same as no
 * bucket, so expired entries are swept every few thousand requests.
 *
 * @param options - `maxKeys` (100 000), `clock` (for tests)
 * @example
 * this.include(rateLimit({ store: memoryStore(), policy: new RateLimit({ name: 'api', limit: 100, window: 60 }) }));
 */
export function memoryStore(options: MemoryStoreOptions = {}): RateLimitStore {
  const maxKeys = options.maxKeys ?? 100_000;
  if (!Number.isInteger(maxKeys) || maxKeys < 1)
    throw new TypeError(`memoryStore: maxKeys must be a whole number ≥ 1, got ${String(maxKeys)}`);
  const clock = options.clock ?? (() => performance.now());
  const tats = new Map<string, number>();
  let untilSweep = SWEEP_EVERY;

  const sweep = (now: number): void => {
    for (const [key, tat] of tats) if (tat <= now) tats.delete(key);
    // Still over: drop the longest-held keys (Map order is insertion order).
    if (tats.size >= maxKeys) {
      let excess = tats.size - maxKeys + 1;
      for (const key of tats.keys()) {
        if (excess-- <= 0) break;
        tats.delete(key);
      }
    }
  };

  return {
    kind: 'memory',
    mayFail: false,
    take(buckets: readonly Bucket[]): Taken {
      const now = Math.floor(clock() * 1000);
      if (--untilSweep <= 0 || tats.size >= maxKeys) {
        untilSweep = SWEEP_EVERY;
        sweep(now);
      }
      if (buckets.length === 1) {
        // The common case: one policy on the route, no arrays beyond the answer.
        const b = buckets[0]!;
        const tat = tats.get(b.key) ?? 0;
        if (!admits(b.rate, tat, now, b.cost)) return { allowed: false, now, tats: [tat] };
        const after = taken(b.rate, tat, now, b.cost);
        tats.set(b.key, after);
        return { allowed: true, now, tats: [after] };
      }
      const before = buckets.map((b) => tats.get(b.key) ?? 0);
      for (let i = 0; i < buckets.length; i++) {
        const b = buckets[i]!;
        if (!admits(b.rate, before[i]!, now, b.cost)) return { allowed: false, now, tats: before };
      }
      const after = buckets.map((b, i) => taken(b.rate, before[i]!, now, b.cost));
      buckets.forEach((b, i) => tats.set(b.key, after[i]!));
      return { allowed: true, now, tats: after };
    },
  };
}
