// One route's limit at run time: the pre-handler step that charges the store and the header hook
// that reports the outcome. Everything a request does not need is decided at wiring.
import { ServiceUnavailableError, TooManyRequestsError } from '@api/core';
import type { Exchange, RequestHead } from '@api/core/extension';
import { retryAfter, standing } from '../gcra/gcra';
import { limitItem } from '../headers/headers';
import type { RateLimit } from '../policy/policy';
import type { Bucket, RateLimitStore, Taken } from '../store/store';
import type { StoreHealth } from './store-health';

/** What the header hook reads: the `RateLimit` value, and `retry-after` when refused. */
interface Outcome {
  readonly pairs: ReadonlyArray<readonly [string, string]>;
}

const OUTCOME = Symbol('@api/rate-limit.outcome');

/** The partition of one policy for one request (undefined: not counted by it). */
type Partition = (ex: Exchange, sources: Readonly<Record<string, unknown>> | undefined) => string | undefined;

/** What a route's step needs, decided at wiring. */
export interface RouteLimitParts {
  readonly policies: readonly RateLimit[];
  readonly store: RateLimitStore;
  readonly health: StoreHealth;
  readonly address: (req: RequestHead) => string | undefined;
}

/** Builds the partition function of `policy` (`a:` address, `u:` user, `k:` custom key). */
/** Builds the bucket key function of `policy`: `<name>:a:<address>`, `<name>:u:<user>`, `<name>:k:<key>`. */
function partitionOf(policy: RateLimit, address: RouteLimitParts['address']): Partition {
  const prefix = `${policy.name}:`;
  const byAddress = (ex: Exchange): string => `${prefix}a:${address(ex.req) ?? 'unknown'}`;
  const key = policy.key;
  if (key === 'address') return byAddress;
  if (typeof key === 'function')
    return (ex) => {
      const value = key(ex);
      return value === undefined ? undefined : `${prefix}k:${value}`;
    };
  const identify = key.user as (user: unknown) => string | number;
  return (ex, sources) => {
    const user = sources?.user;
    return user === null || user === undefined ? byAddress(ex) : `${prefix}u:${identify(user)}`;
  };
}

/**
 * The step of a limited route: charges each policy's bucket for this request (all or nothing),
 * keeps the outcome for the header hook, and refuses with 429 when one has no room. While the
 * store is down it lets the request through or refuses it with 503, as the app chose.
 */
export function compileRouteLimit(parts: RouteLimitParts): {
  step: (ex: Exchange, sources?: Readonly<Record<string, unknown>>) => void | Promise<void>;
  headers: (ex: Exchange) => ReadonlyArray<readonly [string, string]> | undefined;
} {
  const { policies, store, health } = parts;
  const partitions = policies.map((p) => partitionOf(p, parts.address));
  const single = policies.length === 1;

  const settle = (
    ex: Exchange,
    counted: readonly RateLimit[],
    buckets: readonly Bucket[],
    taken: Taken,
  ): void => {
    health.answered();
    const items: string[] = [];
    let wait = 0;
    for (let i = 0; i < counted.length; i++) {
      const b = buckets[i]!;
      items.push(limitItem(counted[i]!.name, standing(b.rate, taken.tats[i]!, taken.now)));
      if (!taken.allowed) wait = Math.max(wait, retryAfter(b.rate, taken.tats[i]!, taken.now, b.cost));
    }
    const field = single ? items[0]! : items.join(', ');
    if (taken.allowed) {
      health.allowed++;
      ex.state[OUTCOME] = { pairs: [['ratelimit', field]] } satisfies Outcome;
      return;
    }
    health.limited++;
    ex.state[OUTCOME] = {
      pairs: [
        ['ratelimit', field],
        ['retry-after', String(wait)],
      ],
    } satisfies Outcome;
    throw new TooManyRequestsError();
  };

  const down = (error: unknown): void => {
    if (health.failed(error) === 'allow') return;
    throw new ServiceUnavailableError().withHeaders({ 'retry-after': '1' });
  };

  const step = (ex: Exchange, sources?: Readonly<Record<string, unknown>>): void | Promise<void> => {
    const counted: RateLimit[] = [];
    const buckets: Bucket[] = [];
    for (let i = 0; i < policies.length; i++) {
      const policy = policies[i]!;
      const partition = partitions[i]!(ex, sources);
      if (partition === undefined) continue;
      counted.push(policy);
      buckets.push({ key: partition, rate: policy.rate, cost: costOf(policy, ex) });
    }
    if (buckets.length === 0) return;
    let taken: Taken | Promise<Taken>;
    try {
      taken = store.take(buckets);
    } catch (error) {
      down(error);
      return;
    }
    if (taken instanceof Promise)
      return taken.then(
        (t) => settle(ex, counted, buckets, t),
        (error: unknown) => down(error),
      );
    settle(ex, counted, buckets, taken);
  };

  const headers = (ex: Exchange): ReadonlyArray<readonly [string, string]> | undefined =>
    (ex.state[OUTCOME] as Outcome | undefined)?.pairs;

  return { step, headers };
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
