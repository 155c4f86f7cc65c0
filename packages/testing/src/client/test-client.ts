import { Agent } from 'node:http';
import { buffer } from 'node:stream/consumers';
import { serve, type RunningServer } from '@api/core';
import type { HeaderInit } from '../multipart/build-multipart';
import type { WebSocketFraming, WebSocketReceive, WebSocketSend } from '../websocket/framing';
import { openWebSocket, type HandshakeTarget } from '../websocket/open-websocket';
import type { WebSocketSessionOptions } from '../websocket/websocket-options';
import type { WebSocketSession } from '../websocket/websocket-session';
import {
  checkClientArguments,
  type CookieJarOf,
  type TestableApp,
  type TestClientOptions,
} from './client-options';
import { cookieHeader, rememberCookies } from './cookie-jar';
import { checkBodiless, prepareRequest, sendRequest, type PreparedRequest } from './prepare-request';
import type { RequestWithBodyOptions, RequestWithoutBodyOptions } from './request-options';
import { StreamSession } from './stream-session';
import { pairRawHeaders, TestResponse } from './test-response';

/**
 * An in-process client for an app: it starts the app (runs `wire()`), serves it on
 * `127.0.0.1` at a free port, and sends real HTTP/1.1 requests, so tests see exactly what
 * the wire carries (raw header lists with repeats included). `close()` — or the end of an
 * `await using` scope — drains and shuts the app down. The first request starts the app if
 * `start()` was not called; a wiring failure rejects with the `WiringError` itself.
 *
 * @example
 * await using client = await TestClient.start(new App(), { cookieJar: true });
 * const res = await client.post('/login', { json: { name: 'ada' } });
 * expect(client.cookieJar.get('session_id')).toBe('ada');
 * expect((await client.get('/me')).json()).toEqual({ name: 'ada' });
 */
export class TestClient<TJar extends boolean = boolean> implements AsyncDisposable {
  /** The app under test. */
  readonly app: TestableApp;
  /** The cookie jar (`cookieJar: true`), name → value; edit it freely between requests. */
  readonly cookieJar: CookieJarOf<TJar>;
  readonly #agent = new Agent({ keepAlive: true });
  readonly #sessions = new Set<StreamSession>();
  readonly #websockets = new Set<WebSocketSession<unknown, unknown>>();
  #server: RunningServer | undefined;
  #port = 0;
  #starting: Promise<void> | undefined;
  #closing: Promise<void> | undefined;

  /**
   * @param app - The app to drive (an instance, not the class); it is started on `start()` or the first request.
   * @param options - `cookieJar` (default false).
   * @throws WiringError - When `app` is not a `BaseApp` instance or an option is unknown or mistyped.
   */
  constructor(app: TestableApp, options: TestClientOptions<TJar> = {}) {
    const checked = checkClientArguments(app, options);
    this.app = app;
    this.cookieJar = (
      checked.cookieJar === true ? new Map<string, string>() : undefined
    ) as CookieJarOf<TJar>;
  }

  /**
   * Builds a client and starts it: resolves once `wire()` ran and the server listens.
   *
   * @param app - The app to drive.
   * @param options - `cookieJar` (default false).
   * @throws WiringError - As the constructor does (a rejected promise).
   * @example
   * await using client = await TestClient.start(new App());
   */
  static async start<TJar extends boolean = false>(
    app: TestableApp,
    options: TestClientOptions<TJar> = {},
  ): Promise<TestClient<TJar>> {
    return new TestClient<TJar>(app, options).start();
  }

