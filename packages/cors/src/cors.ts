import {
  defineExtension,
  mountOption,
  WiringError,
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
  const allows = (requested: string): boolean =>
    (requested === method || (requested === 'HEAD' && method === 'GET')) &&
    policy.allowMethods.includes(requested === 'HEAD' ? 'GET' : requested);
  if (policy.wildcard) {
    // Constant pairs, baked into every covered response (errors included).
    return {
      order: 10,
      headers: [['access-control-allow-origin', '*'], ...exposed],
      options: (ex) => {
        const requested = ex.req.headers['access-control-request-method'];
        if (typeof requested !== 'string' || !allows(requested) || ex.req.headers.origin === undefined)
          return undefined;
        return [['access-control-allow-origin', '*'], ...preflightBlock];
      },
    };
  }
  const origins = policy.origins;
  const credentials: Pair[] = policy.allowCredentials ? [['access-control-allow-credentials', 'true']] : [];
  const allowed = (ex: Exchange): string | undefined => {
    const origin = ex.req.headers.origin;
    return typeof origin === 'string' && origins.has(origin) ? origin : undefined;
  };
  return {
    order: 10,
    headers: [['vary', 'Origin']],
    dynamicHeaders: (ex) => {
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
    this.allowOrigins = options.allowOrigins ?? '*';
    this.allowMethods = (options.allowMethods ?? ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']).map((m) =>
      m.toUpperCase(),
    );
    this.allowHeaders = (options.allowHeaders ?? ['content-type', 'authorization']).map((h) =>
      h.toLowerCase(),
    );
    this.allowCredentials = options.allowCredentials ?? false;
    this.maxAge = options.maxAge ?? 600;
    this.exposeHeaders = (options.exposeHeaders ?? []).map((h) => h.toLowerCase());
    this.wildcard = this.allowOrigins === '*';
    if (this.wildcard && this.allowCredentials) {
      throw new WiringError(
        `${where}: allowCredentials with allowOrigins '*'. Fix: list the exact origins that may send credentials.`,
      );
    }
    if (!this.wildcard) {
      const list: readonly string[] = Array.isArray(this.allowOrigins)
        ? (this.allowOrigins as readonly string[])
        : [];
      if (list.length === 0) {
        throw new WiringError(
          `${where}: allowOrigins must be '*' or a non-empty list of origins. Fix: e.g. allowOrigins: ['https://app.example'].`,
        );
      }
      for (const origin of list) {
        if (origin === 'null')
          throw new WiringError(
            `${where}: the "null" origin is never allowed (sandboxed documents and file: pages share it). Fix: remove it.`,
          );
        if (!ORIGIN.test(origin) || Number(origin.split(':')[2] ?? 0) > 65535) {
          throw new WiringError(
            `${where}: ${JSON.stringify(origin)} is not an origin. Fix: write scheme://host[:port] with no path or trailing slash, e.g. "https://app.example".`,
          );
        }
      }
    }
    for (const list of [this.allowMethods, this.allowHeaders, this.exposeHeaders]) {
      for (const item of list)
        if (!TOKEN.test(item))
          throw new WiringError(
            `${where}: ${JSON.stringify(item)} is not a valid method or header name. Fix: use HTTP tokens only.`,
          );
    }
    if (!Number.isInteger(this.maxAge) || this.maxAge < 0)
      throw new WiringError(`${where}: maxAge must be a whole number of seconds. Fix: e.g. maxAge: 600.`);
    this.origins = new Set(this.wildcard ? [] : (this.allowOrigins as readonly string[]));
  }

  /** The mount-option compiler: this policy on the mount's routes. */
  [mountOption]({ route }: MountContext): RouteContribution {
    return contribution(this, route);
  }
}

const installed = new WeakSet<object>();

/**
 * Installs the app-default CORS policy (at most once). It covers every route the app serves —
 * resources, endpoints, extension routes (assets, docs) and unrouted answers — except mounts
 * with their own `cors` option.
 *
 * @example
 * this.include(cors(new CORS({ allowOrigins: '*' })));
 */
export function cors(policy: CORS | CORSOptions = new CORS()): Extension<void> {
  const resolved = policy instanceof CORS ? policy : new CORS(policy);
  return defineExtension({
    name: 'cors',
    setup(wiring) {
      if (installed.has(wiring))
        wiring.fail(
          `${wiring.appName}.include(cors())`,
          'an app-default CORS policy is already installed',
          'install cors() once; override per mount with { cors: policy } or opt out with { cors: CORS.OFF }',
        );
      installed.add(wiring);
      wiring.addContributor((route) =>
        route.mountOptions.cors !== undefined ? undefined : contribution(resolved, route),
      );
    },
  });
}
