// The stable HTTP semantic conventions of a server span (semconv 1.45, checked against
// @opentelemetry/semantic-conventions in the tests), computed from core's exchange.
import type { Attributes } from '@opentelemetry/api';
import type { Exchange } from '@api/core/extension';

export const ATTR_HTTP_REQUEST_METHOD = 'http.request.method';
export const ATTR_HTTP_REQUEST_METHOD_ORIGINAL = 'http.request.method_original';
export const ATTR_HTTP_ROUTE = 'http.route';
export const ATTR_HTTP_RESPONSE_STATUS_CODE = 'http.response.status_code';
export const ATTR_URL_PATH = 'url.path';
export const ATTR_URL_QUERY = 'url.query';
export const ATTR_URL_SCHEME = 'url.scheme';
export const ATTR_SERVER_ADDRESS = 'server.address';
export const ATTR_SERVER_PORT = 'server.port';
export const ATTR_CLIENT_ADDRESS = 'client.address';
export const ATTR_NETWORK_PROTOCOL_VERSION = 'network.protocol.version';
export const ATTR_USER_AGENT_ORIGINAL = 'user_agent.original';
export const ATTR_ERROR_TYPE = 'error.type';
/** The close code of a WebSocket session's span (no semantic convention names one yet). */
export const ATTR_WEBSOCKET_CLOSE_CODE = 'websocket.close.code';

/** The methods the conventions name; any other is `_OTHER` (its spelling kept in `method_original`). */
const KNOWN_METHODS: ReadonlySet<string> = new Set([
  'CONNECT',
  'DELETE',
  'GET',
  'HEAD',
  'OPTIONS',
  'PATCH',
  'POST',
  'PUT',
  'QUERY',
  'TRACE',
]);

/** Query parameters whose values the conventions say to redact (signed URLs). */
const SENSITIVE_QUERY: ReadonlySet<string> = new Set([
  'AWSAccessKeyId',
  'Signature',
  'sig',
  'X-Goog-Signature',
]);

/**
 * The span name: `GET /widgets/{widget_id}` (the route template, never the raw path), or the
 * method alone when nothing was routed; `HTTP` stands for a method the conventions do not know.
 */
export function spanName(method: string, route: string | undefined): string {
  const known = KNOWN_METHODS.has(method) ? method : 'HTTP';
  return route === undefined ? known : `${known} ${route}`;
}

/** What a sampler may read: given at the span's start. */
export function startAttributes(ex: Exchange, route: string | undefined): Attributes {
  const attributes: Attributes = {
    [ATTR_HTTP_REQUEST_METHOD]: KNOWN_METHODS.has(ex.method) ? ex.method : '_OTHER',
    [ATTR_URL_PATH]: ex.path,
    [ATTR_URL_SCHEME]: 'http',
  };
  if (route !== undefined) attributes[ATTR_HTTP_ROUTE] = route;
  return attributes;
}

/** The rest, set only on a recording span (a no-op tracer pays none of it). */
export function requestAttributes(ex: Exchange): Attributes {
  const req = ex.req;
  const attributes: Attributes = { [ATTR_NETWORK_PROTOCOL_VERSION]: req.httpVersion };
  if (!KNOWN_METHODS.has(ex.method)) attributes[ATTR_HTTP_REQUEST_METHOD_ORIGINAL] = ex.method;
  if (ex.query !== '') attributes[ATTR_URL_QUERY] = redactQuery(ex.query);
  const host = req.headers.host;
  if (host !== undefined) {
    const { address, port } = splitHost(host);
    attributes[ATTR_SERVER_ADDRESS] = address;
    if (port !== undefined) attributes[ATTR_SERVER_PORT] = port;
  }
  const client = req.socket?.remoteAddress;
  if (client !== undefined) attributes[ATTR_CLIENT_ADDRESS] = client;
  const agent = req.headers['user-agent'];
  if (agent !== undefined) attributes[ATTR_USER_AGENT_ORIGINAL] = agent;
  return attributes;
}

/** `example.com:8080` → address and port; `[::1]:8000` keeps the brackets out. */
export function splitHost(host: string): { address: string; port: number | undefined } {
  let address = host;
  let rest = '';
  if (host.startsWith('[')) {
    const close = host.indexOf(']');
    address = close < 0 ? host : host.slice(1, close);
    rest = close < 0 ? '' : host.slice(close + 1);
  } else {
    const colon = host.lastIndexOf(':');
    if (colon >= 0) {
      address = host.slice(0, colon);
      rest = host.slice(colon);
    }
  }
  const port = rest.startsWith(':') && /^\d{1,5}$/.test(rest.slice(1)) ? Number(rest.slice(1)) : undefined;
  return { address, port };
}

/** The query with the values of signing parameters replaced by `REDACTED`. */
export function redactQuery(query: string): string {
  if (!query.includes('=')) return query;
  return query
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      return eq > 0 && SENSITIVE_QUERY.has(pair.slice(0, eq)) ? `${pair.slice(0, eq)}=REDACTED` : pair;
    })
    .join('&');
}
