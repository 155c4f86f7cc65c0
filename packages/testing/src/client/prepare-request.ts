import { request as httpRequest, type Agent, type ClientRequest, type IncomingMessage } from 'node:http';
import { buildMultipart, headerPairs, type HeaderInit } from '../multipart/build-multipart';
import {
  withQuery,
  type RequestOptions,
  type RequestWithBodyOptions,
  type RequestWithoutBodyOptions,
} from './request-options';

/** A request ready for the wire: uppercased method, path with its query, header pairs, body bytes. */
export interface PreparedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Array<readonly [string, string]>;
  readonly body: Buffer | undefined;
}

/** The `Cookie` header for a request's `cookies` and explicit `headers` (the client's jar applied). */
export type CookieHeaderOf = (
  cookies: Readonly<Record<string, string>> | undefined,
  headers: HeaderInit | undefined,
) => string | undefined;

const BODY_KEYS = ['json', 'content', 'data', 'files'] as const;
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/**
 * Refuses a body on a bodiless method for untyped callers (the types already do).
 *
 * @param name - The method name as called (`get`, `streamGet`, …), for the message.
 * @param options - The request options.
 */
export function checkBodiless(name: string, options: RequestWithoutBodyOptions | undefined): RequestOptions {
  const given = BODY_KEYS.find((key) => options?.[key] !== undefined);
  if (given)
    throw new TypeError(
      `TestClient.${name}: takes no body (got \`${given}\`). Fix: use request() with an explicit method to send one.`,
    );
  return options ?? {};
}

/**
 * Builds the wire form of a request: the query appended, at most one body encoded (JSON,
 * raw content, or multipart), `content-type`, `cookie` and `content-length` added unless the
 * caller set them.
 *
 * @param method - The HTTP method (any case).
 * @param path - The path, starting with `/`.
 * @param options - The request options.
 * @param cookieHeaderOf - The client's jar merge.
 */
export function prepareRequest(
  method: string,
  path: string,
  options: RequestWithBodyOptions,
  cookieHeaderOf: CookieHeaderOf,
): PreparedRequest {
  const upper = method.toUpperCase();
  if (!path.startsWith('/'))
    throw new TypeError(`TestClient: the path must start with "/" (got ${JSON.stringify(path)})`);
  const bodies = [
    options.json !== undefined && 'json',
    options.content !== undefined && 'content',
    (options.data !== undefined || options.files !== undefined) && 'data/files',
  ].filter((x): x is string => typeof x === 'string');
  if (bodies.length > 1)
    throw new TypeError(`TestClient.request: give one body, not ${bodies.join(' and ')}`);
  const headers = headerPairs(options.headers);
  const has = (name: string): boolean => headers.some(([k]) => k.toLowerCase() === name);
  let body: Buffer | undefined;
  let contentType: string | undefined;
  if (options.json !== undefined) {
    body = Buffer.from(JSON.stringify(options.json), 'utf8');
    contentType = 'application/json';
  } else if (options.content !== undefined) {
    body =
      typeof options.content === 'string'
        ? Buffer.from(options.content, 'utf8')
        : Buffer.from(options.content);
  } else if (options.data !== undefined || options.files !== undefined) {
    const built = buildMultipart(options.data, options.files);
    body = built.body;
    contentType = built.contentType;
  }
  const cookie = cookieHeaderOf(options.cookies, options.headers);
  const extra: Array<readonly [string, string]> = [];
  if (contentType !== undefined && !has('content-type')) extra.push(['content-type', contentType]);
  if (cookie !== undefined) extra.push(['cookie', cookie]);
  if (
    !has('content-length') &&
    !has('transfer-encoding') &&
    (body !== undefined || BODY_METHODS.has(upper))
  ) {
    extra.push(['content-length', String(body?.length ?? 0)]);
  }
  return { method: upper, path: withQuery(path, options.params), headers: [...headers, ...extra], body };
}

/**
 * Sends a prepared request to `127.0.0.1:port` (a `host` header added unless given) and
 * resolves once the response head arrived.
 *
 * @param prepared - The request.
 * @param port - The port the app listens on.
 * @param agent - The keep-alive agent, or `false` for a connection of its own.
 */
export function sendRequest(
  prepared: PreparedRequest,
  port: number,
  agent: Agent | false,
): Promise<{ req: ClientRequest; res: IncomingMessage }> {
  const headers = prepared.headers.some(([k]) => k.toLowerCase() === 'host')
    ? prepared.headers
    : [['host', `127.0.0.1:${port}`] as const, ...prepared.headers];
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method: prepared.method,
        path: prepared.path,
        headers: headers.flat(),
        agent,
      },
      (res) => {
        // Errors after the head (a reset mid-body) surface from reading the body instead.
        req.on('error', () => undefined);
        resolve({ req, res });
      },
    );
    req.once('error', reject);
    req.end(prepared.body);
  });
}
