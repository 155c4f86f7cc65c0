// GCRA (the generic cell rate algorithm) on integer microseconds: one number per bucket, its
// theoretical arrival time (TAT). A policy of `limit` units per `window` emits one unit every
// `interval = floor(window / limit)` and tolerates a burst of `limit` units (`tolerance =
// limit × interval`), so a full bucket admits exactly `limit` units at once and refills one unit
// every `interval`. The same arithmetic runs in the memory store and in the Redis script.

/** A policy's GCRA parameters, in microseconds. */
export interface Rate {
  /** The policy's quota (units per window). */
  readonly limit: number;
  /** Microseconds per unit: `floor(window / limit)`. */
  readonly interval: number;
  /** The burst: `limit × interval` (≤ the window). */
  readonly tolerance: number;
}

/** The GCRA parameters of `limit` units per `windowSeconds`. */
export function rateOf(limit: number, windowSeconds: number): Rate {
  const interval = Math.floor((windowSeconds * 1_000_000) / limit);
  return { limit, interval, tolerance: limit * interval };
}

/**
 * Whether `cost` units fit a bucket whose TAT is `tat` (0 for a new bucket) at `now`, and the
 * bucket's TAT afterwards (unchanged when they do not fit). Integer microseconds throughout.
 */
export function admits(rate: Rate, tat: number, now: number, cost: number): boolean {
  const from = tat > now ? tat : now;
  return from + cost * rate.interval - now <= rate.tolerance;
}

/** The TAT after taking `cost` units (call only when `admits`). */
export function taken(rate: Rate, tat: number, now: number, cost: number): number {
  return (tat > now ? tat : now) + cost * rate.interval;
}

/** What a bucket tells the client: remaining units, and seconds until one more is available. */
export interface Standing {
  /** Units that would be admitted now (the draft's `r`). */
  readonly remaining: number;
  /** Whole seconds until one more unit is available; 0 when the bucket is full (the draft's `t`). */
  readonly reset: number;
}

/** The standing of a bucket with TAT `tat` at `now`. */
export function standing(rate: Rate, tat: number, now: number): Standing {
  const used = tat > now ? tat - now : 0;
  const remaining = Math.floor((rate.tolerance - used) / rate.interval);
  if (remaining >= rate.limit) return { remaining: rate.limit, reset: 0 };
  const clamped = remaining < 0 ? 0 : remaining;
  // One more unit once `used` has shrunk to (limit - clamped - 1) intervals of the tolerance.
  const next = used - (rate.tolerance - (clamped + 1) * rate.interval);
  return { remaining: clamped, reset: next <= 0 ? 0 : Math.ceil(next / 1_000_000) };
}

/** Whole seconds (at least 1) until `cost` units would be admitted by a bucket with TAT `tat`. */
export function retryAfter(rate: Rate, tat: number, now: number, cost: number): number {
  const wait = (tat > now ? tat : now) + cost * rate.interval - rate.tolerance - now;
  return wait <= 0 ? 1 : Math.max(1, Math.ceil(wait / 1_000_000));
}
