// Compiles the writer of each declared response kind (JSON family, bytes, text, empty, an
// extension's own kind) once per route, at wiring, and writes the answer's own header fields (typed
// headers, cookies, Location/Link, raw headers) per response. Responses no declaration describes:
// undeclared.ts.
import type { AnySchema } from '../contract/standard-schema';
import { isStandardSchema, standardFields } from '../schema/standard';
import { hasHeader } from '../http/header-name';
import type { Exchange, HeaderList } from '../contract/exchange';
import type { WireResponse } from '../contract/wire';
import { compileSerializer } from '../schema/serializer';
import { StreamedBody } from './streamed-body';
import { isExtensionKind, type ExtensionResponseKindInfo, type ResponseSink } from './extension-kind';
import type * as v from 'valibot';
import type { SetCookie } from '../cookies/set-cookie';
import { wiringError, type WiringErrorCode } from '../contract/wiring-error';
import { assertHeaderValue, formatLink, toHeaderName } from '../http';
import { assertNoFraming, framingError, isFramingHeader } from '../http/framing';
import { assertAbsent, isSingletonHeader, ownedHeaderFix, pushOnce } from '../http/owned-fields';
import { encodeUriReference } from '../http/uri';
import { objectEntries } from '../schema/introspect';
import type { Link, Location, UrlResolver } from './location';
import {
  BytesResponse,
  JSONResponse,
  NoContent,
  type ResponseFields,
  type ResponseKindFacts,
} from './response';

/**
 * The exchange as core's writers see it (`CoreExchange` is one; internal): `answer` and `startBody`
 * send heads whose header names core already checked (at wiring, or where a run-time name
 * entered), so the plain JSON route pays for no check. Extensions get the checking `send` / `sink.start` instead.
 */
export interface WriterExchange extends Exchange {
  /** The response as core writes it (node's `ServerResponse`, or the fetch transport's). */
  readonly res: WireResponse;
  /** `send` without the framing check of the caller's names. */
  answer(status: number, headers: HeaderList, body?: string | Uint8Array): void;
  /** Sends a streamed answer's head (route headers, body transform); false for HEAD. */
  startBody(status: number, headers: HeaderList, body: StreamedBody): boolean;
}

/** Writes a handler's returned value. */
export type Writer = (value: unknown, ex: WriterExchange) => void | Promise<void>;

/** Everything a writer needs to know about its route, decided at wiring. */
export interface WriterContext {
  readonly defaultStatus: number;
  readonly resolver: UrlResolver;
  readonly where: string;
  readonly method: string;
  readonly path: string;
  readonly fail: (problem: string, fix: string, code?: WiringErrorCode) => never;
}

const JSON_TYPE = 'application/json';

/** Compiles the writer of one declared response kind. */
export function compileWriter(info: ResponseKindFacts, ctx: WriterContext): Writer {
  if (isExtensionKind(info)) return compileExtensionWriter(info, ctx);
  // JSON and text answers always send their declaration's content type; bytes and empty ones may
  // take theirs from the value's headers.
  const typed = compileTypedHeaders(info.headers, ctx.where, info.kind === 'json' || info.kind === 'text');
  const status = info.status;
  switch (info.kind) {
    case 'json': {
      const serialize = compileSerializer(info.schema, { strict: true });
      const contentType = info.contentType ?? JSON_TYPE;
      if (info.cls === undefined) {
        const head = ['content-type', contentType];
        const fixed = status ?? ctx.defaultStatus;
        return (value, ex) => ex.answer(fixed, head.slice(), serialize(value));
      }
      return (value, ex) => {
        const r = value as JSONResponse<unknown, unknown>;
        const out: HeaderList = ['content-type', contentType];
        const code = status ?? r.statusCode ?? ctx.defaultStatus;
        pushFields(r, typed, ctx.resolver, ex, code, out);
        ex.answer(code, out, serialize(r.json));
      };
    }
    case 'text': {
      const contentType = info.contentType ?? 'text/plain; charset=utf-8';
      return (value, ex) =>
        ex.answer(status ?? ctx.defaultStatus, ['content-type', contentType], String(value));
    }
    case 'bytes': {
      const contentType = info.contentType ?? 'application/octet-stream';
      if (info.cls === undefined)
        return (value, ex) =>
          ex.answer(status ?? ctx.defaultStatus, ['content-type', contentType], value as Uint8Array);
      return (value, ex) => {
        const r = value as BytesResponse<unknown>;
        const out: HeaderList = [];
        const code = r.statusCode ?? ctx.defaultStatus;
        pushFields(r, typed, ctx.resolver, ex, code, out);
        if (!hasHeader(out, 'content-type')) out.unshift('content-type', r.contentType ?? contentType);
        ex.answer(code, out, r.content);
      };
    }
    case 'empty':
      return (value, ex) => {
        const r = value instanceof NoContent ? value : undefined;
        const out: HeaderList = [];
        const code = r?.statusCode ?? 204;
        if (r) pushFields(r, typed, ctx.resolver, ex, code, out);
        ex.answer(code, out, undefined);
      };
    default:
      return ctx.fail(
        `response kind "${info.kind}" has no writer`,
        'declare responses with JSONResponse.of, Created.of, NoContent.of, BytesResponse.of, Text, Bytes, ' +
          'a schema, or an extension kind',
        'API_WIRING_RETURNS',
      );
  }
}

/**
 * An extension kind's writer (streams): it gets a sink that builds the head through core's header
 * machinery, sends it with the route headers and body transform (`start`, which checks the names
 * the writer put in), and then is the body: every byte through core.
 */
