// What a rate-limit store does: take units from one request's buckets, all or nothing, atomically.
import type { Rate } from '../gcra/gcra';

/** One bucket a request takes from: its full key, its policy's rate, and the request's cost. */
export interface Bucket {
  readonly key: string;
  readonly rate: Rate;
  readonly cost: number;
}

/** A store's answer for one request's buckets. */
export interface Taken {
  /** True when every bucket had room (then each was charged); false when one had not (none was). */
  readonly allowed: boolean;
  /** The store's clock, integer microseconds (the Redis store: the server's, one for every process). */
  readonly now: number;
  /** Each bucket's TAT after the request (before it, when refused), in the order given. */
  readonly tats: readonly number[];
}

/**
 * Where buckets live. `take` must be atomic over all the buckets it is given (a request limited
 * by two policies is charged by both or by neither) and exact across every process sharing the
 * store. It may answer synchronously (the memory store: no promise per request).
 */
export interface RateLimitStore {
  /** `memory`, `redis`, …: named in logs. */
  readonly kind: string;
  /**
   * True when `take` can fail (a network store): the app must then choose `onStoreDown` at
   * wiring. False for a store that cannot (memory).
   */
  readonly mayFail: boolean;
  /** Charges `buckets` (all or nothing); throws or rejects when the store cannot answer. */
  take(buckets: readonly Bucket[]): Taken | Promise<Taken>;
  /** Called once when the app wires the store (an `error` listener on a client, a sweep timer). */
  open?(): void;
  /** Called when the app closes (the exit stack): release what the store owns. */
  close?(): void | Promise<void>;
}
