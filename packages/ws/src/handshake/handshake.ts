// The handshake checks `ws` would make itself (and answer with its own bare 400), made first so
// core's error funnel answers; subprotocol negotiation; and the 101's share of the route's headers.
import type { MalformedRequestError } from '@api/core';
import { badRequest, describeValue, wiringError, type Exchange, type RequestHead } from '@api/core/extension';

const KEY = /^[+/0-9A-Za-z]{22}==$/;
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const TOKENS = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+(?:[ \t]*,[ \t]*[!#$%&'*+\-.^_`|~0-9A-Za-z]+)*$/;

/** Set on a request refused for its `Sec-WebSocket-Version`: its 400 advertises `13`. */
export const kBadVersion = Symbol('@api/ws.badVersion');

/**
 * Headers a 101 cannot take from the route's header block: `ws` writes the framing and the
 * handshake's own fields, and a second copy would break the upgrade.
 */
const OWNED_BY_THE_UPGRADE = new Set([
  'connection',
  'upgrade',
  'content-length',
  'transfer-encoding',
  'keep-alive',
  'trailer',
  'sec-websocket-accept',
  'sec-websocket-protocol',
  'sec-websocket-extensions',
  'sec-websocket-version',
]);
const HEADER_NAME = TOKEN;
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

function badHeader(header: string, message: string): MalformedRequestError {
  return badRequest(`header ${header}`, message);
}

/**
 * Checks the handshake's version, key and offered subprotocols (400 `malformed-request`, before
 * the upgrade) and returns the subprotocols offered, in the client's order of preference.
 *
 * @param ex - the exchange (a bad version marks it, so its 400 carries `sec-websocket-version: 13`)
 * @param req - the handshake request
 */
export function checkHandshake(ex: Exchange, req: RequestHead): readonly string[] {
  const version = req.headers['sec-websocket-version'];
  if (version !== '13' && version !== '8') {
    ex.state[kBadVersion] = true;
    throw badHeader('sec-websocket-version', 'Unsupported WebSocket version (expected 13)');
  }
  const key = req.headers['sec-websocket-key'];
  if (typeof key !== 'string' || !KEY.test(key))
    throw badHeader('sec-websocket-key', 'Invalid Sec-WebSocket-Key (expected 16 base64-encoded bytes)');
  const protocols = req.headers['sec-websocket-protocol'];
  if (protocols === undefined) return [];
  const list = protocols.split(',').map((p) => p.trim());
  if (!TOKENS.test(protocols.trim()) || new Set(list).size !== list.length)
    throw badHeader('sec-websocket-protocol', 'Invalid Sec-WebSocket-Protocol (expected distinct tokens)');
  return list;
}

/**
 * The subprotocols an endpoint speaks, checked when the class is declared: distinct tokens
 * (RFC 6455 §4.1), at least one when given.
 *
 * @param label - `WebSocketEndpoint("/chat")`, for the error
 * @param given - the `protocols` option
 */
export function compileProtocols(label: string, given: unknown): readonly string[] {
  if (given === undefined) return [];
  const fix = "list the subprotocols the endpoint speaks, e.g. protocols: ['chat.v2', 'chat.v1']";
  if (!Array.isArray(given) || given.length === 0)
    throw wiringError(
      'API_WIRING_WS_PROTOCOL',
      label,
      `protocols must be a non-empty list of subprotocol names, got ${Array.isArray(given) ? 'an empty list' : describeValue(given)}`,
      fix,
    );
  for (const p of given as unknown[]) {
    if (typeof p !== 'string' || !TOKEN.test(p))
      throw wiringError(
        'API_WIRING_WS_PROTOCOL',
        label,
        `protocols entry ${typeof p === 'string' ? JSON.stringify(p) : describeValue(p)} is not a subprotocol name (a token: letters, digits and !#$%&'*+-.^_\`|~, no spaces or commas)`,
        fix,
      );
  }
  if (new Set(given).size !== given.length)
    throw wiringError('API_WIRING_DUPLICATE', label, 'protocols lists a subprotocol twice', fix);
  return Object.freeze([...(given as string[])]);
}

/**
 * The subprotocol to answer with: the client's first preference that the endpoint declares.
 * Offering only undeclared ones (or any, to an endpoint that declares none) is a 400 before the
 * upgrade — answering 101 without one would claim the server speaks what it does not, and a
 * browser fails such a connection with no reason given. The reason lists what the endpoint
 * accepts, never what was offered (no submitted value is ever echoed).
 *
 * @param offered - from `checkHandshake`, in the client's order
 * @param declared - the endpoint's `protocols`
 */
export function selectProtocol(offered: readonly string[], declared: readonly string[]): string | undefined {
  if (offered.length === 0) return undefined;
  for (const p of offered) if (declared.includes(p)) return p;
  throw badHeader(
    'sec-websocket-protocol',
    declared.length === 0
      ? 'This endpoint speaks no subprotocol; send no Sec-WebSocket-Protocol'
      : `None of the offered subprotocols is spoken here (expected one of: ${declared.join(', ')})`,
  );
}

/**
 * The route's header block for the 101 (CORS, middleware `responseHeaders`, constants and those
 * computed for 101), as `Name: value` lines for `ws`'s `headers` event. A computed header the
 * upgrade owns (`connection`, `upgrade`, `sec-websocket-*`, framing) or that cannot be sent
 * throws, before anything is upgraded: the funnel answers a logged 500 rather than a broken 101.
 *
 * @param ex - the exchange of the handshake
 */
export function upgradeHeaders(ex: Exchange): readonly string[] {
  const pairs = ex.routeHeaders(101);
  const lines: string[] = [];
  for (let i = 0; i < pairs.length; i += 2) {
    const name = pairs[i]!;
    const value = pairs[i + 1]!;
    const lower = name.toLowerCase();
    if (OWNED_BY_THE_UPGRADE.has(lower))
      throw new TypeError(
        `the route's response headers set "${lower}", which the WebSocket upgrade writes itself (not sent on a 101)`,
      );
    if (!HEADER_NAME.test(name) || !HEADER_VALUE.test(value))
      throw new TypeError(
        `the route's response header "${lower}" cannot be sent (not a header name or value)`,
      );
    lines.push(`${name}: ${value}`);
  }
  return lines;
}
