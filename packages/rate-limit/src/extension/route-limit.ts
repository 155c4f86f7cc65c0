// One route's limit at run time: the pre-handler step that charges the store and the header hook
// that reports the outcome. Everything a request does not need is decided at wiring.
import { ServiceUnavailableError, TooManyRequestsError } from '@api/core';
import type { Exchange, RequestHead } from '@api/core/extension';
import { retryAfter, standing, type Rate } from '../gcra/gcra';
import { limitItemOf } from '../headers/headers';
import type { RateLimit } from '../policy/policy';
import type { Bucket, RateLimitStore, Taken } from '../store/store';
import type { StoreHealth } from './store-health';

/** What the header hook reads (`ex.state[OUTCOME]`): `ratelimit`, and `retry-after` when refused. */
type Outcome = ReadonlyArray<readonly [string, string]>;

const OUTCOME = Symbol('@api/rate-limit.outcome');

/** The bucket key of one policy for one request (undefined: not counted by it). */
type Partition = (ex: Exchange, sources: Readonly<Record<string, unknown>> | undefined) => string | undefined;

/** What a route's step needs, decided at wiring. */
export interface RouteLimitParts {
  readonly policies: readonly RateLimit[];
  readonly store: RateLimitStore;
  readonly health: StoreHealth;
  /** A policy's bucket key by client address (`addressKey`, one cache per policy). */
  readonly addressKeyOf: (policy: RateLimit) => (req: RequestHead) => string;
}

/** The step and header hook of one route. */
export interface RouteLimit {
  readonly step: (ex: Exchange, sources?: Readonly<Record<string, unknown>>) => void | Promise<void>;
  readonly headers: (ex: Exchange) => Outcome | undefined;
}

/** Builds the bucket key function of `policy`: `<name>:a:<address>`, `<name>:u:<user>`, `<name>:k:<key>`. */
function partitionOf(policy: RateLimit, parts: RouteLimitParts): Partition {
  const prefix = `${policy.name}:`;
  const key = policy.key;
  if (key === 'address') {
    const byAddress = parts.addressKeyOf(policy);
    return (ex) => byAddress(ex.req);
  }
  if (typeof key === 'function')
    return (ex) => {
      const value = key(ex);
      return value === undefined ? undefined : `${prefix}k:${value}`;
    };
  const byAddress = parts.addressKeyOf(policy);
  const identify = key.user as (user: unknown) => string | number;
  return (ex, sources) => {
    const user = sources?.user;
    return user === null || user === undefined ? byAddress(ex.req) : `${prefix}u:${identify(user)}`;
  };
}

/** The header hook: what the step kept for this exchange. */
const outcomeOf = (ex: Exchange): Outcome | undefined => ex.state[OUTCOME] as Outcome | undefined;

/**
 * The step of a limited route: charges each policy's bucket for this request (all or nothing),
 * keeps the outcome for the header hook, and refuses with 429 when one has no room. While the
 * store is down it lets the request through or refuses it with 503, as the app chose.
 */
export function compileRouteLimit(parts: RouteLimitParts): RouteLimit {
  const { policies, health } = parts;
  const down = (error: unknown): void => {
    if (health.failed(error) === 'allow') return;
    throw new ServiceUnavailableError().withHeaders({ 'retry-after': '1' });
  };
  return policies.length === 1 ? compileOne(parts, policies[0]!, down) : compileMany(parts, down);
}

/**
 * One policy (the common case): the key function, the `RateLimit` item's writer and a fixed
 * cost are decided at wiring; a request reads its key (cached per address), takes one bucket and
 * formats one header value.
 */
