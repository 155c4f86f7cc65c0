// A rate-limit policy: a named quota (`limit` units per `window` seconds), how requests are
// partitioned (client address, authenticated user, or a function) and what each request costs.
import {
  checkKnownKeys,
  describeValue,
  mountOption,
  wiringError,
  type Exchange,
  type MountContext,
  type MountOptionValue,
  type RouteContribution,
} from '@api/core/extension';
import { rateOf, type Rate } from '../gcra/gcra';
import { installed, routeWhere } from '../extension/installed';

/** Partition by the authenticated user (see `byUser`). */
export interface UserKey {
  /** The user's stable identity, e.g. its id. */
  readonly user: (user: never) => string | number;
}

/**
 * How a policy partitions requests: `'address'` (the client's address, the default), `byUser(…)`
 * (the mount's authenticated user; anonymous callers by address), or a function of the request
 * returning the partition — `undefined` leaves the request uncounted by this policy.
 */
export type KeySpec = 'address' | UserKey | ((ex: Exchange) => string | undefined);

/** The options of `new RateLimit(…)`. */
export interface RateLimitOptions {
  /**
   * The policy's name: its `RateLimit-Policy` / `RateLimit` item and its bucket keys. Letters,
   * digits, `-`, `_`, `.`; unique per app.
   */
  readonly name: string;
  /** Units (requests, at cost 1) per window: a whole number ≥ 1. */
  readonly limit: number;
  /** The window in whole seconds (≥ 1). */
  readonly window: number;
  /** How requests are partitioned. [`'address'`] */
  readonly key?: KeySpec;
  /** Units one request takes: a whole number, or a function of the request. [1] */
  readonly cost?: number | ((ex: Exchange) => number);
}

const KEYS: readonly string[] = ['name', 'limit', 'window', 'key', 'cost'];
const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/**
 * A rate-limit policy: `limit` units per `window` seconds, refilled continuously (GCRA: one unit
 * every `window / limit`, bursts up to `limit`). One policy is one budget per partition, shared by
 * every route it covers; give a route its own budget with its own policy. Apply it app-wide
 * (`rateLimit({ policy })`), per mount (`{ rateLimit: policy }`) or per operation
 * (`{ rateLimit: perOperation({ create: policy }) }`).
 *
 * @example
 * const writes = new RateLimit({ name: 'widget-writes', limit: 30, window: 60, key: byUser((u: User) => u.id) });
 */
export class RateLimit implements MountOptionValue {
  readonly name: string;
  readonly limit: number;
  readonly window: number;
  readonly key: KeySpec;
  readonly cost: number | ((ex: Exchange) => number);
  /** The GCRA parameters (microseconds). */
  readonly rate: Rate;

  /**
   * @param options - `name`, `limit`, `window` (seconds), `key` ('address'), `cost` (1)
   * @throws WiringError - on a missing or wrong option, naming the fix
   */
  constructor(options: RateLimitOptions) {
    const where = `new RateLimit(${typeof options?.name === 'string' ? JSON.stringify(options.name) : '…'})`;
    const fail = (problem: string, fix: string): never => {
      throw wiringError('API_WIRING_INVALID_ARGUMENT', where, problem, fix);
    };
    if (typeof options !== 'object' || options === null || Array.isArray(options))
      fail(
        `the options must be an object, got ${describeValue(options)}`,
        "new RateLimit({ name: 'api', limit: 100, window: 60 })",
      );
    checkKnownKeys(where, options, KEYS);
    const { name, limit, window, key = 'address', cost = 1 } = options;
    if (typeof name !== 'string' || !NAME.test(name))
      fail(
        `name must be 1–64 letters, digits, "-", "_" or "." starting with a letter or digit, got ${describeValue(name)}`,
        "e.g. name: 'widget-writes'",
      );
    if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > 1_000_000_000)
      fail(`limit must be a whole number from 1 to 10^9, got ${describeValue(limit)}`, 'e.g. limit: 100');
    if (typeof window !== 'number' || !Number.isInteger(window) || window < 1 || window > 31_536_000)
      fail(
        `window must be a whole number of seconds from 1 to 31 536 000 (a year), got ${describeValue(window)}`,
        'e.g. window: 60',
      );
    if (limit > window * 1_000_000)
      fail(
        `limit ${limit} per ${window} s is more than one unit per microsecond`,
        'lower limit or widen window',
      );
    if (!(key === 'address' || typeof key === 'function' || isUserKey(key)))
      fail(
        `key must be 'address', byUser(…) or a function of the request, got ${describeValue(key)}`,
        "key: 'address', key: byUser((user) => user.id), or key: (ex) => ex.req.headers['x-api-key']",
      );
    if (typeof cost === 'number') {
      if (!Number.isInteger(cost) || cost < 0 || cost > limit)
        fail(
          `cost must be a whole number from 0 to limit (${limit}), got ${describeValue(cost)}`,
          'e.g. cost: 1',
        );
    } else if (typeof cost !== 'function')
      fail(`cost must be a number or a function of the request, got ${describeValue(cost)}`, 'e.g. cost: 1');
    this.name = name;
    this.limit = limit;
    this.window = window;
    this.key = key;
    this.cost = cost;
    this.rate = rateOf(limit, window);
  }

  /** The mount-option check: the app must have installed `rateLimit()` (its store applies the policy). */
  [mountOption](ctx: MountContext): RouteContribution | undefined {
    requireInstalled(ctx);
    return undefined;
  }
}

/**
 * Partitions a policy by the mount's authenticated user (the `user` its `auth` provides):
 * `identify` returns the user's stable identity. Anonymous callers (a `null` user of an
 * anonymous-accepting authenticator) are partitioned by client address. The check runs after
 * authentication, so a refused login is a 401 and is not counted.
 *
 * @param identify - the user's identity, e.g. `(user: User) => user.id`
 * @example
 * new RateLimit({ name: 'per-user', limit: 300, window: 60, key: byUser((user: User) => user.id) });
 */
export function byUser<TUser>(identify: (user: TUser) => string | number): UserKey {
  if (typeof identify !== 'function')
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      'byUser(identify)',
      `identify must be a function of the user, got ${describeValue(identify)}`,
      'byUser((user: User) => user.id)',
    );
  return { user: identify };
}

function isUserKey(value: unknown): value is UserKey {
  return typeof value === 'object' && value !== null && typeof (value as UserKey).user === 'function';
}

/** Fails a mount option on an app that did not include `rateLimit()`. */
export function requireInstalled({ route, wiring }: MountContext): void {
  if (!installed.has(wiring))
    throw wiringError(
      'API_WIRING_MOUNT_OPTION',
      routeWhere(route),
      'the "rateLimit" mount option is set, but the app did not include rateLimit() (which holds the store)',
      'this.include(rateLimit({ store: memoryStore() })) in wire(), before or after the mounts',
    );
}
