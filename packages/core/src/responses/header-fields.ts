// Response headers as core builds them: typed headers compiled at wiring, cookies, raw headers,
// Location and Link (resolved and percent-encoded), and an undeclared response's header object.
import type * as v from 'valibot';
import type { SetCookie } from '../cookies/set-cookie';
import { wiringError } from '../contract/wiring-error';
import { assertHeaderValue, formatLink, toHeaderName } from '../http';
import { framingError, isFramingHeader } from '../http/framing';
import { encodeUriReference } from '../http/uri';
import type { Exchange, HeaderList } from '../contract/exchange';
import { objectEntries } from '../schema/introspect';
import type { Link, Location, UrlResolver } from './location';
import type { ResponseFields } from './response';

/** A header value's text: strings verbatim, objects as JSON, scalars via String(). */
function headerText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return String(value);
  return JSON.stringify(value) ?? '';
}

/** Writes typed response headers into a header list. */
export type TypedHeadersWriter = (values: unknown, out: HeaderList) => void;

/**
 * Compiles typed response headers: `xTraceId`/`x_trace_id` → `x-trace-id`; null/undefined omitted.
 * A field naming a framing header (`contentLength`, `connection`, …) is a `WiringError` naming `where`.
 */
export function compileTypedHeaders(
  schema: v.GenericSchema | undefined,
  where = 'typed response headers',
): TypedHeadersWriter | undefined {
  const entries = schema ? objectEntries(schema) : undefined;
  if (!entries) return undefined;
  const fields = Object.keys(entries).map((key) => [key, toHeaderName(key)] as const);
  for (const [key, wire] of fields)
    if (isFramingHeader(wire, undefined))
      throw wiringError(
        'API_WIRING_FRAMING_HEADER',
        where,
        `the typed response headers declare "${key}" (sent as "${wire}"), ` +
          'a framing header the framework computes for every response',
        'remove the field; core frames the body itself',
      );
  return (values, out) => {
    if (values === null || typeof values !== 'object') return;
    const obj = values as Record<string, unknown>;
    for (const [key, wire] of fields) {
      const value = obj[key];
      if (value === undefined || value === null) continue;
      const text = headerText(value);
      assertHeaderValue(wire, text);
      out.push(wire, text);
    }
  };
}

export function pushCookies(cookies: readonly SetCookie[], out: HeaderList): void {
  const seen = new Set<string>();
  for (const cookie of cookies) {
    if (seen.has(cookie.name))
      throw new TypeError(`two Set-Cookie values for cookie "${cookie.name}" in one response`);
    seen.add(cookie.name);
    out.push('set-cookie', cookie.toHeader());
  }
}

/** Response fields as read from a wrapper instance (every field may be undefined). */
export type FieldsLike = {
  readonly [K in keyof ResponseFields<unknown>]?: ResponseFields<unknown>[K] | undefined;
};

function pushRaw(
  raw: NonNullable<ResponseFields<unknown>['rawHeaders']>,
  status: number,
  out: HeaderList,
): void {
  const pairs: Iterable<readonly [string, string | readonly string[]]> = Array.isArray(raw)
    ? (raw as ReadonlyArray<readonly [string, string]>)
    : Object.entries(raw as Record<string, string | readonly string[]>);
  for (const [name, value] of pairs) {
    if (isFramingHeader(name, status)) throw framingError(name, "the response's rawHeaders");
    if (typeof value === 'string') {
      assertHeaderValue(name, value);
      out.push(name, value);
    } else
      for (const item of value) {
        assertHeaderValue(name, item);
        out.push(name, item);
      }
  }
}

/** Resolves a Location/Link target to a header-safe URI. */
function resolveUri(target: Location['target'], resolver: UrlResolver, ex: Exchange): string {
  if (target.kind === 'url') return target.url;
  const path = target.kind === 'path' ? target.path : resolver.pathFor(target, ex.route);
  const base = resolver.base(ex.req.headers);
  return base === '' ? sameOrigin(path) : base + path;
}

/**
 * A relative target never becomes protocol-relative: `//evil.example` (or `/\\evil.example`, which
 * browsers read alike) keeps its host part as an encoded first segment, so it stays on this origin.
 */
function sameOrigin(path: string): string {
  if (path.length < 2 || path.charCodeAt(0) !== 47) return path;
  const second = path.charCodeAt(1);
  if (second === 47) return '/%2F' + path.slice(2);
  if (second === 92) return '/%5C' + path.slice(2);
  return path;
}

/**
 * Appends typed headers, cookies, raw headers, then Location and Link (in that order). Raw header
 * names are checked here (a framing header throws): they are the only names not known at wiring.
 */
export function pushFields(
  fields: FieldsLike,
  typed: TypedHeadersWriter | undefined,
  resolver: UrlResolver,
  ex: Exchange,
  status: number,
  out: HeaderList,
): void {
  if (typed && fields.headers !== undefined) typed(fields.headers, out);
  if (fields.cookies) pushCookies(fields.cookies, out);
  if (fields.rawHeaders) pushRaw(fields.rawHeaders, status, out);
  if (fields.location) {
    const uri = resolveUri(fields.location.target, resolver, ex);
    assertHeaderValue('location', uri);
    out.push('location', encodeUriReference(uri));
  }
  if (fields.links) {
    const links: readonly Link[] = Array.isArray(fields.links)
      ? (fields.links as readonly Link[])
      : [fields.links as Link];
    if (links.length > 0) {
      const value = links
        .map((l) => formatLink(encodeUriReference(resolveUri(l.target, resolver, ex)), l.params))
        .join(', ');
      assertHeaderValue('link', value);
      out.push('link', value);
    }
  }
}

/** Appends an undeclared response's `headers` object: names converted and checked (framing refused), values checked. */
export function pushUntypedHeaders(headers: unknown, status: number, out: HeaderList): void {
  if (headers === null || typeof headers !== 'object') return;
  for (const [key, value] of Object.entries(headers as Record<string, unknown>)) {
    if (value === undefined || value === null) continue;
    const text = headerText(value);
    const wire = toHeaderName(key);
    if (isFramingHeader(wire, status)) throw framingError(wire, "the response's headers");
    assertHeaderValue(wire, text);
    out.push(wire, text);
  }
}
