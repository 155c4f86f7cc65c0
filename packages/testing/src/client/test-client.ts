import { Agent, request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { buffer } from 'node:stream/consumers';
import { serve, type BaseApp, type RunningServer } from '@api/core';
import { isExpiredCookie, parseSetCookie } from '../cookies/parse-set-cookie';
import { buildMultipart, headerPairs, type HeaderInit } from '../multipart/build-multipart';
import {
  withQuery,
  type RequestOptions,
  type RequestWithBodyOptions,
  type RequestWithoutBodyOptions,
} from './request-options';
import { StreamSession } from './stream-session';
import { pairRawHeaders, TestResponse } from './test-response';

/** What the client drives: any app (it is served with core's own `serve()`). */
export type TestableApp = BaseApp<unknown>;

/** Options of `TestClient`. */
export interface TestClientOptions<TJar extends boolean = boolean> {
  /**
   * Keep a cookie jar: store every response's `Set-Cookie` values in `client.cookieJar`
   * (name → value, no path or domain scoping) and send them with later requests. Default false.
   */
  readonly cookieJar?: TJar;
}

/** The client's cookie jar type: a `Map` when enabled, `undefined` otherwise. */
export type CookieJarOf<TJar extends boolean> = TJar extends true ? Map<string, string> : undefined;

interface Prepared {
  readonly method: string;
  readonly path: string;
  readonly headers: Array<readonly [string, string]>;
  readonly body: Buffer | undefined;
}

const BODY_KEYS = ['json', 'content', 'data', 'files'] as const;
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

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
  #server: RunningServer | undefined;
  #port = 0;
  #starting: Promise<void> | undefined;
  #closing: Promise<void> | undefined;

  /**
   * @param app - The app to drive; it is started on `start()` or the first request.
   * @param options - `cookieJar` (default false).
   */
  constructor(app: TestableApp, options: TestClientOptions<TJar> = {}) {
    this.app = app;
    this.cookieJar = (
      options.cookieJar === true ? new Map<string, string>() : undefined
    ) as CookieJarOf<TJar>;
  }

  /**
   * Builds a client and starts it: resolves once `wire()` ran and the server listens.
   *
   * @param app - The app to drive.
   * @param options - `cookieJar` (default false).
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
   * `shutdownTimeoutMs`, drain hooks, the app's teardown). Idempotent; a client
   * that never started only waits for nothing.
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
    const explicit = headerPairs(headers).some(([name]) => name.toLowerCase() === 'cookie');
    if (explicit) {
      if (cookies !== undefined) {
        throw new TypeError(
          'TestClient: both `cookies` and an explicit Cookie header were given, which is ambiguous. Fix: pass the cookies one way.',
        );
      }
      return undefined;
    }
    const merged = new Map<string, string>(this.cookieJar ?? []);
    for (const [name, value] of Object.entries(cookies ?? {})) merged.set(name, value);
    if (merged.size === 0) return undefined;
    return [...merged].map(([name, value]) => `${name}=${value}`).join('; ');
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
    const { res } = await this.#send(prepared, this.#agent);
    const body = await buffer(res);
    const response = new TestResponse(
      res.statusCode ?? 0,
      res.statusMessage ?? '',
      pairRawHeaders(res.rawHeaders),
      body,
    );
    this.#remember(response.headers.getSetCookie());
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
    const { req, res } = await this.#send(prepared, false);
    const session = new StreamSession(req, res, (s) => this.#sessions.delete(s));
    this.#sessions.add(session);
    this.#remember(session.headers.getSetCookie());
    return session;
  }

  /**
   * Streams a `GET`.
   *
   * @param path - The path.
   * @param options - `params`, `headers`, `cookies` (no body).
   */
  async streamGet(path: string, options?: RequestWithoutBodyOptions): Promise<StreamSession> {
    return this.streamRequest('GET', path, this.#checkBodiless('streamGet', options));
  }

  /**
   * Streams a `DELETE`.
   *
   * @param path - The path.
   * @param options - `params`, `headers`, `cookies` (no body).
   */
  async streamDelete(path: string, options?: RequestWithoutBodyOptions): Promise<StreamSession> {
    return this.streamRequest('DELETE', path, this.#checkBodiless('streamDelete', options));
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

  // ---------------------------------------------------------------- internals

  async #bodiless(
    method: string,
    path: string,
    options: RequestWithoutBodyOptions | undefined,
  ): Promise<TestResponse> {
    return this.request(method, path, this.#checkBodiless(method.toLowerCase(), options));
  }

  #checkBodiless(name: string, options: RequestWithoutBodyOptions | undefined): RequestOptions {
    const given = BODY_KEYS.find((key) => options?.[key] !== undefined);
    if (given)
      throw new TypeError(
        `TestClient.${name}: takes no body (got \`${given}\`). Fix: use request() with an explicit method to send one.`,
      );
    return options ?? {};
  }

  #prepare(method: string, path: string, options: RequestWithBodyOptions): Prepared {
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
    const cookie = this.cookieHeaderFor(options.cookies, options.headers);
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

  #send(prepared: Prepared, agent: Agent | false): Promise<{ req: ClientRequest; res: IncomingMessage }> {
    const headers = prepared.headers.some(([k]) => k.toLowerCase() === 'host')
      ? prepared.headers
      : [['host', `127.0.0.1:${this.#port}`] as const, ...prepared.headers];
    return new Promise((resolve, reject) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port: this.#port,
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

  #remember(setCookies: readonly string[]): void {
    const jar = this.cookieJar;
    if (!jar) return;
    for (const line of setCookies) {
      const cookie = parseSetCookie(line);
      if (!cookie) continue;
      if (isExpiredCookie(cookie)) jar.delete(cookie.name);
      else jar.set(cookie.name, cookie.value);
    }
  }
}
