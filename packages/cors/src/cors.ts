import * as v from 'valibot';
import {
  checkMethods,
  checkOptions,
  defineExtension,
  describeValue,
  installAppPolicy,
  isPlainObject,
  mountOption,
  ROUTE_METHODS,
  WiringError,
  wiringError,
  type Exchange,
  type Extension,
  type MountContext,
  type MountOptionValue,
  type RouteContribution,
  type RouteInfo,
} from '@api/core/extension';

/** The fields of a CORS policy (defaults in brackets). */
export interface CORSOptions {
  /** `'*'` or exact `scheme://host[:port]` origins. [`'*'`] */
  readonly allowOrigins?: '*' | readonly string[];
  /** Methods a preflight may ask for. [GET, POST, PUT, PATCH, DELETE] */
  readonly allowMethods?: readonly string[];
  /** Request headers a preflight may ask for. [content-type, authorization] */
  readonly allowHeaders?: readonly string[];
  /** Send `access-control-allow-credentials: true` (not with `'*'`). [false] */
  readonly allowCredentials?: boolean;
  /** Preflight cache lifetime in seconds. [600] */
  readonly maxAge?: number;
  /** Response headers scripts may read. [none] */
  readonly exposeHeaders?: readonly string[];
}

const seconds = 'a whole number of seconds';
const strings = v.array(v.string('a string'), 'a list of strings');
const Options = v.object({
  allowOrigins: v.optional(v.union([v.literal('*'), v.array(v.string())], "'*' or a list of origins"), '*'),
  allowMethods: v.optional(strings, ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']),
  allowHeaders: v.optional(strings, ['content-type', 'authorization']),
  allowCredentials: v.optional(v.boolean('true or false'), false),
  maxAge: v.optional(v.pipe(v.number(seconds), v.integer(seconds), v.minValue(0, seconds)), 600),
  exposeHeaders: v.optional(strings, []),
});
const FIXES = {
  allowOrigins: "e.g. allowOrigins: ['https://app.example']",
  allowMethods: "e.g. allowMethods: ['GET', 'POST']",
  allowHeaders: "e.g. allowHeaders: ['content-type', 'authorization']",
  allowCredentials: 'allowCredentials: true (with a list of exact origins), or leave it out',
  maxAge: 'e.g. maxAge: 600',
  exposeHeaders: "e.g. exposeHeaders: ['x-total']",
};

const ORIGIN =
  /^https?:\/\/(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*)(:\d{1,5})?$/;
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

type Pair = readonly [string, string];

/** The contribution a policy makes to one route, decided at wiring. */
function contribution(policy: CORS, route: RouteInfo): RouteContribution {
  const exposed: Pair[] = policy.exposeHeaders.length
    ? [['access-control-expose-headers', policy.exposeHeaders.join(', ')]]
    : [];
  const preflightBlock: Pair[] = [
    ['access-control-allow-methods', policy.allowMethods.join(', ')],
    ['access-control-allow-headers', policy.allowHeaders.join(', ')],
    ['access-control-max-age', String(policy.maxAge)],
  ];
  const method = route.method;
  // `*`: a prefix route answering every method (a mounted fetch handler); the policy still decides.
  const allows = (requested: string): boolean =>
    (method === '*' || requested === method || (requested === 'HEAD' && method === 'GET')) &&
    policy.allowMethods.includes(requested === 'HEAD' ? 'GET' : requested);
  if (policy.wildcard) {
    // Constant pairs, baked into every covered response (errors included), but not into a plain
    // OPTIONS answer: there only an accepted preflight carries the block (built by `options`).
    const wildcard: RouteContribution = {
      order: 10,
      headers: [['access-control-allow-origin', '*'], ...exposed],
      headersOnOptions: false,
      options: (ex) => {
        const requested = ex.req.headers['access-control-request-method'];
        if (typeof requested !== 'string' || !allows(requested) || ex.req.headers.origin === undefined)
          return undefined;
        return [['access-control-allow-origin', '*'], ...preflightBlock];
      },
    };
    return wildcard;
  }
  const origins = policy.origins;
  const credentials: Pair[] = policy.allowCredentials ? [['access-control-allow-credentials', 'true']] : [];
  const allowed = (ex: Exchange): string | undefined => {
    const origin = ex.req.headers.origin;
    return typeof origin === 'string' && origins.has(origin) ? origin : undefined;
  };
  const allowList: RouteContribution = {
    order: 10,
    headers: [['vary', 'Origin']],
    headersOnOptions: false,
    dynamicHeaders: (ex) => {
      // A plain or refused preflight is answered without the block (an accepted one is built below).
      if (ex.method === 'OPTIONS') return undefined;
      const origin = allowed(ex);
      return origin === undefined
        ? undefined
        : [['access-control-allow-origin', origin], ...credentials, ...exposed];
    },
    options: (ex) => {
      const requested = ex.req.headers['access-control-request-method'];
      const origin = allowed(ex);
      if (typeof requested !== 'string' || origin === undefined || !allows(requested)) return undefined;
      return [['access-control-allow-origin', origin], ...credentials, ...preflightBlock, ['vary', 'Origin']];
    },
  };
  return allowList;
}

/**
 * A CORS policy: the app default (`this.include(cors(policy))`) or a per-mount override
 * (`{ cors: policy }`); `CORS.OFF` opts a mount out. Invalid combinations fail at construction
 * with a `WiringError`.
 *
 * @example
 * const policy = new CORS({ allowOrigins: ['https://app.example'], allowCredentials: true });
 */
export class CORS implements MountOptionValue {
  /** Removes the policy from a mount. */
  static readonly OFF: MountOptionValue & { readonly off: true } = Object.freeze({
    off: true as const,
    [mountOption]: () => undefined,
  });

  readonly allowOrigins: '*' | readonly string[];
  readonly allowMethods: readonly string[];
  readonly allowHeaders: readonly string[];
  readonly allowCredentials: boolean;
  readonly maxAge: number;
  readonly exposeHeaders: readonly string[];
  /** @internal exact-match set of allowed origins */
  readonly origins: ReadonlySet<string>;
  readonly wildcard: boolean;

  constructor(options: CORSOptions = {}) {
    const where = 'new CORS()';
    const o = checkOptions(where, Options, options, { fixes: FIXES });
    this.allowOrigins = o.allowOrigins;
    this.allowCredentials = o.allowCredentials;
    this.maxAge = o.maxAge;
    this.wildcard = this.allowOrigins === '*';
    if (this.wildcard && this.allowCredentials)
      throw wiringError(
        'API_WIRING_CORS_CREDENTIALS',
        where,
        "allowCredentials with allowOrigins '*'",
        'list the exact origins that may send credentials',
      );
    if (!this.wildcard) checkOrigins(where, o.allowOrigins as readonly string[]);
    if (o.allowMethods.length === 0)
      throw wiringError(
        'API_WIRING_INVALID_ARGUMENT',
        where,
        'allowMethods is empty, so no preflight could ever be accepted',
        "list the methods cross-origin callers may use (e.g. ['GET', 'POST']), leave allowMethods out for the default, or mount with { cors: CORS.OFF }",
      );
    // Methods are case-sensitive: 'get' is refused (never matched by a preflight), not rewritten.
    this.allowMethods = Object.freeze(checkMethods(where, 'allowMethods', o.allowMethods, ROUTE_METHODS));
    this.allowHeaders = headerNames(where, 'allowHeaders', o.allowHeaders);
    this.exposeHeaders = headerNames(where, 'exposeHeaders', o.exposeHeaders);
    this.origins = new Set(this.wildcard ? [] : (this.allowOrigins as readonly string[]));
  }

  /** The mount-option compiler: this policy on the mount's routes. */
  [mountOption]({ route }: MountContext): RouteContribution {
    return contribution(this, route);
  }
}

/** Every entry an exact `scheme://host[:port]` origin, never "null"; at least one. */
function checkOrigins(where: string, list: readonly string[]): void {
  if (list.length === 0)
    throw wiringError(
      'API_WIRING_CORS_ORIGIN',
      where,
      "allowOrigins must be '*' or a non-empty list of origins",
      "e.g. allowOrigins: ['https://app.example']",
    );
  for (const origin of list) {
    if (origin === 'null')
      throw wiringError(
        'API_WIRING_CORS_ORIGIN',
        where,
        'the "null" origin is never allowed (sandboxed documents and file: pages share it)',
        'remove it',
      );
    if (!ORIGIN.test(origin) || Number(origin.split(':')[2] ?? 0) > 65535)
      throw wiringError(
        'API_WIRING_CORS_ORIGIN',
        where,
        `${JSON.stringify(origin)} is not an origin`,
        'write scheme://host[:port] with no path or trailing slash, e.g. "https://app.example"',
      );
  }
}

/** Header names as sent (lower case), each an HTTP token. */
function headerNames(where: string, label: string, names: readonly string[]): readonly string[] {
  for (const name of names)
    if (!TOKEN.test(name))
      throw wiringError(
        'API_WIRING_INVALID_HEADER',
        where,
        `${label} lists ${JSON.stringify(name)}, which is not a header name`,
        'use HTTP tokens only',
      );
  return Object.freeze(names.map((h) => h.toLowerCase()));
}

/**
 * Installs the app-default CORS policy (at most once). It covers every route the app serves —
 * resources, endpoints, extension routes (assets, docs) and unrouted answers — except mounts
 * with their own `cors` option.
 *
 * @example
 * this.include(cors(new CORS({ allowOrigins: '*' })));
 */
export function cors(policy: CORS | CORSOptions = {}): Extension<void> {
  return defineExtension({
    name: 'cors',
    setup(wiring) {
      installAppPolicy(wiring, {
        extension: 'cors',
        duplicate: 'an app-default CORS policy is already installed',
        duplicateFix:
          'install cors() once; override per mount with { cors: policy } or opt out with { cors: CORS.OFF }',
        // The mount's own policy (or CORS.OFF) compiles itself; anything else under `cors` is a mistake.
        override: {
          option: 'cors',
          accepts: (own) => own instanceof CORS || own === CORS.OFF,
          expected: 'a CORS policy or CORS.OFF',
          fix: 'pass { cors: new CORS({ … }) } to override the app default, or { cors: CORS.OFF } to opt the mount out',
        },
        contribute: (where) => {
          const resolved = resolvePolicy(where, policy);
          return (route) => contribution(resolved, route);
        },
      });
    },
  });
}

/** The app default from what was given to `cors()`: a policy, or the options of one. */
function resolvePolicy(where: string, given: unknown): CORS {
  if (given instanceof CORS) return given;
  if (given === CORS.OFF)
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      where,
      'cors(CORS.OFF) would install an app default that is no policy',
      'leave cors() out for no app default, or opt single mounts out with { cors: CORS.OFF }',
    );
  if (!isPlainObject(given))
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      where,
      `cors() was given ${describeValue(given)}, which is not a CORS policy`,
      "pass new CORS({ … }), the options of one (e.g. cors({ allowOrigins: ['https://app.example'] })), or nothing for the defaults",
    );
  try {
    return new CORS(given);
  } catch (error) {
    // The same check, reported at the install call instead of a constructor the app never wrote.
    if (error instanceof WiringError && error.where === 'new CORS()')
      throw wiringError(error.code, where, error.problem, error.fix, { cause: error });
    throw error;
  }
}
