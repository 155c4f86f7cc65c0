import { wiringError } from '../contract/wiring-error';
import { encodePathSegment } from '../http';
import type { LocationTarget, PathValues, UrlResolver } from '../responses/location';
import type { RouteInfo } from '../contract/route-info';
import { routeClassName } from '../contract/route-name';
import type { TrustProxy } from '../contract/serving-options';

type HeaderBag = Readonly<Record<string, string | string[] | undefined>>;

function first(value: string | string[] | undefined): string | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  if (v === undefined) return undefined;
  const comma = v.indexOf(',');
  return (comma < 0 ? v : v.slice(0, comma)).trim() || undefined;
}

const HOST = /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;
const PREFIX = /^(\/[A-Za-z0-9\-._~!$&'()*+,;=:@%]+)+$/;

/**
 * Reads `APP_BASE_URL` / `APP_TRUST_FORWARDED` once at wiring; the app's `trustProxy` option, when
 * given, decides instead of `APP_TRUST_FORWARDED` whether forwarded headers rebuild the base.
 */
export function baseFromEnv(
  env: Readonly<Record<string, string | undefined>>,
  appName: string,
  trustProxy?: TrustProxy,
): (headers: HeaderBag) => string {
  const base = env.APP_BASE_URL?.trim();
  const trust = env.APP_TRUST_FORWARDED?.trim().toLowerCase();
  const envTrusted = trust !== undefined && trust !== '' && trust !== '0' && trust !== 'false';
  const trusted = trustProxy === undefined ? envTrusted : trustProxy !== false && trustProxy !== 0;
  if (base && envTrusted) {
    throw wiringError(
      'API_WIRING_ENV',
      appName,
      'both APP_BASE_URL and APP_TRUST_FORWARDED are set',
      'set APP_BASE_URL for a static public origin, or APP_TRUST_FORWARDED ' +
        'to rebuild it from X-Forwarded-* headers, not both',
    );
  }
  if (base) {
    let url: URL;
    try {
      url = new URL(base);
    } catch {
      throw wiringError(
        'API_WIRING_ENV',
        appName,
        `APP_BASE_URL ${JSON.stringify(base)} is not an absolute URL`,
        'set it like https://api.example.com',
      );
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw wiringError(
        'API_WIRING_ENV',
        appName,
        'APP_BASE_URL must be http(s)',
        'set it like https://api.example.com',
      );
    const fixed = (url.origin + url.pathname).replace(/\/+$/, '');
    return () => fixed;
  }
  if (trusted) {
    return (headers) => {
      const proto = first(headers['x-forwarded-proto'])?.toLowerCase();
      const scheme = proto === 'https' || proto === 'http' ? proto : 'http';
      let host = first(headers['x-forwarded-host']) ?? first(headers.host);
      if (!host || !HOST.test(host)) return '';
      const port = first(headers['x-forwarded-port']);
      if (
        port &&
        /^\d{1,5}$/.test(port) &&
        !/:\d+$/.test(host) &&
        !((scheme === 'http' && port === '80') || (scheme === 'https' && port === '443'))
      )
        host += `:${port}`;
      const prefix = first(headers['x-forwarded-prefix']);
      const path = prefix && PREFIX.test(prefix) ? prefix.replace(/\/+$/, '') : '';
      return `${scheme}://${host}${path}`;
    };
  }
  return () => '';
}

/** Fills a template's slots from path values, percent-encoding each. */
export function fillTemplate(template: string, values: PathValues | undefined, where: string): string {
  return template.replace(/\{([a-z_][a-z0-9_]*)\}/g, (_, slot: string) => {
    const value = values?.[slot];
    if (value === undefined) throw new TypeError(`${where}: no value for path slot "{${slot}}"`);
    return encodePathSegment(String(value));
  });
}

/** Resolves targets against the finished catalogue. */
export class CatalogueResolver implements UrlResolver {
  constructor(
    private readonly routes: readonly RouteInfo[],
    readonly base: (headers: HeaderBag) => string,
  ) {}

  pathFor(target: LocationTarget, from?: RouteInfo): string {
    if (target.kind === 'path') return target.path;
    if (target.kind === 'url') return target.url;
    let route: RouteInfo | undefined;
    if (target.kind === 'operation') {
      route = this.#pick((r) => r.ownerClass === target.owner && r.operation === target.operation, from);
      if (!route)
        throw new TypeError(`Location: ${routeClassName(target.owner)}.${target.operation} is not mounted`);
    } else {
      const dot = target.ref.lastIndexOf('.');
      const ref = target.ref.slice(0, dot);
      const op = target.ref.slice(dot + 1);
      route = this.#pick((r) => r.ref === ref && r.operation === op, from);
      if (!route) throw new TypeError(`Location: ref "${target.ref}" names no mounted operation`);
    }
    return fillTemplate(route.path, target.path, `Location to ${route.owner}.${route.operation}`);
  }

  /**
   * The matching route; a class mounted under several prefixes gives one per prefix, and the one
   * under the answering route's prefix wins (else the first mounted).
   */
  #pick(matches: (route: RouteInfo) => boolean, from: RouteInfo | undefined): RouteInfo | undefined {
    let first: RouteInfo | undefined;
    for (const route of this.routes) {
      if (!matches(route)) continue;
      if (route.mountPrefix === from?.mountPrefix) return route;
      first ??= route;
    }
    return first;
  }
}