function compileExtensionWriter(info: ExtensionResponseKindInfo, ctx: WriterContext): Writer {
  const custom = info.compile({
    method: ctx.method,
    path: ctx.path,
    where: ctx.where,
    defaultStatus: ctx.defaultStatus,
    fail: ctx.fail,
  });
  const typed = compileTypedHeaders(info.headers, ctx.where, info.contentType !== undefined);
  const source = `${ctx.where}: the ${info.kind} response's head`;
  return (value, ex) => {
    const body = new StreamedBody(ex.res, ex.log, `${ex.method} ${ex.path}`);
    const sink: ResponseSink = {
      method: ex.method,
      req: ex.req,
      exchange: ex,
      log: ex.log,
      head: (status, contentType, fields) => {
        const out: HeaderList = contentType === undefined ? [] : ['content-type', contentType];
        pushFields(fields, typed, ctx.resolver, ex, status, out);
        return out;
      },
      start: (status, headers) => {
        assertNoFraming(headers, status, source);
        return ex.startBody(status, headers, body);
      },
      write: (chunk) => body.write(chunk),
      end: (chunk) => body.end(chunk),
      cut: () => body.cut(),
      flushHeaders: () => body.flushHeaders(),
      get writableLength() {
        return body.writableLength;
      },
      on: (event, listener) => body.on(event, listener),
      off: (event, listener) => body.off(event, listener),
    };
    return custom(value, sink);
  };
}

// Response headers as core builds them: typed headers compiled at wiring, cookies, raw headers,
// Location and Link (resolved and percent-encoded), and an undeclared response's header object.

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
 * A field naming a framing header (`contentLength`, `connection`, …), two fields sent under one
 * name, or `contentType` where the writer sends the declared content type (`writerContentType`)
 * is a `WiringError` naming `where`. A field sent once (`etag`, …) that the answer already
 * carries fails the answer at run time (a logged 500), never a second line.
 */
export function compileTypedHeaders(
  schema: AnySchema | undefined,
  where = 'typed response headers',
  writerContentType = false,
): TypedHeadersWriter | undefined {
  const keys = schema ? headerKeys(schema) : undefined;
  if (!keys) return undefined;
  const fields = keys.map((key) => {
    const wire = toHeaderName(key);
    return [key, wire, isSingletonHeader(wire)] as const;
  });
  const seen = new Map<string, string>();
  for (const [key, wire] of fields) {
    if (isFramingHeader(wire, undefined))
      throw wiringError(
        'API_WIRING_FRAMING_HEADER',
        where,
        `the typed response headers declare "${key}" (sent as "${wire}"), ` +
          'a framing header the framework computes for every response',
        'remove the field; core frames the body itself',
      );
    if (writerContentType && wire === 'content-type')
      throw wiringError(
        'API_WIRING_OWNED_HEADER',
        where,
        `the typed response headers declare "${key}" (sent as "content-type"), but the ` +
          'response sends the content type of its declaration (it would go out twice)',
        ownedHeaderFix(wire),
      );
    const other = seen.get(wire);
    if (other !== undefined)
      throw wiringError(
        'API_WIRING_DUPLICATE',
        where,
        `the typed response headers declare "${other}" and "${key}", both sent as "${wire}"`,
        'keep one of them',
      );
    seen.set(wire, key);
  }
  const source = `${where}: the typed response headers`;
  return (values, out) => {
    if (values === null || typeof values !== 'object') return;
    const obj = values as Record<string, unknown>;
    for (const [key, wire, once] of fields) {
      const value = obj[key];
      if (value === undefined || value === null) continue;
      const text = headerText(value);
      assertHeaderValue(wire, text);
      if (once) assertAbsent(out, wire, source);
      out.push(wire, text);
    }
  };
}

/** The field names of a typed headers schema: valibot entries, or a Standard Schema's JSON Schema. */
function headerKeys(schema: AnySchema): string[] | undefined {
  if (isStandardSchema(schema)) return standardFields(schema)?.map((f) => f.key);
  const entries = objectEntries(schema as v.GenericSchema);
  return entries ? Object.keys(entries) : undefined;
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

const RAW = "the response's rawHeaders";

function pushRaw(
  raw: NonNullable<ResponseFields<unknown>['rawHeaders']>,
  status: number,
  out: HeaderList,
): void {
  const pairs: Iterable<readonly [string, string | readonly string[]]> = Array.isArray(raw)
    ? (raw as ReadonlyArray<readonly [string, string]>)
    : Object.entries(raw as Record<string, string | readonly string[]>);
  for (const [name, value] of pairs) {
    if (isFramingHeader(name, status)) throw framingError(name, RAW);
    if (typeof value === 'string') {
      assertHeaderValue(name, value);
      pushOnce(out, name, value, RAW);
    } else
      for (const item of value) {
        assertHeaderValue(name, item);
        pushOnce(out, name, item, RAW);
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
 * names are checked here (a framing header, or a second line of a field sent once, such as the
 * writer's `content-type`, throws): they are the only names not known at wiring.
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
    assertAbsent(out, 'location', "the response's location");
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

/**
 * Appends an undeclared response's `headers` object: names converted and checked (framing, and a
 * second line of a field sent once, refused), values checked.
 */
export function pushUntypedHeaders(headers: unknown, status: number, out: HeaderList): void {
  if (headers === null || typeof headers !== 'object') return;
  for (const [key, value] of Object.entries(headers as Record<string, unknown>)) {
    if (value === undefined || value === null) continue;
    const text = headerText(value);
    const wire = toHeaderName(key);
    if (isFramingHeader(wire, status)) throw framingError(wire, "the response's headers");
    assertHeaderValue(wire, text);
    pushOnce(out, wire, text, "the response's headers");
  }
}
