import { ndjson } from '../streams/ndjson';
import { sseEvents, type SSEEvent, type SSEState } from '../streams/sse';
import { ResponseError } from './errors';
import { toHeaderName } from './header-name';

/** A decoded answer, before its type is narrowed by the operation's declaration. */
export interface RawAnswer {
  readonly ok: boolean;
  readonly status: number;
  readonly data?: unknown;
  readonly error?: unknown;
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly response: Response;
}

/** Reads typed response headers by field name (`xTraceId` → `x-trace-id`), as sent. */
function headerView(headers: Headers): Readonly<Record<string, string | undefined>> {
  return new Proxy(
    {},
    {
      get: (_, name) =>
        typeof name === 'string' ? (headers.get(toHeaderName(name)) ?? undefined) : undefined,
      has: (_, name) => typeof name === 'string' && headers.has(toHeaderName(name)),
    },
  );
}

const mediaType = (response: Response): string =>
  (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
const isJson = (type: string): boolean => type === 'application/json' || type.endsWith('+json');

/** A byte body that ends (instead of erroring) when the caller aborts. */
function bytes(
  body: ReadableStream<Uint8Array> | null,
  signal: AbortSignal | undefined,
): ReadableStream<Uint8Array> {
  const reader = body?.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!reader) return controller.close();
      try {
        const chunk = await reader.read();
        if (chunk.done) controller.close();
        else controller.enqueue(chunk.value);
      } catch (error) {
        if (signal?.aborted) controller.close();
        else controller.error(error);
      }
    },
    cancel: (reason) => reader?.cancel(reason),
  });
}

/** An error body: JSON (Problems and `StructHTTPError` bodies), else the text as sent, else undefined. */
async function errorBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return undefined;
  if (isJson(mediaType(response))) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}

/** Opens the same SSE call again, resuming after `lastEventId`. */
export type Reopen = (lastEventId: string | undefined) => Promise<Response>;

/** Call options the answer reader needs. */
export interface ReadOptions {
  readonly method: string;
  readonly signal: AbortSignal | undefined;
  /** Reconnect an SSE subscription when its connection ends (default true). */
  readonly reconnect: boolean;
  /** Wait before reconnecting, in ms, until the server sends `retry:`. */
  readonly retryMs: number;
  readonly reopen: Reopen;
}

const sleep = (ms: number, signal: AbortSignal | undefined): Promise<void> =>
  new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });

/**
 * An SSE subscription: the events of this connection, then — when it ends (the server closed it,
 * the network dropped) — a new connection with `Last-Event-ID`, as EventSource does. It stops when
 * the caller aborts or breaks, when a reconnect is answered 204, and throws a `ResponseError` when
 * a reconnect is answered with an error.
 */
async function* subscription<T>(
  first: Response,
  options: ReadOptions,
): AsyncGenerator<SSEEvent<T>, void, undefined> {
  const state: SSEState = { lastEventId: undefined, retry: undefined };
  let response = first;
  for (;;) {
    try {
      yield* sseEvents<T>(response.body, state, options.signal);
    } catch (error) {
      // A dropped connection: reconnect below (unless this is the caller's abort).
      if (!options.reconnect) throw error;
    }
    if (options.signal?.aborted || !options.reconnect) return;
    await sleep(state.retry ?? options.retryMs, options.signal);
    if (options.signal?.aborted) return;
    try {
      response = await options.reopen(state.lastEventId);
    } catch {
      if (options.signal?.aborted) return;
      // The server is away: keep the empty body and try again after the delay.
      response = new Response(null);
      continue;
    }
    if (response.status === 204) return;
    if (!response.ok)
      throw new ResponseError({ status: response.status, error: await errorBody(response), response });
  }
}

/**
 * Decodes a response by its status and media type: NDJSON and SSE bodies become async
 * iterables, JSON is parsed, `text/plain` is read as text, any other body is a byte stream.
 *
 * @param response - the fetch response
 * @param options - the call's method, signal and SSE reconnection
 */
export async function readAnswer(response: Response, options: ReadOptions): Promise<RawAnswer> {
  const headers = headerView(response.headers);
  const status = response.status;
  if (!response.ok) return { ok: false, status, error: await errorBody(response), headers, response };
  const type = mediaType(response);
  let data: unknown;
  if (status === 204 || status === 205 || options.method === 'HEAD') {
    await response.body?.cancel();
    data = undefined;
  } else if (type === 'application/x-ndjson') data = ndjson(response.body, options.signal);
  else if (type === 'text/event-stream') data = subscription(response, options);
  else if (isJson(type)) {
    const text = await response.text();
    data = text === '' ? undefined : (JSON.parse(text) as unknown);
  } else if (type === 'text/plain') data = await response.text();
  else data = bytes(response.body, options.signal);
  return { ok: true, status, data, headers, response };
}
