// Ready to move into @api/testing as `TestClient.websocket(path, options)`:
//
//   websocket<TIn, TOut>(path: string, options: WebSocketSessionOptions<TIn, TOut>) {
//     return openWebSocket(this, path, options);
//   }
//
// It depends on `ws` (the client), valibot and @api/testing's own exports only — not on @api/ws —
// so @api/testing can carry it with `ws` as a dependency.
import type { IncomingMessage } from 'node:http';
import * as v from 'valibot';
import WebSocket from 'ws';
import { TestResponse, withQuery, type HeaderInit, type QueryParams } from '@api/testing';

/** A framing as an endpoint declares it: tagged schema(s) (JSON text frames), `'string'` or `'bytes'`. */
export type SessionFraming = 'string' | 'bytes' | v.GenericSchema | readonly v.GenericSchema[];

/** What the session sends for an endpoint's `inbound` framing. */
export type SessionSend<F> = F extends 'string'
  ? string
  : F extends 'bytes'
    ? Uint8Array
    : F extends readonly (infer S)[]
      ? S extends v.GenericSchema
        ? v.InferInput<S>
        : never
      : F extends v.GenericSchema
        ? v.InferInput<F>
        : never;

/** What the session receives for an endpoint's `outbound` framing. */
export type SessionReceive<F> = F extends 'string'
  ? string
  : F extends 'bytes'
    ? Buffer
    : F extends readonly (infer S)[]
      ? S extends v.GenericSchema
        ? v.InferOutput<S>
        : never
      : F extends v.GenericSchema
        ? v.InferOutput<F>
        : never;

/** Options of `openWebSocket` / `client.websocket`. */
export interface WebSocketSessionOptions<TIn extends SessionFraming, TOut extends SessionFraming> {
  /** The endpoint's `inbound` framing: what this session sends. */
  readonly inbound: TIn;
  /** The endpoint's `outbound` framing: what this session receives (validated on arrival). */
  readonly outbound: TOut;
  /** Query parameters. */
  readonly params?: QueryParams;
  /** Extra handshake headers (e.g. `authorization`, `origin`). */
  readonly headers?: HeaderInit;
  /** Cookies, merged over the client's jar (they win on a name collision). */
  readonly cookies?: Readonly<Record<string, string>>;
  /** Subprotocols to offer. */
  readonly protocols?: string | readonly string[];
}

/** How the connection ended. */
export interface SessionClose {
  readonly code: number;
  readonly reason: string;
}

/**
 * A refused handshake: the server answered with an HTTP response instead of 101. `response`
 * holds it (status, headers, body, `json()`).
 */
export class WebSocketDenied extends Error {
  override readonly name = 'WebSocketDenied';
  constructor(readonly response: TestResponse) {
    super(`WebSocket handshake refused with ${response.status}: ${response.text.slice(0, 200)}`);
  }

  get status(): number {
    return this.response.status;
  }
}

/** The part of `TestClient` the helper needs (structural). */
export interface SessionClient {
  readonly url: string;
  start(): Promise<unknown>;
  cookieHeaderFor(cookies?: Readonly<Record<string, string>>, headers?: HeaderInit): string | undefined;
}

function pairs(raw: readonly string[]): Array<readonly [string, string]> {
  const out: Array<readonly [string, string]> = [];
  for (let i = 0; i + 1 < raw.length; i += 2) out.push([raw[i]!, raw[i + 1]!]);
  return out;
}

function headerRecord(headers: HeaderInit | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!headers) return out;
  const entries: Iterable<readonly [string, string]> =
    typeof (headers as Iterable<unknown>)[Symbol.iterator] === 'function'
      ? (headers as Iterable<readonly [string, string]>)
      : Object.entries(headers as Record<string, string>);
  for (const [name, value] of entries) out[name.toLowerCase()] = value;
  return out;
}

/** Decodes frames per the endpoint's outbound framing; throws with a readable message when they do not fit. */
function receiver(framing: SessionFraming): (data: Buffer, isBinary: boolean) => unknown {
  if (framing === 'string')
    return (data, isBinary) => {
      if (isBinary) throw new TypeError('expected a text frame, got a binary one');
      return data.toString('utf8');
    };
  if (framing === 'bytes')
    return (data, isBinary) => {
      if (!isBinary) throw new TypeError('expected a binary frame, got a text one');
      return data;
    };
  const single = framing as v.GenericSchema;
  const list: readonly v.GenericSchema[] = Array.isArray(framing)
    ? (framing as readonly v.GenericSchema[])
    : single.type === 'union' || single.type === 'variant'
      ? (single as unknown as { options: v.GenericSchema[] }).options
      : [single];
  const schema: v.GenericSchema = list.length === 1 ? list[0]! : v.union(list as v.GenericSchema[]);
  return (data, isBinary) => {
    if (isBinary) throw new TypeError('expected a JSON text frame, got a binary one');
    const result = v.safeParse(schema, JSON.parse(data.toString('utf8')));
    if (!result.success)
      throw new TypeError(
        `a received message does not match the outbound framing: ${v.summarize(result.issues)}`,
      );
    return result.output;
  };
}

/**
 * An open WebSocket to the app under test, typed from the endpoint's framings: `send` a typed
 * message, `receive` the next one (decoded and validated), iterate them, `close`. `closed`
 * resolves with the code and reason the connection ended with.
 */
export class WebSocketSession<TSend, TReceive> implements AsyncIterable<TReceive>, AsyncDisposable {
  /** The underlying `ws` client (for raw frames and pings). */
  readonly raw: WebSocket;
  /** Resolves once the connection closed. */
  readonly closed: Promise<SessionClose>;
  readonly #binary: boolean;
  readonly #decode: (data: Buffer, isBinary: boolean) => unknown;
  readonly #queue: { data: Buffer; isBinary: boolean }[] = [];
  #waiter: (() => void) | undefined;
  #ended = false;

