import { wiringError } from '@api/core/extension';
import { checkOptions, isPlainObject, wrongArgument } from '../arguments/arguments';
import type { QueryParams } from '../client/request-options';
import type { HeaderInit } from '../multipart/build-multipart';
import { isFraming, type WebSocketFraming } from './framing';

/** Options of `client.websocket(path, options)`. */
export interface WebSocketSessionOptions<TIn extends WebSocketFraming, TOut extends WebSocketFraming> {
  /** The endpoint's `inbound` framing: what this session sends (required). */
  readonly inbound: TIn;
  /** The endpoint's `outbound` framing: what this session receives, validated on arrival (required). */
  readonly outbound: TOut;
  /** Query parameters for the handshake URL. Default none. */
  readonly params?: QueryParams;
  /**
   * Extra handshake headers (`authorization`, `origin`, …): a record or `[name, value]` pairs.
   * Default none; the client sends no `Origin` unless given (a non-browser client).
   */
  readonly headers?: HeaderInit;
  /**
   * Cookies for the handshake, merged over the client's jar (these win on a name collision).
   * Combining them with an explicit `Cookie` header is rejected as ambiguous. Default none.
   */
  readonly cookies?: Readonly<Record<string, string>>;
  /** Subprotocols to offer (`Sec-WebSocket-Protocol`). Default none. */
  readonly protocols?: string | readonly string[];
}

const WHERE = 'TestClient.websocket';
const KNOWN = ['inbound', 'outbound', 'params', 'headers', 'cookies', 'protocols'] as const;
const FRAMING =
  "a framing: a valibot schema (a tagged Struct), a non-empty list of schemas, 'string' or 'bytes'";

function isScalar(value: unknown): boolean {
  return (
    typeof value === 'string' ||
    (typeof value === 'number' && Number.isFinite(value)) ||
    typeof value === 'boolean'
  );
}

function isStringRecord(value: unknown): boolean {
  return isPlainObject(value) && Object.values(value).every((v) => typeof v === 'string');
}

function isHeaderInit(value: unknown): boolean {
  if (Array.isArray(value))
    return value.every(
      (pair) => Array.isArray(pair) && pair.length === 2 && pair.every((part) => typeof part === 'string'),
    );
  return isStringRecord(value);
}

function hasCookieHeader(headers: unknown): boolean {
  const names = Array.isArray(headers)
    ? headers.map((pair: readonly [string, string]) => pair[0])
    : Object.keys(headers as object);
  return names.some((name) => name.toLowerCase() === 'cookie');
}

/**
 * Checks the arguments of `client.websocket(path, options)` for untyped callers: a `WiringError`
 * names the argument, what it must be and what came instead.
 *
 * @param path - The path.
 * @param options - The options.
 */
export function checkWebSocketArguments(path: unknown, options: unknown): void {
  if (typeof path !== 'string' || !path.startsWith('/'))
    throw wrongArgument(WHERE, 'a path starting with "/"', path, "pass the endpoint's path, e.g. '/chat'");
  if (options === undefined)
    throw wrongArgument(
      WHERE,
      'options with `inbound` and `outbound`',
      options,
      "pass the endpoint's framings: `{ inbound, outbound }`",
    );
  const checked = checkOptions(WHERE, options, KNOWN);
  for (const key of ['inbound', 'outbound'] as const) {
    if (!isFraming(checked[key]))
      throw wrongArgument(
        `${WHERE} option \`${key}\``,
        FRAMING,
        checked[key],
        `pass the endpoint's \`${key}\` as declared in WebSocketEndpoint(path, { inbound, outbound })`,
      );
  }
  const params = checked.params;
  if (
    params !== undefined &&
    !(
      isPlainObject(params) &&
      Object.values(params).every((value) => (Array.isArray(value) ? value.every(isScalar) : isScalar(value)))
    )
  )
    throw wrongArgument(
      `${WHERE} option \`params\``,
      'a record of strings, numbers, booleans or lists of them',
      params,
      'pass e.g. `{ room: "a", tag: ["x", "y"] }`',
    );
  const headers = checked.headers;
  if (headers !== undefined && !isHeaderInit(headers))
    throw wrongArgument(
      `${WHERE} option \`headers\``,
      'a record of strings or a list of [name, value] string pairs',
      headers,
      'pass e.g. `{ authorization: "Bearer token" }`',
    );
  const cookies = checked.cookies;
  if (cookies !== undefined && !isStringRecord(cookies))
    throw wrongArgument(
      `${WHERE} option \`cookies\``,
      'a record of strings',
      cookies,
      'pass e.g. `{ session_id: "abc" }`',
    );
  if (cookies !== undefined && headers !== undefined && hasCookieHeader(headers))
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      WHERE,
      'both `cookies` and an explicit Cookie header were given, which is ambiguous',
      'pass the cookies one way',
    );
  const protocols = checked.protocols;
  if (
    protocols !== undefined &&
    typeof protocols !== 'string' &&
    !(Array.isArray(protocols) && protocols.every((p) => typeof p === 'string'))
  )
    throw wrongArgument(
      `${WHERE} option \`protocols\``,
      'a string or a list of strings',
      protocols,
      "pass e.g. `['chat.v1']`",
    );
}
