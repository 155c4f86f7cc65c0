import type { ResponseCookie } from '../cookies/parse-set-cookie';
import type { HeaderPairs, ResponseHeaders, TestResponse } from '../client/test-response';

/**
 * A refused WebSocket handshake: the server answered with an HTTP response instead of
 * `101 Switching Protocols` (401 without credentials, 403 for a foreign `Origin`, 426 for a plain
 * GET, …). `client.websocket` rejects with it; it reads like a `TestResponse` (`status`,
 * `headers`, `body`, `text`, `json()`, `cookies`), and `response` is the captured response itself.
 *
 * @example
 * const denied = await client.websocket('/chat', chat).catch((e: unknown) => e);
 * if (!(denied instanceof WebSocketDenied)) throw new Error('the handshake was accepted');
 * denied.status; // 401
 * denied.json(); // { type: 'authentication-required', title: 'Authentication required', status: 401 }
 */
export class WebSocketDenied extends Error {
  override readonly name = 'WebSocketDenied';
  /** The HTTP response the server answered the handshake with. */
  readonly response: TestResponse;

  /** @param response - The refusal, captured. */
  constructor(response: TestResponse) {
    super(`WebSocket handshake refused with ${response.status}: ${response.text.slice(0, 200)}`);
    this.response = response;
  }

  /** The refusal's status code. */
  get status(): number {
    return this.response.status;
  }

  /** The status line's reason phrase. */
  get statusText(): string {
    return this.response.statusText;
  }

  /** Case-insensitive header access. */
  get headers(): ResponseHeaders {
    return this.response.headers;
  }

  /** The wire header list: `[name, value]` pairs in order, names as sent, repeats kept. */
  get multiHeaders(): HeaderPairs {
    return this.response.multiHeaders;
  }

  /** The parsed `Set-Cookie` lines keyed by cookie name. */
  get cookies(): Readonly<Record<string, ResponseCookie>> {
    return this.response.cookies;
  }

  /** The body bytes. */
  get body(): Buffer {
    return this.response.body;
  }

  /** The body decoded as UTF-8. */
  get text(): string {
    return this.response.text;
  }

  /** The body parsed as JSON (`T` is an assertion, not a check). */
  json<T = unknown>(): T {
    return this.response.json<T>();
  }
}
