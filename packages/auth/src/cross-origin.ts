// Cross-origin request protection (CSRF) for unsafe methods, by the rules of Go's
// net/http.CrossOriginProtection: Fetch Metadata (`Sec-Fetch-Site`) first, the `Origin` header
// against `Host` for browsers that do not send it, and exact trusted origins. On by default on
// every unsafe-method route a cookie or hybrid authenticator guards; `csrf()` puts it on any other
// mount (a login route: login CSRF), `{ csrf: false }` takes it off a mount.
import { HTTPError } from '@api/core';
import {
  describeValue,
  mountOption,
  wiringError,
  type Exchange,
  type MountContext,
  type MountOptionValue,
  type RouteContribution,
  type RouteInfo,
} from '@api/core/extension';

/** 403: an unsafe request a browser sent from another origin, refused before authentication. */
export class CrossOriginRequestError extends HTTPError.define({
  type: 'cross-origin-request',
  title: 'Cross-origin request refused',
  status: 403,
}) {}

/** Methods that never change state (RFC 9110 safe methods): never checked. */
const SAFE: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

// scheme://host[:port] with a DNS name, an IPv4 address or a bracketed IPv6 address (the origin
// grammar of @api/cors and @api/ws): no path, no trailing slash.
const ORIGIN =
  /^(https?):\/\/(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*)(?::(\d{1,5}))?$/;
const DEFAULT_PORT: Readonly<Record<string, string>> = { http: '80', https: '443' };

/** `host:port` of an origin, lower case, the scheme's default port explicit; undefined if not one. */
function originAuthority(value: string): string | undefined {
  const match = ORIGIN.exec(value);
  if (!match) return undefined;
  const scheme = match[1]!.toLowerCase();
  const port = match[3] === undefined ? DEFAULT_PORT[scheme]! : String(Number(match[3]));
  if (Number(port) > 65535) return undefined;
  return `${scheme}://${match[2]!.toLowerCase()}:${port}`;
}

/** The same for a `Host` header, given the scheme an origin named (a Host has none). */
function hostAuthority(host: string, scheme: string): string | undefined {
  const match = /^(\[[0-9a-fA-F:.]+\]|[^:[\]/\s]+)(?::(\d{1,5}))?$/.exec(host);
  if (!match) return undefined;
  return `${scheme}://${match[1]!.toLowerCase()}:${match[2] === undefined ? DEFAULT_PORT[scheme]! : String(Number(match[2]))}`;
}

/** The options of `csrf(…)`. */
export interface CsrfOptions {
  /**
   * Origins whose pages may send unsafe requests here (`https://app.example`): exact
   * `scheme://host[:port]`, no path. The app's own origin needs no entry. [none]
   */
  readonly trustedOrigins?: readonly string[];
}

/**
 * The check of a cross-origin protection: `undefined` when the request may go on, else the reason
 * it is refused. Safe methods are never refused.
 */
export type CrossOriginCheck = (req: Exchange['req'], method: string) => string | undefined;

/**
 * Compiles the check (Go's `CrossOriginProtection.Check`): `Sec-Fetch-Site: same-origin` or `none`
 * passes; any other value (`same-site`, `cross-site`) is refused unless `Origin` is trusted; with
 * no `Sec-Fetch-Site`, no `Origin` passes (a non-browser client, or a same-origin request of an old
 * browser), an `Origin` whose host and port equal `Host` passes, a trusted one passes, anything
 * else (`null` included) is refused.
 */
export function compileCrossOriginCheck(where: string, trustedOrigins: readonly string[]): CrossOriginCheck {
  const trusted = new Set<string>();
  for (const entry of trustedOrigins) {
    const authority = typeof entry === 'string' ? originAuthority(entry) : undefined;
    if (authority === undefined)
      throw wiringError(
        'API_WIRING_INVALID_ARGUMENT',
        where,
        `trustedOrigins entry ${typeof entry === 'string' ? JSON.stringify(entry) : describeValue(entry)} is not an origin`,
        'write scheme://host[:port] with no path, query or trailing slash, e.g. "https://app.example" ("null" and "*" are never trusted)',
      );
    trusted.add(authority);
  }
  const isTrusted = (origin: string | undefined): boolean => {
    if (origin === undefined || trusted.size === 0) return false;
    const authority = originAuthority(origin);
    return authority !== undefined && trusted.has(authority);
  };
  return (req, method) => {
    if (SAFE.has(method)) return undefined;
    const headers = req.headers;
    const site = headers['sec-fetch-site'];
    const origin = headers.origin;
    if (site !== undefined && site !== '') {
      if (site === 'same-origin' || site === 'none' || isTrusted(origin)) return undefined;
      return `Sec-Fetch-Site is ${site}`;
    }
    if (origin === undefined || origin === '') return undefined;
    const authority = originAuthority(origin);
    const host = headers.host;
    if (authority !== undefined && host !== undefined) {
      const scheme = authority.slice(0, authority.indexOf(':'));
      if (hostAuthority(host, scheme) === authority) return undefined;
    }
    if (isTrusted(origin)) return undefined;
    return 'Origin does not match Host and Sec-Fetch-Site is missing';
  };
}

