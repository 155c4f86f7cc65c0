// Responses no declaration describes: what an intercept or middleware returns, and the
// `ExceptionResponse` of an exception handler (declared: compiled encoder; undeclared: JSON.stringify).
import type { AnySchema } from '../contract/standard-schema';
import { hasHeader } from '../http/header-name';
import type { HeaderList } from '../contract/exchange';
import { compileSerializer } from '../schema/serializer';
import type { UrlResolver } from './location';
import { Accepted, BytesResponse, Created, JSONResponse, NoContent } from './response';
import { ExceptionResponse } from './exception-handler';
import {
  compileTypedHeaders,
  pushCookies,
  pushFields,
  pushUntypedHeaders,
  type WriterExchange,
} from './writers';

const JSON_TYPE = 'application/json';

/**
 * Writes a response object that no declaration describes (middleware intercepts, exception
 * responses): bodies are encoded with `JSON.stringify`; untyped header names are checked here.
 */
export function writeUndeclaredResponse(value: unknown, ex: WriterExchange, resolver: UrlResolver): void {
  const out: HeaderList = [];
  if (value instanceof JSONResponse || value instanceof Created || value instanceof Accepted) {
    const status =
      value instanceof Created ? 201 : value instanceof Accepted ? 202 : (value.statusCode ?? 200);
    out.push('content-type', JSON_TYPE);
    pushFields(value, undefined, resolver, ex, status, out);
    pushUntypedHeaders(value.headers, status, out);
    ex.answer(status, out, JSON.stringify(value.json) ?? 'null');
  } else if (value instanceof NoContent) {
    const status = value.statusCode ?? 204;
    pushFields(value, undefined, resolver, ex, status, out);
    pushUntypedHeaders(value.headers, status, out);
    ex.answer(status, out, undefined);
  } else if (value instanceof BytesResponse) {
    const status = value.statusCode ?? 200;
    pushFields(value, undefined, resolver, ex, status, out);
    pushUntypedHeaders(value.headers, status, out);
    if (!hasHeader(out, 'content-type'))
      out.unshift('content-type', value.contentType ?? 'application/octet-stream');
    ex.answer(status, out, value.content);
  } else if (value instanceof ExceptionResponse) {
    const encoded = encodeUndeclaredException(value as ExceptionResponse<unknown, unknown>);
    ex.answer(value.statusCode as number, encoded.headers, encoded.body);
  } else {
    throw new TypeError(
      'an intercept returned a value that is not a response (JSONResponse, ' +
        'Created, Accepted, NoContent, BytesResponse) or undefined',
    );
  }
}

/** An `ExceptionResponse` encoded for the wire: its header list (content type first) and body. */
export interface EncodedException {
  readonly headers: HeaderList;
  readonly body: string;
}

/**
 * Compiles the encoder of an exception handler's declared result: `ExceptionResponse.of(...)`
 * (typed headers, compiled strict body) or a Struct error class's body schema (`schema` given,
 * no typed headers). Throws `ResponseShapeError` when the value's body does not fit.
 */
export function exceptionResponseEncoder(
  schema: AnySchema | undefined,
  headers: AnySchema | undefined,
  where?: string,
): (value: ExceptionResponse<unknown, unknown>) => EncodedException {
  const serialize = compileSerializer(schema, { strict: true });
  const typed = compileTypedHeaders(headers, where, true);
  return (value) => {
    const body = serialize(value.json);
    const out: HeaderList = ['content-type', JSON_TYPE];
    if (typed) typed(value.headers, out);
    else pushUntypedHeaders(value.headers, value.statusCode, out);
    if (value.cookies) pushCookies(value.cookies, out);
    return { headers: out, body };
  };
}

/** Encodes an `ExceptionResponse` no declaration describes (`JSON.stringify`, untyped headers). */
export function encodeUndeclaredException(value: ExceptionResponse<unknown, unknown>): EncodedException {
  const out: HeaderList = ['content-type', JSON_TYPE];
  pushUntypedHeaders(value.headers, value.statusCode, out);
  if (value.cookies) pushCookies(value.cookies, out);
  return { headers: out, body: JSON.stringify(value.json) ?? 'null' };
}
