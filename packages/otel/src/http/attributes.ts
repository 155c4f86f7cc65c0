// The stable HTTP semantic conventions of a server span (semconv 1.45, checked against
// @opentelemetry/semantic-conventions in the tests), computed from core's exchange.
import type { Attributes } from '@opentelemetry/api';
import type { Exchange, RequestHead } from '@api/core/extension';

/** What the attributes read of the app: its one trust-proxy setting, applied (`Wiring` is one). */
export interface RequestFacts {
  /** The client's address under the app's `trustProxy` (a trusted proxy's `X-Forwarded-For`). */
  clientAddress(req: RequestHead): string | undefined;
  /** `https` over TLS, for a `https:` fetch `Request`, or from a trusted `X-Forwarded-Proto`. */
  requestScheme(req: RequestHead): 'http' | 'https';
}

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
export const ATTR_NETWORK_PEER_ADDRESS = 'network.peer.address';
export const ATTR_NETWORK_PEER_PORT = 'network.peer.port';
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

/** The `http.request.method` of a method: itself when the conventions know it, else `_OTHER`. */
export function methodAttribute(method: string): string {
  return KNOWN_METHODS.has(method) ? method : '_OTHER';
}

/** What a sampler may read: given at the span's start. */
export function startAttributes(ex: Exchange, route: string | undefined, facts: RequestFacts): Attributes {
  const attributes: Attributes = {
    [ATTR_HTTP_REQUEST_METHOD]: methodAttribute(ex.method),
    [ATTR_URL_PATH]: ex.path,
    [ATTR_URL_SCHEME]: facts.requestScheme(ex.req),
  };
  if (route !== undefined) attributes[ATTR_HTTP_ROUTE] = route;
  return attributes;
}

/** The rest, set only on a recording span (a no-op tracer pays none of it). */
export function requestAttributes(ex: Exchange, facts: RequestFacts): Attributes {
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
  const client = facts.clientAddress(req);
  if (client !== undefined) attributes[ATTR_CLIENT_ADDRESS] = client;
  // The connection's peer (the proxy, behind one): absent on the fetch transport.
  const socket = req.socket;
  if (socket?.remoteAddress !== undefined) attributes[ATTR_NETWORK_PEER_ADDRESS] = socket.remoteAddress;
  if (socket?.remotePort !== undefined) attributes[ATTR_NETWORK_PEER_PORT] = socket.remotePort;
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
