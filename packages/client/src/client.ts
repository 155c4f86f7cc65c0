import { readAnswer, type RawAnswer } from './call/answer';
import { ResponseError } from './call/errors';
import { METHODS, requestBody, setDeclaredHeaders, target } from './call/request';
import type { RouteRef } from './routes/route';
import { typedSocket, type WebSocketFactory, type WebSocketLike } from './socket/socket';
import type { Client, ClientCall } from './types/client';

/** A value, or a function returning it (called per request: e.g. a token that refreshes). */
export type Lazy<T> = T | (() => T | Promise<T>);

/** Options of `createClient`. */
export interface ClientOptions<TRoutes extends Readonly<Record<string, RouteRef>>> {
  /** Where the API is: `https://api.example`, or `''` / `'/api'` for the page's own origin. */
  readonly baseUrl: string;
  /** The mounts, each `route<RouteClass>('/path')`: one property of the client per entry. */
  readonly routes: TRoutes;
  /** Sent as `authorization: Bearer <token>` on every request and handshake, when set. */
  readonly bearer?: Lazy<string | undefined>;
  /** Headers sent on every request (before declared ones and `bearer`). [none] */
  readonly headers?: Lazy<Readonly<Record<string, string>>>;
  /** `'include'` sends cookies cross-origin (cookie auth); the platform default otherwise. */
  readonly credentials?: 'omit' | 'same-origin' | 'include';
  /** The fetch to call (tests, Bun, Deno, workerd, a wrapper that logs). [globalThis.fetch] */
  readonly fetch?: (request: Request) => Promise<Response>;
  /** Opens WebSockets. [the platform `WebSocket`, which cannot send headers] */
  readonly webSocket?: WebSocketFactory;
  /** Wait before an SSE reconnect, in ms, until the server sends `retry:`. [1000] */
  readonly sseRetryMs?: number;
}

type Input = Readonly<Record<string, unknown>> & {
  readonly signal?: AbortSignal;
  readonly reconnect?: boolean;
  readonly requestHeaders?: Readonly<Record<string, string>>;
  readonly protocols?: string[];
};

/** The platform's `WebSocket` (browsers, Deno, Bun, Node 22+); it cannot send headers. */
const platformSocket: WebSocketFactory = (url, protocols) => {
  const Platform = (globalThis as { WebSocket?: new (url: string, protocols?: string[]) => WebSocketLike })
    .WebSocket;
  if (!Platform)
    throw new TypeError(
      '@api/client: this platform has no WebSocket. Fix: pass webSocket: (url, protocols, headers) => ' +
        "new WebSocket(url, protocols, { headers }) with WebSocket from the 'ws' package.",
    );
  return new Platform(url, protocols);
};

const resolve = async <T>(value: Lazy<T>): Promise<T> =>
  typeof value === 'function' ? await (value as () => T | Promise<T>)() : value;

/**
 * Creates a typed client for the mounts in `routes`. Each mount offers its route class's
 * operations (`api.widgets.readOne({ path: { widget_id } })`), typed from the class through
 * `import type`; a WebSocket endpoint offers `connect`. Calls resolve to a union by status, or
 * use `.orThrow()` for the data. The second type parameter names the app's exception handlers (or
 * error classes) whose declared answers any call may carry: `createClient<typeof routes, AppErrors>`.
 *
 * @param options - `baseUrl`, `routes`, and optional `bearer`, `headers`, `credentials`, `fetch`, `webSocket`
 * @example
 * import { createClient, route } from '@api/client';
 * import type { WidgetResource } from '../server/widgets';
 *
 * const api = createClient({ baseUrl: 'https://api.example', routes: { widgets: route<WidgetResource>('/widgets') } });
 * const answer = await api.widgets.readOne({ path: { widget_id: '42' } });
 * if (answer.ok) console.log(answer.data.name);
 * else if (answer.status === 404) console.log(answer.error.detail);
 */
export function createClient<const TRoutes extends Readonly<Record<string, RouteRef>>, TAppErrors = never>(
  options: ClientOptions<TRoutes>,
): Client<TRoutes, TAppErrors> {
  const base = options.baseUrl.replace(/\/+$/, '');
  const doFetch = options.fetch ?? ((request: Request) => fetch(request));

  async function commonHeaders(): Promise<Headers> {
    const headers = new Headers(options.headers ? await resolve(options.headers) : undefined);
    const token = options.bearer ? await resolve(options.bearer) : undefined;
    if (token) headers.set('authorization', `Bearer ${token}`);
    return headers;
  }

  async function send(ref: RouteRef, operation: string, input: Input): Promise<RawAnswer> {
    const method = METHODS[operation]!;
    const url = base + target(ref.path, input.path as Input | undefined, input.params as Input | undefined);
    const open = async (lastEventId?: string): Promise<Response> => {
      const headers = await commonHeaders();
      for (const [name, value] of Object.entries(input.requestHeaders ?? {})) headers.set(name, value);
      setDeclaredHeaders(headers, input.headers as Input | undefined, input.cookies as Input | undefined);
      if (lastEventId !== undefined) headers.set('last-event-id', lastEventId);
      const body = requestBody(input, headers);
      const init: RequestInit = { method, headers };
      if (body !== undefined) init.body = body;
      if (input.signal) init.signal = input.signal;
      if (options.credentials) init.credentials = options.credentials;
      return doFetch(new Request(url, init));
    };
    return readAnswer(await open(), {
      method,
      signal: input.signal,
      reconnect: input.reconnect ?? true,
      retryMs: options.sseRetryMs ?? 1000,
      reopen: open,
    });
  }

  function call(ref: RouteRef, operation: string, input: Input = {}): ClientCall<RawAnswer> {
    const answer = send(ref, operation, input) as ClientCall<RawAnswer>;
    answer.orThrow = () =>
      answer.then((a) => {
        if (a.ok) return a.data as never;
        throw new ResponseError(a as RawAnswer & { error: unknown });
      });
    return answer;
  }

  async function connect(ref: RouteRef, input: Input = {}) {
    const url = new URL(
      base + target(ref.path, input.path as Input | undefined, input.params as Input | undefined),
      (globalThis as { location?: { href: string } }).location?.href,
    );
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    // The handshake's headers (credentials, defaults, declared) go to a factory that can send them.
    const headers: Record<string, string> = {};
    const common = await commonHeaders();
    setDeclaredHeaders(common, input.headers as Input | undefined, input.cookies as Input | undefined);
    common.forEach((value, name) => (headers[name] = value));
    const open = options.webSocket ?? platformSocket;
    const socket = typedSocket(open(url.href, input.protocols, headers), ref.text === true, input.signal);
    await socket.opened;
    return socket;
  }

  const client: Record<string, Record<string, unknown>> = {};
  for (const [name, ref] of Object.entries(options.routes)) {
    const mount: Record<string, unknown> = { connect: (input?: Input) => connect(ref, input) };
    for (const operation of Object.keys(METHODS))
      mount[operation] = (input?: Input) => call(ref, operation, input);
    client[name] = mount;
  }
  return client as Client<TRoutes, TAppErrors>;
}