/** The pre-handler step refusing what `check` refuses, with the 403 Problem. */
export function crossOriginStep(
  check: CrossOriginCheck,
  skip?: (ex: Exchange) => boolean,
): (ex: Exchange) => void {
  return (ex) => {
    if (skip?.(ex)) return;
    if (check(ex.req, ex.method) !== undefined) throw new CrossOriginRequestError();
  };
}

/** True for a route whose method is unsafe (the only ones checked). */
export function isUnsafe(route: RouteInfo): boolean {
  return !SAFE.has(route.method);
}

/** The contribution of a protection on one route: a step before authentication, on unsafe methods. */
export function crossOriginContribution(before: (ex: Exchange) => void): RouteContribution {
  // Order 40: before the authenticator's sources (50) and a rate limit (60): a refused cross-site
  // request costs no lookup and no quota.
  return { order: 40, before, raises: [CrossOriginRequestError] };
}

/**
 * An explicit cross-origin protection for a mount (`{ csrf: csrf({ trustedOrigins }) }`): on a
 * mount without a cookie authenticator (a login route that sets the session cookie), or to trust
 * extra origins on one that has one. On cookie and hybrid mounts it is on by default; turn it off
 * with `{ csrf: false }`.
 */
export class CrossOriginProtection implements MountOptionValue {
  readonly trustedOrigins: readonly string[];
  /** The compiled check (the same rules everywhere it applies). */
  readonly check: CrossOriginCheck;

  constructor(options: CsrfOptions = {}) {
    const where = 'csrf(options)';
    if (typeof options !== 'object' || options === null || Array.isArray(options))
      throw wiringError(
        'API_WIRING_INVALID_ARGUMENT',
        where,
        `expected an options object, got ${describeValue(options)}`,
        "csrf({ trustedOrigins: ['https://app.example'] })",
      );
    for (const key of Object.keys(options))
      if (key !== 'trustedOrigins')
        throw wiringError(
          'API_WIRING_UNKNOWN_OPTION',
          where,
          `unknown option "${key}"`,
          'use only trustedOrigins',
        );
    const list: unknown = options.trustedOrigins ?? [];
    if (!Array.isArray(list))
      throw wiringError(
        'API_WIRING_INVALID_ARGUMENT',
        where,
        `trustedOrigins must be a list of origins, got ${describeValue(list)}`,
        "trustedOrigins: ['https://app.example']",
      );
    this.trustedOrigins = list as readonly string[];
    this.check = compileCrossOriginCheck(where, this.trustedOrigins);
  }

  /** On routes a cookie or hybrid authenticator guards, the authenticator applies this protection itself. */
  [mountOption]({ route }: MountContext): RouteContribution | undefined {
    if (!isUnsafe(route) || guardedByCookies(route)) return undefined;
    return crossOriginContribution(crossOriginStep(this.check));
  }
}

/** True when the route's `auth` reads cookies (a cookie or hybrid authenticator). */
function guardedByCookies(route: RouteInfo): boolean {
  const kind = (route.mountOptions.auth as { kind?: unknown } | undefined)?.kind;
  return kind === 'cookies' || kind === 'hybrid';
}

/**
 * Cross-origin request protection for a mount: unsafe requests (POST, PUT, PATCH, DELETE) a
 * browser sends from another origin are refused with 403 `cross-origin-request` before
 * anything else runs. On by default wherever `cookieAuth` or `hybridAuth` guards an unsafe
 * method; use this on other cookie-session routes (a login form: login CSRF) or to trust the
 * origins of your own front-ends.
 *
 * @param options - `trustedOrigins` (exact origins whose pages may send unsafe requests)
 * @example
 * this.includeEndpoint(new SessionEndpoint(), { csrf: csrf() });
 * this.includeResource(new Cart(), { auth: sessionAuth, csrf: csrf({ trustedOrigins: ['https://shop.example'] }) });
 */
export function csrf(options: CsrfOptions = {}): CrossOriginProtection {
  return new CrossOriginProtection(options);
}
