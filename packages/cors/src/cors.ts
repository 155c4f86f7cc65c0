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
  type Wiring,
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

/** Methods a policy may list: the ones routes serve (OPTIONS is always automatic, never preflighted). */
const KNOWN_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE']);
const OPTION_KEYS: ReadonlySet<string> = new Set([
  'allowOrigins',
  'allowMethods',
  'allowHeaders',
  'allowCredentials',
  'maxAge',
  'exposeHeaders',
]);

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
    checkOptions(where, options);
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
    if (this.allowMethods.length === 0)
      throw new WiringError(
        `${where}: allowMethods is empty, so no preflight could ever be accepted. Fix: list the methods cross-origin callers may use (e.g. ['GET', 'POST']), leave allowMethods out for the default, or mount with { cors: CORS.OFF }.`,
      );
    for (const method of this.allowMethods)
      if (!KNOWN_METHODS.has(method))
        throw new WiringError(
          `${where}: allowMethods lists ${JSON.stringify(method)}, which no route serves${method === 'OPTIONS' ? ' (OPTIONS is answered automatically and never preflighted)' : ''}. Fix: use only ${[...KNOWN_METHODS].join(', ')}.`,
        );
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

/** Field checks a plain options object needs before it is read (typos would silently widen a policy). */
function checkOptions(where: string, options: unknown): asserts options is CORSOptions {
  if (!isPlainObject(options))
    throw new WiringError(
      `${where}: the options are not an object. Fix: pass { allowOrigins, allowMethods, … } or nothing for the defaults.`,
    );
  for (const key of Object.keys(options))
    if (!OPTION_KEYS.has(key))
      throw new WiringError(
        `${where}: unknown option ${JSON.stringify(key)}. Fix: use only ${[...OPTION_KEYS].join(', ')}.`,
      );
  for (const key of ['allowMethods', 'allowHeaders', 'exposeHeaders'] as const) {
    const list = options[key];
    if (list !== undefined && !(Array.isArray(list) && list.every((item) => typeof item === 'string')))
      throw new WiringError(`${where}: ${key} must be a list of strings. Fix: e.g. ${key}: ['…'].`);
  }
  if (options.allowCredentials !== undefined && typeof options.allowCredentials !== 'boolean')
    throw new WiringError(
      `${where}: allowCredentials must be true or false, got ${describe(options.allowCredentials)}. Fix: allowCredentials: true (with a list of exact origins), or leave it out.`,
    );
  if (options.maxAge !== undefined && typeof options.maxAge !== 'number')
    throw new WiringError(
      `${where}: maxAge must be a whole number of seconds, got ${describe(options.maxAge)}. Fix: e.g. maxAge: 600.`,
    );
  const origins = options.allowOrigins;
  if (origins !== undefined && origins !== '*' && !Array.isArray(origins))
    throw new WiringError(
      `${where}: allowOrigins must be '*' or a list of origins. Fix: e.g. allowOrigins: ['https://app.example'].`,
    );
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
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
export function cors(policy: CORS | CORSOptions = {}): Extension<void> {
  return defineExtension({
    name: 'cors',
    setup(wiring) {
      const where = `${wiring.appName}.include(cors())`;
      if (installed.has(wiring))
        wiring.fail(
          where,
          'an app-default CORS policy is already installed',
          'install cors() once; override per mount with { cors: policy } or opt out with { cors: CORS.OFF }',
        );
      const resolved = resolvePolicy(wiring, where, policy);
      installed.add(wiring);
      wiring.addContributor((route) => {
        const own = route.mountOptions.cors;
        if (own === undefined) return contribution(resolved, route);
        // The mount's own policy (or CORS.OFF) compiles itself; anything else under `cors` is a mistake.
        if (!(own instanceof CORS) && own !== CORS.OFF)
          wiring.fail(
            `${route.owner}.${route.operation}`,
            'the "cors" mount option is not a CORS policy',
            'pass { cors: new CORS({ … }) } to override the app default, or { cors: CORS.OFF } to opt the mount out',
          );
        return undefined;
      });
    },
  });
}

/** The app default from what was given to `cors()`: a policy, or the options of one. */
function resolvePolicy(wiring: Wiring, where: string, given: unknown): CORS {
  if (given instanceof CORS) return given;
  if (given === CORS.OFF)
    wiring.fail(
      where,
      'cors(CORS.OFF) would install an app default that is no policy',
      'leave cors() out for no app default, or opt single mounts out with { cors: CORS.OFF }',
    );
  if (!isPlainObject(given))
    wiring.fail(
      where,
      `cors() was given ${describe(given)}, which is not a CORS policy`,
      "pass new CORS({ … }), the options of one (e.g. cors({ allowOrigins: ['https://app.example'] })), or nothing for the defaults",
    );
  try {
    return new CORS(given);
  } catch (error) {
    // The same check, reported at the install call instead of a constructor the app never wrote.
    if (error instanceof WiringError)
      throw new WiringError(error.message.replace(/^new CORS\(\)/, where), { cause: error });
    throw error;
  }
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return `an instance of ${value.constructor?.name ?? 'an unknown class'}`;
  return `a ${typeof value}`;
}
