// `rateLimit()`: the app's store, what it does when the store is down, and the app-default policy;
// a contributor that compiles each route's policies (app default, the mount's, the operation's).
import { ServiceUnavailableError, TooManyRequestsError } from '@api/core';
import {
  checkKnownKeys,
  defineExtension,
  describeValue,
  wiringError,
  type ErrorClass,
  type RequestHead,
  type Extension,
  type RouteContribution,
  type RouteInfo,
} from '@api/core/extension';
import { policyField } from '../headers/headers';
import { addressKey } from '../key/client-address';
import { RateLimit } from '../policy/policy';
import { PerOperation, RateLimitGroup, type OperationLimit } from '../policy/mount-option';
import type { RateLimitStore } from '../store/store';
import { installed, routeWhere } from './installed';
import { compileRouteLimit } from './route-limit';
import { StoreHealth, type RateLimitStats, type StoreDownMode } from './store-health';

/** The options of `rateLimit(…)`. */
export interface RateLimitSetup {
  /** Where buckets live: `memoryStore()` (one process) or `redisStore(client)` (shared). */
  readonly store: RateLimitStore;
  /**
   * What limited routes do while the store cannot answer (Redis down, a timeout): `'allow'` lets
   * requests through unlimited (fail open), `'refuse'` answers 503 with `retry-after: 1` (fail
   * closed). Required with a store that can fail; there is no default.
   */
  readonly onStoreDown?: StoreDownMode;
  /** The app-default policy (or `rateLimits(a, b)`) for every route a mount does not set. [none] */
  readonly policy?: RateLimit | RateLimitGroup;
  /**
   * Routes the app default leaves out (mount and operation policies always apply). [health
   * probes (`/healthz`, `/health`, `/livez`, `/readyz`), and hidden extension routes: static
   * assets, the docs page and the OpenAPI document]
   */
  readonly skip?: (route: RouteInfo) => boolean;
}

/** What `this.include(rateLimit(…))` returns. */
export interface RateLimiter {
  /** The store the app charges. */
  readonly store: RateLimitStore;
  /** Counters: admitted, refused, decided while the store was down, outages and recoveries. */
  stats(): RateLimitStats;
}

const OPTION_KEYS: readonly string[] = ['store', 'onStoreDown', 'policy', 'skip'];
const HEALTH_PATHS: ReadonlySet<string> = new Set(['/healthz', '/health', '/livez', '/readyz']);

/** The default `skip`: health probes and hidden extension routes (assets, docs). */
export function defaultSkip(route: RouteInfo): boolean {
  return HEALTH_PATHS.has(route.path) || (route.kind === 'custom' && route.hidden);
}

/**
 * Installs rate limiting (at most once per app): the store, the outage mode and an optional
 * app-default policy. Mounts set or replace policies with the `rateLimit` mount option (a
 * policy, `rateLimits(…)`, `perOperation({ … })`, or `false`). Limited routes answer 429
 * `too-many-requests` with `retry-after`, and carry `RateLimit-Policy` and `RateLimit` on every
 * answer; automatic OPTIONS answers (preflights) are never counted. A policy by address reads the
 * client's address as core does (`wiring.clientAddress`, under the app's `trustProxy`).
 *
 * @param setup - `store`, `onStoreDown`, `policy`, `skip`
 * @example
 * const limiter = this.include(rateLimit({ store: memoryStore(), policy: new RateLimit({ name: 'api', limit: 100, window: 60 }) }));
 */