  /** The origin the app is served on (`http://127.0.0.1:<port>`), once started. */
  get url(): string {
    if (!this.#server) throw new Error('TestClient: not started; await client.start() first');
    return `http://127.0.0.1:${this.#port}`;
  }

  /**
   * Starts the app (runs `wire()` once) and listens on a free port. Idempotent; rejects with
   * the app's `WiringError` when wiring fails.
   */
  async start(): Promise<this> {
    if (this.#closing) throw new Error('TestClient: closed; build a new client');
    this.#starting ??= this.#start();
    await this.#starting;
    return this;
  }

  async #start(): Promise<void> {
    // The same server, limits and shutdown phases as production: core's serve() on a free port.
    const running = await serve(this.app, { port: 0, host: '127.0.0.1', signals: false, quiet: true });
    // A forgotten close() must not keep the test process alive.
    running.server.unref();
    this.#port = running.port;
    this.#server = running;
  }

  /**
   * Shuts down: closes open stream sessions, then the server exactly as `serve()` does on
   * SIGTERM (stop accepting, before-close hooks, in-flight requests bounded by the app's
   * `shutdownTimeoutMs`, drain hooks, the app's teardown). Open WebSocket sessions are left to
   * the server's shutdown, so they see what a real client sees (`@api/ws` closes them with 1001);
   * any still open afterwards are cut. Idempotent; a client that never started only waits for
   * nothing.
   */
  close(): Promise<void> {
    this.#closing ??= this.#close();
    return this.#closing;
  }

  async #close(): Promise<void> {
    if (!this.#starting) return;
    try {
      await this.#starting;
    } catch {
      // The start failure was reported to whoever started; the app already unwound.
      return;
    }
    await Promise.all([...this.#sessions].map((s) => s.close()));
    this.#agent.destroy();
    // Stop accepting → before-close → in-flight (capped) → drain → the app's exit stack.
    await this.#server?.close();
    await Promise.all([...this.#websockets].map((ws) => ws.terminate()));
  }

  /** Same as `close()`, for `await using`. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  /**
   * The `Cookie` header value a request (or a WebSocket handshake) should carry: the jar merged
   * with `cookies` (which win on a name collision). Returns `undefined` when there is nothing
   * to send, or when `headers` already hold an explicit `Cookie` header (which suppresses the
   * jar). Throws a `TypeError` when both `cookies` and an explicit `Cookie` header are given.
   *
   * @param cookies - Per-request cookies.
   * @param headers - The request's explicit headers, to detect a `Cookie` header (any case).
   * @example
   * const cookie = client.cookieHeaderFor({ session_id: 'abc' }); // 'theme=dark; session_id=abc'
   */
  cookieHeaderFor(cookies?: Readonly<Record<string, string>>, headers?: HeaderInit): string | undefined {
    return cookieHeader(this.cookieJar, cookies, headers);
  }

  /**
   * Sends a request with any method and returns the captured response.
   *
   * @param method - The HTTP method (any case; sent uppercased).
   * @param path - The path, optionally with a query string.
   * @param options - `params`, `headers`, `cookies`, and at most one body: `json`, `content`, or `data`/`files`.
   * @example
   * const res = await client.request('PUT', '/widgets/1', { json: { name: 'w' } });
   */
  async request(method: string, path: string, options: RequestWithBodyOptions = {}): Promise<TestResponse> {
    const prepared = this.#prepare(method, path, options);
    await this.start();
    const { res } = await sendRequest(prepared, this.#port, this.#agent);
    const body = await buffer(res);
    const response = new TestResponse(
      res.statusCode ?? 0,
      res.statusMessage ?? '',
      pairRawHeaders(res.rawHeaders),
      body,
    );
    rememberCookies(this.cookieJar, response.headers.getSetCookie());
    return response;
  }

  /**
   * Sends `GET`.
   *
   * @param path - The path.
   * @param options - `params`, `headers`, `cookies` (no body).
   */
  get(path: string, options?: RequestWithoutBodyOptions): Promise<TestResponse> {
    return this.#bodiless('GET', path, options);
  }

  /**
   * Sends `HEAD` (the captured body is empty).
   *
   * @param path - The path.
   * @param options - `params`, `headers`, `cookies` (no body).
   */
  head(path: string, options?: RequestWithoutBodyOptions): Promise<TestResponse> {
    return this.#bodiless('HEAD', path, options);
  }

  /**
   * Sends `OPTIONS`.
   *
   * @param path - The path.
   * @param options - `params`, `headers`, `cookies` (no body).
   */
  options(path: string, options?: RequestWithoutBodyOptions): Promise<TestResponse> {
    return this.#bodiless('OPTIONS', path, options);
  }

  /**
   * Sends `DELETE` (no body; use `request('DELETE', …)` to send one anyway).
   *
   * @param path - The path.
   * @param options - `params`, `headers`, `cookies` (no body).
   */
  delete(path: string, options?: RequestWithoutBodyOptions): Promise<TestResponse> {
    return this.#bodiless('DELETE', path, options);
  }

  /**
   * Sends `POST`.
   *
   * @param path - The path.
   * @param options - `params`, `headers`, `cookies`, and a body: `json`, `content`, or `data`/`files`.
   */
  post(path: string, options?: RequestWithBodyOptions): Promise<TestResponse> {
    return this.request('POST', path, options);
  }

  /**
   * Sends `PUT`.
   *
   * @param path - The path.
   * @param options - `params`, `headers`, `cookies`, and a body: `json`, `content`, or `data`/`files`.
   */
  put(path: string, options?: RequestWithBodyOptions): Promise<TestResponse> {
    return this.request('PUT', path, options);
  }

  /**
   * Sends `PATCH`.
   *
   * @param path - The path.
   * @param options - `params`, `headers`, `cookies`, and a body: `json`, `content`, or `data`/`files`.
   */
  patch(path: string, options?: RequestWithBodyOptions): Promise<TestResponse> {
    return this.request('PATCH', path, options);
  }

  /**
   * Sends a request and resolves once the response head arrives, with a session to read the
   * body from as it streams. The session runs on its own connection; leaving it early
   * disconnects the client.
   *
   * @param method - The HTTP method.
   * @param path - The path.
   * @param options - As for `request`.
   * @example
   * await using session = await client.streamRequest('GET', '/feed');
   * for await (const item of session.ndjson()) console.log(item);
   */
  async streamRequest(
    method: string,
    path: string,
    options: RequestWithBodyOptions = {},
  ): Promise<StreamSession> {
    const prepared = this.#prepare(method, path, options);
    await this.start();
    // agent: false gives the session a connection of its own, safe to destroy at any point.
    const { req, res } = await sendRequest(prepared, this.#port, false);
    const session = new StreamSession(req, res, (s) => this.#sessions.delete(s));
    this.#sessions.add(session);
    rememberCookies(this.cookieJar, session.headers.getSetCookie());
    return session;
  }

  /**
   * Streams a `GET`.
   *
   * @param path - The path.
   * @param options - `params`, `headers`, `cookies` (no body).
   */
  async streamGet(path: string, options?: RequestWithoutBodyOptions): Promise<StreamSession> {
    return this.streamRequest('GET', path, checkBodiless('streamGet', options));
  }

  /**
   * Streams a `DELETE`.
   *
   * @param path - The path.
   * @param options - `params`, `headers`, `cookies` (no body).
   */
  async streamDelete(path: string, options?: RequestWithoutBodyOptions): Promise<StreamSession> {
    return this.streamRequest('DELETE', path, checkBodiless('streamDelete', options));
  }

  /**
   * Streams a `POST`.
   *
   * @param path - The path.
   * @param options - As for `post`.
   */
  streamPost(path: string, options?: RequestWithBodyOptions): Promise<StreamSession> {
    return this.streamRequest('POST', path, options);
  }

  /**
   * Streams a `PUT`.
   *
   * @param path - The path.
   * @param options - As for `put`.
   */
  streamPut(path: string, options?: RequestWithBodyOptions): Promise<StreamSession> {
    return this.streamRequest('PUT', path, options);
  }

  /**
   * Streams a `PATCH`.
   *
   * @param path - The path.
   * @param options - As for `patch`.
   */
  streamPatch(path: string, options?: RequestWithBodyOptions): Promise<StreamSession> {
    return this.streamRequest('PATCH', path, options);
  }

  /**
   * Opens a WebSocket to the app, typed from the endpoint's framings: `send` takes what
   * `inbound` accepts, `receive` gives what `outbound` sends (validated on arrival). The
   * handshake carries the cookie jar merged with `cookies` (which win on a name collision; an
   * explicit `Cookie` header suppresses the jar), `headers` and `params`; `Set-Cookie` lines of
   * the handshake response reach the jar. Resolves once open; a refused handshake rejects with
   * `WebSocketDenied` (status, headers and body of the HTTP answer). Wrong arguments reject
   * with a `WiringError`.
   *
   * @param path - The endpoint path (starting with `/`, may carry a query).
   * @param options - `inbound` and `outbound` (required); `params`, `headers`, `cookies`, `protocols` (default none).
   * @example
   * await using ws = await client.websocket('/websocket/c1', {
   *   inbound: PingRequest,
   *   outbound: PingResponse,
   *   headers: { authorization: 'Bearer token' },
   * });
   * await ws.send({ type: 'ping-request', requestId: 'r1', message: 'hi' });
   * const pong = await ws.receive(); // typed from PingResponse
   */
  websocket<const TIn extends WebSocketFraming, const TOut extends WebSocketFraming>(
    path: string,
    options: WebSocketSessionOptions<TIn, TOut>,
  ): Promise<WebSocketSession<WebSocketSend<TIn>, WebSocketReceive<TOut>>> {
    return openWebSocket(this.#handshake, path, options);
  }

  // ---------------------------------------------------------------- internals

  /** The client's side of a WebSocket handshake (see `openWebSocket`). */
  readonly #handshake: HandshakeTarget = {
    origin: async () => (await this.start()).url,
    cookieHeader: (cookies, headers) => this.cookieHeaderFor(cookies, headers),
    remember: (setCookies) => rememberCookies(this.cookieJar, setCookies),
    track: (session) => {
      this.#websockets.add(session);
      void session.closed.then(() => this.#websockets.delete(session));
    },
  };

  async #bodiless(
    method: string,
    path: string,
    options: RequestWithoutBodyOptions | undefined,
  ): Promise<TestResponse> {
    return this.request(method, path, checkBodiless(method.toLowerCase(), options));
  }

  #prepare(method: string, path: string, options: RequestWithBodyOptions): PreparedRequest {
    return prepareRequest(method, path, options, (cookies, headers) =>
      this.cookieHeaderFor(cookies, headers),
    );
  }
}
