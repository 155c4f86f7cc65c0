// Whether the store answers, and what the app chose for when it does not: each transition (down,
// up again) is logged once and counted; requests decided while it is down are counted by outcome.
import type { Logger } from '@api/core/extension';

/** What `onStoreDown` chose: let limited requests through, or refuse them with 503. */
export type StoreDownMode = 'allow' | 'refuse';

/** Counters of one app's rate limiting (`limiter.stats()`). */
export interface RateLimitStats {
  /** Requests a policy counted and admitted. */
  readonly allowed: number;
  /** Requests refused with 429. */
  readonly limited: number;
  /** Requests let through unlimited while the store was down (`onStoreDown: 'allow'`). */
  readonly failedOpen: number;
  /** Requests refused with 503 while the store was down (`onStoreDown: 'refuse'`). */
  readonly failedClosed: number;
  /** Times the store went down (each logged once, as a warning). */
  readonly outages: number;
  /** Times it answered again after an outage (each logged once). */
  readonly recoveries: number;
  /** True while the store is down (since its last failure, until its next answer). */
  readonly storeDown: boolean;
}

/** The store's health for one app. */
export class StoreHealth {
  allowed = 0;
  limited = 0;
  failedOpen = 0;
  failedClosed = 0;
  outages = 0;
  recoveries = 0;
  down = false;

  constructor(
    private readonly kind: string,
    private readonly mode: StoreDownMode,
    private readonly log: Logger,
  ) {}

  /** The store answered: ends an outage (logged once). */
  answered(): void {
    if (!this.down) return;
    this.down = false;
    this.recoveries++;
    this.log.info(`rate limit: the ${this.kind} store answers again; limits apply`, {
      outages: this.outages,
      failedOpen: this.failedOpen,
      failedClosed: this.failedClosed,
    });
  }

  /** The store failed: starts an outage (logged once) and counts the request; returns the mode. */
  failed(error: unknown): StoreDownMode {
    if (!this.down) {
      this.down = true;
      this.outages++;
      this.log.warn(
        `rate limit: the ${this.kind} store is unavailable; ${
          this.mode === 'allow'
            ? 'limited routes let requests through unlimited'
            : 'limited routes answer 503'
        } until it answers again`,
        error,
      );
    }
    if (this.mode === 'allow') this.failedOpen++;
    else this.failedClosed++;
    return this.mode;
  }

  stats(): RateLimitStats {
    return {
      allowed: this.allowed,
      limited: this.limited,
      failedOpen: this.failedOpen,
      failedClosed: this.failedClosed,
      outages: this.outages,
      recoveries: this.recoveries,
      storeDown: this.down,
    };
  }
}