function compileOne(parts: RouteLimitParts, policy: RateLimit, down: (error: unknown) => void): RouteLimit {
  const { store, health } = parts;
  const partition = partitionOf(policy, parts);
  const rate = policy.rate;
  const item = limitItemOf(policy.name);
  const fixedCost = typeof policy.cost === 'number' ? policy.cost : undefined;

  const settle = (ex: Exchange, bucket: Bucket, taken: Taken): void => {
    if (health.down) health.answered();
    const tat = taken.tats[0]!;
    const now = taken.now;
    const field = limitField(item, rate, tat, now);
    if (taken.allowed) {
      health.allowed++;
      ex.state[OUTCOME] = [['ratelimit', field]] satisfies Outcome;
      return;
    }
    health.limited++;
    ex.state[OUTCOME] = [
      ['ratelimit', field],
      ['retry-after', String(retryAfter(rate, tat, now, bucket.cost))],
    ] satisfies Outcome;
    throw new TooManyRequestsError();
  };

  const step = (ex: Exchange, sources?: Readonly<Record<string, unknown>>): void | Promise<void> => {
    const key = partition(ex, sources);
    if (key === undefined) return;
    const bucket: Bucket = { key, rate, cost: fixedCost ?? costOf(policy, ex) };
    let taken: Taken | Promise<Taken>;
    try {
      taken = store.take([bucket]);
    } catch (error) {
      down(error);
      return;
    }
    if (taken instanceof Promise) return taken.then((t) => settle(ex, bucket, t), down);
    settle(ex, bucket, taken);
  };

  return { step, headers: outcomeOf };
}

/** Several policies on one route: every bucket charged together, one item per counted policy. */
function compileMany(parts: RouteLimitParts, down: (error: unknown) => void): RouteLimit {
  const { policies, store, health } = parts;
  const partitions = policies.map((p) => partitionOf(p, parts));
  const items = policies.map((p) => limitItemOf(p.name));

  const settle = (
    ex: Exchange,
    counted: readonly number[],
    buckets: readonly Bucket[],
    taken: Taken,
  ): void => {
    if (health.down) health.answered();
    let field = '';
    let wait = 0;
    for (let i = 0; i < counted.length; i++) {
      const b = buckets[i]!;
      const tat = taken.tats[i]!;
      field += (i === 0 ? '' : ', ') + limitField(items[counted[i]!]!, b.rate, tat, taken.now);
      if (!taken.allowed) wait = Math.max(wait, retryAfter(b.rate, tat, taken.now, b.cost));
    }
    if (taken.allowed) {
      health.allowed++;
      ex.state[OUTCOME] = [['ratelimit', field]] satisfies Outcome;
      return;
    }
    health.limited++;
    ex.state[OUTCOME] = [
      ['ratelimit', field],
      ['retry-after', String(wait)],
    ] satisfies Outcome;
    throw new TooManyRequestsError();
  };

  const step = (ex: Exchange, sources?: Readonly<Record<string, unknown>>): void | Promise<void> => {
    const counted: number[] = [];
    const buckets: Bucket[] = [];
    for (let i = 0; i < policies.length; i++) {
      const policy = policies[i]!;
      const key = partitions[i]!(ex, sources);
      if (key === undefined) continue;
      counted.push(i);
      buckets.push({ key, rate: policy.rate, cost: costOf(policy, ex) });
    }
    if (buckets.length === 0) return;
    let taken: Taken | Promise<Taken>;
    try {
      taken = store.take(buckets);
    } catch (error) {
      down(error);
      return;
    }
    if (taken instanceof Promise) return taken.then((t) => settle(ex, counted, buckets, t), down);
    settle(ex, counted, buckets, taken);
  };

  return { step, headers: outcomeOf };
}

/** A policy's `RateLimit` item for a bucket with TAT `tat` at `now`. */
function limitField(
  item: (remaining: number, reset: number) => string,
  rate: Rate,
  tat: number,
  now: number,
): string {
  const { remaining, reset } = standing(rate, tat, now);
  return item(remaining, reset);
}

function costOf(policy: RateLimit, ex: Exchange): number {
  const cost = policy.cost;
  if (typeof cost === 'number') return cost;
  const value = cost(ex);
  if (!Number.isInteger(value) || value < 0 || value > policy.limit)
    throw new TypeError(
      `rate limit "${policy.name}": cost(ex) returned ${String(value)}, not a whole number from 0 to ${policy.limit}`,
    );
  return value;
}