  /** @internal Built by `openWebSocket`. */
  constructor(raw: WebSocket, inbound: SessionFraming, outbound: SessionFraming) {
    this.raw = raw;
    this.#binary = inbound === 'bytes';
    this.#decode = receiver(outbound);
    raw.on('message', (data: Buffer, isBinary: boolean) => {
      this.#queue.push({ data, isBinary });
      this.#wake();
    });
    this.closed = new Promise((resolve) => {
      raw.on('close', (code: number, reason: Buffer) => {
        this.#ended = true;
        this.#wake();
        resolve({ code, reason: reason.toString('utf8') });
      });
    });
  }

  #wake(): void {
    const waiter = this.#waiter;
    this.#waiter = undefined;
    waiter?.();
  }

  /** Sends a message: JSON for tagged framings, a text frame for `'string'`, binary for `'bytes'`. */
  send(message: TSend): Promise<void> {
    const data =
      typeof message === 'string' || message instanceof Uint8Array ? message : JSON.stringify(message);
    return this.sendRaw(data, { binary: this.#binary });
  }

  /** Sends anything, bypassing the framing (to test refusals). */
  sendRaw(data: string | Uint8Array, options: { binary?: boolean } = {}): Promise<void> {
    return new Promise((resolve, reject) =>
      this.raw.send(data, { binary: options.binary ?? typeof data !== 'string' }, (error) =>
        error ? reject(error) : resolve(),
      ),
    );
  }

  /** The next message; rejects when the connection closed first (with its code and reason). */
  async receive(): Promise<TReceive> {
    const result = await this.#next();
    if (result === undefined) {
      const { code, reason } = await this.closed;
      throw new Error(
        `WebSocketSession.receive: the connection closed (${code}${reason ? ` ${reason}` : ''})`,
      );
    }
    return result.value;
  }

  async #next(): Promise<{ value: TReceive } | undefined> {
    for (;;) {
      const frame = this.#queue.shift();
      if (frame) return { value: this.#decode(frame.data, frame.isBinary) as TReceive };
      if (this.#ended) return undefined;
      await new Promise<void>((resolve) => (this.#waiter = resolve));
    }
  }

  /** Received messages until the connection closes. */
  async *[Symbol.asyncIterator](): AsyncIterator<TReceive> {
    for (;;) {
      const result = await this.#next();
      if (result === undefined) return;
      yield result.value;
    }
  }

  /** Closes (default 1000) and resolves with how the connection ended. */
  async close(code = 1000, reason = ''): Promise<SessionClose> {
    if (this.raw.readyState === WebSocket.OPEN) this.raw.close(code, reason);
    return this.closed;
  }

  /** Same as `close()`, for `await using`. */
  async [Symbol.asyncDispose](): Promise<void> {
    if (this.raw.readyState === WebSocket.OPEN || this.raw.readyState === WebSocket.CLOSING) {
      const done = this.closed;
      this.raw.close();
      const timer = setTimeout(() => this.raw.terminate(), 2_000);
      await done;
      clearTimeout(timer);
    }
  }
}

/**
 * Opens a WebSocket to the app a `TestClient` serves: the handshake carries the client's cookie
 * jar merged with `cookies` (an explicit `Cookie` header suppresses the jar), `headers` and
 * `params`. Resolves once open; a refused handshake rejects with `WebSocketDenied` (status,
 * headers and body of the HTTP answer).
 *
 * @example
 * await using ws = await openWebSocket(client, '/websocket/c1', {
 *   inbound: PingRequest, outbound: PingResponse, headers: { authorization: 'Bearer token' },
 * });
 * await ws.send({ type: 'PingRequest', requestId: 'r1', message: 'hi' });
 * expect(await ws.receive()).toMatchObject({ requestId: 'r1' });
 */
export async function openWebSocket<const TIn extends SessionFraming, const TOut extends SessionFraming>(
  client: SessionClient,
  path: string,
  options: WebSocketSessionOptions<TIn, TOut>,
): Promise<WebSocketSession<SessionSend<TIn>, SessionReceive<TOut>>> {
  if (!path.startsWith('/'))
    throw new TypeError(`openWebSocket: the path must start with "/" (got ${JSON.stringify(path)})`);
  await client.start();
  const headers = headerRecord(options.headers);
  const cookie = client.cookieHeaderFor(options.cookies, options.headers);
  if (cookie !== undefined) headers.cookie = cookie;
  const url = client.url.replace(/^http/, 'ws') + withQuery(path, options.params);
  const protocols = options.protocols === undefined ? [] : ([] as string[]).concat(options.protocols);
  const raw = new WebSocket(url, protocols, { headers, perMessageDeflate: false });
  const session = new WebSocketSession<SessionSend<TIn>, SessionReceive<TOut>>(
    raw,
    options.inbound,
    options.outbound,
  );
  raw.on('error', () => undefined);
  await new Promise<void>((resolve, reject) => {
    raw.once('open', () => resolve());
    raw.once('unexpected-response', (_req, res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        raw.terminate();
        reject(
          new WebSocketDenied(
            new TestResponse(
              res.statusCode ?? 0,
              res.statusMessage ?? '',
              pairs(res.rawHeaders),
              Buffer.concat(chunks),
            ),
          ),
        );
      });
      res.on('error', reject);
    });
    raw.once('error', (error) => reject(error));
  });
  return session;
}