export function rateLimit(setup: RateLimitSetup): Extension<RateLimiter> {
  return defineExtension({
    name: 'rate-limit',
    setup(wiring) {
      const where = `${wiring.appName}.include(rateLimit())`;
      if (installed.has(wiring))
        throw wiringError(
          'API_WIRING_DUPLICATE',
          where,
          'rate limiting is already installed',
          'include rateLimit() once; set per-mount policies with the rateLimit mount option',
        );
      const checked = checkSetup(where, setup);
      installed.add(wiring);
      const { store } = checked;
      const health = new StoreHealth(store.kind, checked.onStoreDown, wiring.log);
      store.open?.();
      if (store.close) wiring.enter({ close: () => store.close?.() });
      const clientAddress = (req: RequestHead): string | undefined => wiring.clientAddress(req);
      // One key cache per policy, shared by the routes it covers.
      const addressKeys = new Map<RateLimit, (req: RequestHead) => string>();
      const addressKeyOf = (policy: RateLimit): ((req: RequestHead) => string) => {
        let keyOf = addressKeys.get(policy);
        if (keyOf === undefined)
          addressKeys.set(policy, (keyOf = addressKey(clientAddress, `${policy.name}:a:`)));
        return keyOf;
      };
      const trust = wiring.trustProxy;
      let warnedLeftmost = false;
      const names = new Map<string, RateLimit>();
      const defaults =
        checked.policy instanceof RateLimitGroup
          ? checked.policy.policies
          : checked.policy
            ? [checked.policy]
            : [];
      for (const policy of defaults) names.set(policy.name, policy);
      // perOperation options seen on routes: the operations of their mounts, for the name check.
      const operationsUnder = new Map<PerOperation, Set<string>>();
      // A store that cannot fail never makes a route refuse for being down.
      const refuses = store.mayFail && checked.onStoreDown === 'refuse';
      const raises: readonly ErrorClass[] = refuses
        ? [TooManyRequestsError, ServiceUnavailableError]
        : [TooManyRequestsError];

      const contribution = (route: RouteInfo, limit: RateLimit | RateLimitGroup): RouteContribution => {
        const policies = limit instanceof RateLimit ? [limit] : limit.policies;
        for (const policy of policies) claimName(names, policy, route);
        const byAddress = policies.some((p) => p.key === 'address');
        if (wiring.transport === 'fetch' && (trust === false || trust === 0) && byAddress)
          throw wiringError(
            'API_WIRING_APP_STATE',
            routeWhere(route),
            'a policy partitions by client address, but on the fetch transport the app is not told the peer',
            "set the app's trustProxy (new App({ trustProxy: 1 }) behind one proxy that writes X-Forwarded-For), or partition with a key function",
          );
        if (trust === true && byAddress && !warnedLeftmost) {
          // Not a wiring error: `true` is a valid app setting (URL building wants it); only the
          // partition is weak. Said once per app, not per route.
          warnedLeftmost = true;
          wiring.log.warn(
            'rate limits by client address: trustProxy is true, so the client address is the first X-Forwarded-For entry, which a client can write itself; set trustProxy to the number of proxies in front of the app (e.g. 1)',
            undefined,
            { route: routeWhere(route) },
          );
        }
        const { step, headers } = compileRouteLimit({ policies, store, health, addressKeyOf });
        const byUser = policies.some((p) => typeof p.key === 'object');
        return {
          // After @api/auth's own pre-handler step (order 50): a cross-site refusal is not counted.
          order: 60,
          ...(byUser ? { afterSources: step } : { before: step }),
          headers: [['ratelimit-policy', policyField(policies)]],
          headersOnOptions: false,
          dynamicHeaders: headers,
          raises,
          facts: { rateLimit: rateLimitFact(policies, refuses) },
        };
      };

      wiring.addContributor((route) => {
        if (route.method === '*') return undefined; // unrouted answers (404, 405, OPTIONS)
        const own: unknown = route.mountOptions.rateLimit;
        let limit: OperationLimit | undefined;
        if (own instanceof PerOperation) {
          const option: PerOperation = own as PerOperation;
          limit = option.limitFor(route);
          operationsUnder.set(
            option,
            (operationsUnder.get(option) ?? new Set<string>()).add(route.operation),
          );
        } else if (own === false || own instanceof RateLimit || own instanceof RateLimitGroup) limit = own;
        else if (own !== undefined)
          throw wiringError(
            'API_WIRING_MOUNT_OPTION',
            routeWhere(route),
            `the "rateLimit" mount option is ${describeValue(own)}, not a rate-limit policy`,
            'pass a RateLimit, rateLimits(a, b), perOperation({ … }), or false',
          );
        if (limit === undefined) {
          if (checked.policy === undefined || checked.skip(route)) return undefined;
          limit = checked.policy;
        }
        return limit === false ? undefined : contribution(route, limit);
      });

      wiring.onWired(() => {
        for (const [option, operations] of operationsUnder)
          for (const operation of Object.keys(option.byOperation))
            if (!operations.has(operation))
              throw wiringError(
                'API_WIRING_MOUNT_OPTION',
                `perOperation({ ${operation}: … })`,
                `no operation "${operation}" is mounted with this option`,
                `name an operation of the mount: ${[...operations].join(', ')}`,
              );
      });

      return { store, stats: () => health.stats() };
    },
  });
}

