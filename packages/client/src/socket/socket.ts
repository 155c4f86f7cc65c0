import type { AnySchema, SchemaInput } from '@api/core';
// A typed WebSocket over the platform's `WebSocket` (or any object with its interface, e.g. the
// `ws` package in Node): JSON messages encoded and decoded, text and bytes passed through.

/** The fields of the `message` and `close` events the client reads. */
export interface SocketEvent {
  readonly data?: unknown;
  readonly code?: number;
  readonly reason?: string;
}

/** The part of the WHATWG `WebSocket` interface the client uses. */
export interface WebSocketLike {
  readonly readyState: number;
  readonly protocol: string;
  binaryType: string;
  send(data: string | ArrayBufferLike | ArrayBufferView | Blob): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: string, listener: (event: SocketEvent) => void): void;
}

/**
 * Opens a socket: `headers` holds the client's credentials and default headers, which a browser's
 * `WebSocket` cannot send (use cookies there); a Node implementation can (`new WebSocket(url,
 * protocols, { headers })` from `ws`).
 */
export type WebSocketFactory = (
  url: string,
  protocols: string[] | undefined,
  headers: Record<string, string>,
) => WebSocketLike;

/** How a socket closed. */
export interface CloseInfo {
  readonly code: number;
  readonly reason: string;
}

type HandshakeSource = 'path' | 'params' | 'headers';
/** The argument of `connect`: the handshake's declared path, query and headers, plus options. */
export type ConnectInput<S> = {
  readonly [K in keyof S as K extends HandshakeSource ? K : never]: S[K] extends AnySchema
    ? SchemaInput<S[K]>
    : never;
} & {
  /** Subprotocols to offer (`Sec-WebSocket-Protocol`). */
  readonly protocols?: string[];
  /** Closes the socket (1000) when it aborts. */
  readonly signal?: AbortSignal;
};

/**
 * One open (or opening) socket: `send` typed by what the endpoint accepts, the iteration and
 * `receive()` typed by what it sends. Iteration ends when the socket closes.
 */
export interface ClientSocket<TSend, TReceive> extends AsyncIterable<TReceive> {
  /** The underlying socket. */
  readonly raw: WebSocketLike;
  /** Resolved once the handshake succeeded (`connect` awaits it); rejects when the socket closed first. */
  readonly opened: Promise<void>;
  /** Resolves with the close code and reason. */
  readonly closed: Promise<CloseInfo>;
  /** Sends one message: a model as JSON text, a string as text, bytes as a binary frame. */
  send(message: TSend): void;
  /** The next message; rejects with a `SocketClosedError` once the socket closed. */
  receive(): Promise<TReceive>;
  /** Closes the socket (default 1000). */
  close(code?: number, reason?: string): void;
}

/** `receive()` after the socket closed: carries the close code and reason. */
export class SocketClosedError extends Error {
  override readonly name = 'SocketClosedError';
  constructor(readonly close: CloseInfo) {
    super(`WebSocket closed (${close.code}${close.reason ? ` ${close.reason}` : ''})`);
  }
}

/**
 * Wraps an opening socket.
 *
 * @param raw - the socket, just created
 * @param text - the endpoint sends plain text (no JSON decoding)
 * @param signal - closes the socket when it aborts
 */
export function typedSocket<TSend, TReceive>(
  raw: WebSocketLike,
  text: boolean,
  signal: AbortSignal | undefined,
): ClientSocket<TSend, TReceive> {
  raw.binaryType = 'arraybuffer';
  const queue: TReceive[] = [];
  const waiting: { resolve: (m: TReceive) => void; reject: (e: Error) => void }[] = [];
  let closeInfo: CloseInfo | undefined;
  let failure: Error | undefined;
  let markOpen!: () => void;
  let failOpen!: (e: Error) => void;
  let markClosed!: (c: CloseInfo) => void;
  const opened = new Promise<void>((resolve, reject) => ((markOpen = resolve), (failOpen = reject)));
  const closed = new Promise<CloseInfo>((resolve) => (markClosed = resolve));
  opened.catch(() => undefined);

  raw.addEventListener('open', () => markOpen());
  raw.addEventListener('message', (event) => {
    let message: unknown;
    try {
      const data = event.data;
      message =
        typeof data === 'string' ? (text ? data : JSON.parse(data)) : new Uint8Array(data as ArrayBuffer);
    } catch (error) {
      failure = error as Error;
      raw.close(1007, 'malformed JSON');
      return;
    }
    const waiter = waiting.shift();
    if (waiter) waiter.resolve(message as TReceive);
    else queue.push(message as TReceive);
  });
  raw.addEventListener('close', (event) => {
    closeInfo = { code: event.code ?? 1005, reason: event.reason ?? '' };
    failOpen(failure ?? new SocketClosedError(closeInfo));
    markClosed(closeInfo);
    for (const waiter of waiting.splice(0)) waiter.reject(failure ?? new SocketClosedError(closeInfo));
  });
  // An 'error' event is always followed by 'close'; listening keeps it from being reported as unhandled.
  raw.addEventListener('error', () => undefined);
  signal?.addEventListener('abort', () => raw.close(1000), { once: true });

  const receive = (): Promise<TReceive> => {
    if (queue.length > 0) return Promise.resolve(queue.shift()!);
    if (closeInfo) return Promise.reject(failure ?? new SocketClosedError(closeInfo));
    return new Promise((resolve, reject) => waiting.push({ resolve, reject }));
  };

  return {
    raw,
    opened,
    closed,
    send(message) {
      raw.send(
        typeof message === 'string' || message instanceof ArrayBuffer || ArrayBuffer.isView(message)
          ? message
          : JSON.stringify(message),
      );
    },
    receive,
    close(code = 1000, reason) {
      raw.close(code, reason);
    },
    async *[Symbol.asyncIterator]() {
      for (;;) {
        try {
          yield await receive();
        } catch (error) {
          if (error instanceof SocketClosedError) return;
          throw error;
        }
      }
    },
  };
}
