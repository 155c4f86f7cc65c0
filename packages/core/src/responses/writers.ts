// Compiles the writer of each declared response kind (JSON family, bytes, text, empty, an
// extension's own kind) once per route, at wiring. Headers: header-fields.ts; responses no
// declaration describes: undeclared.ts.
import type { WiringErrorCode } from '../contract/wiring-error';
import { hasHeader } from '../http/header-name';
import { assertNoFraming } from '../http/framing';
import type { Exchange, HeaderList } from '../contract/exchange';
import type { WireResponse } from '../contract/wire';
import { compileSerializer } from '../schema/serializer';
import { StreamedBody } from './streamed-body';
import type { UrlResolver } from './location';
import { BytesResponse, JSONResponse, NoContent, type ResponseKindFacts } from './response';
import { isExtensionKind, type ExtensionResponseKindInfo, type ResponseSink } from './extension-kind';
import { compileTypedHeaders, pushFields } from './header-fields';

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