/**
 * The route fact (`route.facts.get('rateLimit')`): the policies, and the headers limited answers
 * carry, as documents list them (@api/openapi reads any fact's `responseHeaders`).
 */
function rateLimitFact(policies: readonly RateLimit[], refuses: boolean) {
  return {
    policies: policies.map(({ name, limit, window }) => ({ name, limit, window })),
    responseHeaders: [
      {
        name: 'ratelimit-policy',
        description: 'The quota policies of this operation (IETF draft-ietf-httpapi-ratelimit-headers).',
        schema: { type: 'string', examples: [policyField(policies)] },
        statuses: 'all',
      },
      {
        name: 'ratelimit',
        description:
          'Remaining quota units (r) and seconds until more are available (t), per policy (IETF draft-ietf-httpapi-ratelimit-headers).',
        schema: {
          type: 'string',
          examples: [policies.map((p) => `"${p.name}";r=${p.limit - 1};t=0`).join(', ')],
        },
        statuses: 'all',
      },
      {
        name: 'retry-after',
        description: 'Seconds to wait before the request can be admitted.',
        schema: { type: 'string', pattern: '^[0-9]+$' },
        statuses: refuses ? [429, 503] : [429],
      },
    ],
  } as const;
}

interface CheckedSetup {
  readonly store: RateLimitStore;
  readonly onStoreDown: StoreDownMode;
  readonly policy: RateLimit | RateLimitGroup | undefined;
  readonly skip: (route: RouteInfo) => boolean;
}

function checkSetup(where: string, setup: unknown): CheckedSetup {
  if (typeof setup !== 'object' || setup === null || Array.isArray(setup))
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      where,
      `the options must be an object, got ${describeValue(setup)}`,
      'rateLimit({ store: memoryStore() })',
    );
  const o = setup as Record<string, unknown>;
  checkKnownKeys(where, o, OPTION_KEYS, "the client address follows the app's trustProxy");
  const store = o.store as RateLimitStore | undefined;
  if (typeof store !== 'object' || store === null || typeof store.take !== 'function')
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      where,
      `store must be a rate-limit store, got ${describeValue(store)}`,
      'store: memoryStore() for one process, or store: redisStore(new Redis(url)) shared by every process',
    );
  const mode = o.onStoreDown;
  if (mode === undefined && store.mayFail)
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      where,
      `the ${store.kind} store can be unreachable, and onStoreDown does not say what limited routes do then`,
      "choose onStoreDown: 'allow' (fail open: serve unlimited) or onStoreDown: 'refuse' (fail closed: answer 503)",
    );
  if (mode !== undefined && mode !== 'allow' && mode !== 'refuse')
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      where,
      `onStoreDown must be 'allow' or 'refuse', got ${describeValue(mode)}`,
      "onStoreDown: 'allow' or 'refuse'",
    );
  const policy = o.policy;
  if (policy !== undefined && !(policy instanceof RateLimit) && !(policy instanceof RateLimitGroup))
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      where,
      `policy must be a RateLimit or rateLimits(…), got ${describeValue(policy)}`,
      "policy: new RateLimit({ name: 'api', limit: 100, window: 60 })",
    );
  const skip = o.skip ?? defaultSkip;
  if (typeof skip !== 'function')
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      where,
      `skip must be a function of the route, got ${describeValue(skip)}`,
      "skip: (route) => route.path === '/healthz'",
    );
  return {
    store,
    onStoreDown: mode ?? 'refuse',
    policy: policy,
    skip: skip as (route: RouteInfo) => boolean,
  };
}

/** One name, one policy per app: two policies sharing a name would share buckets unawares. */
function claimName(names: Map<string, RateLimit>, policy: RateLimit, route: RouteInfo): void {
  const held = names.get(policy.name);
  if (held === undefined) names.set(policy.name, policy);
  else if (held !== policy)
    throw wiringError(
      'API_WIRING_DUPLICATE',
      routeWhere(route),
      `two different policies are named "${policy.name}" (their buckets would be shared)`,
      'give each policy its own name, or reuse the same RateLimit object where one budget is meant',
    );
}
