import { wiringError } from '@api/core/extension';

// The origin grammar of @api/cors (packages/cors/src/cors.ts `ORIGIN`), copied rather than
// imported so @api/ws depends on no internals of another package: scheme://host[:port], with
// a DNS name, an IPv4 address or a bracketed IPv6 address, no path, no trailing slash.
const ORIGIN =
  /^https?:\/\/(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*)(:\d{1,5})?$/;

const DEFAULT_PORT: Record<string, string> = { http: '80', https: '443' };

/** An origin split into its parts, lowercased, with the scheme's default port made explicit. */
export interface ParsedOrigin {
  readonly scheme: 'http' | 'https';
  readonly host: string;
  readonly port: string;
  /** `scheme://host[:port]` without a default port: the form allow-lists compare. */
  readonly normalized: string;
}

/**
 * Parses an `Origin` value (`https://app.example`, `http://localhost:8000`); undefined for
 * anything else, including `null`.
 *
 * @param value - the header value
 */
export function parseOrigin(value: string): ParsedOrigin | undefined {
  const match = ORIGIN.exec(value);
  if (!match) return undefined;
  const scheme = value.slice(0, value.indexOf(':')).toLowerCase() as 'http' | 'https';
  const host = match[1]!.toLowerCase();
  const explicit = match[2]?.slice(1);
  if (explicit !== undefined && Number(explicit) > 65535) return undefined;
  const port = explicit === undefined ? DEFAULT_PORT[scheme]! : String(Number(explicit));
  const normalized = `${scheme}://${host}${port === DEFAULT_PORT[scheme] ? '' : `:${port}`}`;
  return { scheme, host, port, normalized };
}

/** Splits a `Host` header into host and port (the port is '' when absent). */
function parseHost(value: string): { host: string; port: string } | undefined {
  const match = /^(\[[0-9a-fA-F:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/.exec(value);
  if (!match) return undefined;
  return { host: match[1]!.toLowerCase(), port: match[2] === undefined ? '' : String(Number(match[2])) };
}

/** The outcome of an Origin check. */
export type OriginVerdict = 'allowed' | 'absent' | 'refused';

/**
 * Compiles the Origin check of a cookie-authenticated WebSocket mount: an `Origin` whose host
 * and port equal the request's `Host` (same-origin) or that is in `allowed` passes; a missing
 * `Origin` (a non-browser client) passes; `null`, a malformed value and any other origin are
 * refused. Throws a `WiringError` for an allow-list entry that is not an origin.
 *
 * @param where - the mount, for wiring errors
 * @param allowed - exact extra origins (`https://app.example`)
 */
export function compileOriginCheck(
  where: string,
  allowed: readonly string[],
): (origin: string | undefined, host: string | undefined) => OriginVerdict {
  const set = new Set<string>();
  for (const entry of allowed) {
    if (entry === 'null' || entry === '*')
      throw wiringError(
        'API_WIRING_WS_ORIGIN',
        where,
        `allowedOrigins cannot hold ${JSON.stringify(entry)} (it would let any page, or a sandboxed one, use the visitor's cookies)`,
        'list exact origins such as "https://app.example"',
      );
    const parsed = typeof entry === 'string' ? parseOrigin(entry) : undefined;
    if (!parsed)
      throw wiringError(
        'API_WIRING_WS_ORIGIN',
        where,
        `allowedOrigins entry ${JSON.stringify(entry)} is not an origin`,
        'write scheme://host[:port] with no path or trailing slash, e.g. "https://app.example"',
      );
    set.add(parsed.normalized);
  }
  return (origin, host) => {
    if (origin === undefined) return 'absent';
    const parsed = parseOrigin(origin);
    if (!parsed) return 'refused';
    if (set.has(parsed.normalized)) return 'allowed';
    const requested = host === undefined ? undefined : parseHost(host);
    if (!requested || requested.host !== parsed.host) return 'refused';
    const port = requested.port === '' ? DEFAULT_PORT[parsed.scheme]! : requested.port;
    return port === parsed.port ? 'allowed' : 'refused';
  };
}
