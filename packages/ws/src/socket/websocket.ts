import type { Duplex } from 'node:stream';
import type { WebSocket as RawWebSocket } from 'ws';
import { Refusal, type Codec } from '../framing/framing';
import { kInternals } from '../symbols';
import { ArrivalOrder } from './arrival-order';
import { checkClose, CloseCode } from './close-codes';
import type { SocketInternals } from './internals';

export type { SocketInternals } from './internals';

/** Thrown (as a rejection) by `send` and `sendEncoded` once the socket is closing or closed. */
export class WebSocketClosedError extends Error {
  override readonly name = 'WebSocketClosedError';
  constructor(readonly code: number | undefined) {
    super(
      code === undefined
        ? 'the WebSocket is closing; nothing more can be sent'
        : `the WebSocket closed (code ${code}); nothing more can be sent`,
    );
  }
}

/**
 * Inbound messages (and bytes) held for a handler that is not reading: past either bound the
 * socket stops reading (TCP backpressure) until the handler is down to a quarter of them.
 */
const INBOUND_HIGH = 64;
const INBOUND_HIGH_BYTES = 1024 * 1024;

/**
 * How often an awaited `send` waiting for `'drain'` re-checks the buffers all the same: under
 * Bun's `ws` layer the upgraded node socket never emits `'drain'` (nor needs it: Bun's WebSocket
 * buffers natively, then in JavaScript, which `bufferedAmount` reports).
 */
const DRAIN_CHECK_MS = 25;

const RESOLVED: Promise<void> = Promise.resolve();
const TEXT = { binary: false } as const;
const BINARY = { binary: true } as const;
const DONE: IteratorReturnResult<undefined> = Object.freeze({ done: true, value: undefined });

type State = 'open' | 'closing' | 'closed';

/** The package-private symbol on the raw socket that points back at its wrapper. */
const kWrapper = Symbol('@api/ws.wrapper');
type Tagged = RawWebSocket & { [kWrapper]: WebSocket<unknown, unknown> };

/**
 * A typed WebSocket, handed to a `WebSocketEndpoint` handler: an async iterator over inbound
 * messages (decoded and validated per the endpoint's `inbound` framing) with `send` (validated
 * and encoded per `outbound`), `sendEncoded` (pre-encoded payloads) and an idempotent `close`.
 *
 * A frame that breaks the framing closes the socket: 1003 wrong frame kind, 1007 malformed
 * JSON, 1008 a message that fails its schema. Iteration ends once the socket is closing (the
 * messages already received are still delivered). When the handler does not read, at most
 * 64 messages or 1 MiB wait; then the socket stops reading until it catches up.
 *
 * @example
 * handle = this.handler({}, async ({ websocket }) => {
 *   for await (const message of websocket) await websocket.send({ type: 'Echo', text: message.text });
 * });
 */
export class WebSocket<TIn = unknown, TOut = unknown> implements AsyncIterable<TIn> {
  readonly #raw: RawWebSocket;
  readonly #socket: Duplex;
  readonly #inbound: Codec;
  readonly #outbound: Codec;
  readonly #queue: TIn[] = [];
  readonly #sizes: number[] = [];
  #queuedBytes = 0;
  #waiter: ((result: IteratorResult<TIn, undefined>) => void) | undefined;
  #paused = false;
  /** Inbound messages still being checked, for a framing whose validation may answer a promise. */
  readonly #order: ArrivalOrder | undefined;
  #state: State = 'open';
  #code: number | undefined;
  #reason = '';
  #closed: Promise<void> | undefined;
  #resolveClosed: (() => void) | undefined;
  #drain: Promise<void> | undefined;
  #drainCheck: NodeJS.Timeout | undefined;
  #grace: NodeJS.Timeout | undefined;
  #resolveDrain: (() => void) | undefined;
  /** @internal */
  readonly [kInternals]: SocketInternals;

  /**
   * @internal Built by the `websocket()` mount (or a test) around an accepted `ws` socket.
   * @param raw - the accepted `ws` socket
   * @param socket - the TCP socket under it (for drain and buffered bytes)
   * @param inbound - the compiled inbound framing
   * @param outbound - the compiled outbound framing
   */
  constructor(raw: RawWebSocket, socket: Duplex, inbound: Codec, outbound: Codec) {
    this.#raw = raw;
    this.#socket = socket;
    this.#inbound = inbound;
    this.#outbound = outbound;
    const self = this as WebSocket<unknown, unknown>;
    this[kInternals] = {
      raw,
      socket,
      outbound,
      alive: true,
      closeListeners: new Set(),
      closeWith: (code, reason, graceMs) => {
        self.#closeWith(code, reason);
        if (graceMs !== undefined && self.#state !== 'closed' && !self.#grace) {
          self.#grace = setTimeout(() => self.#terminate(), graceMs);
          self.#grace.unref();
        }
      },
      terminate: () => self.#terminate(),
    };
    (raw as Tagged)[kWrapper] = self;
    this.#order = inbound.mayDefer ? new ArrivalOrder() : undefined;
    raw.on('message', inbound.mayDefer ? WebSocket.#onDeferredMessage : WebSocket.#onMessage);
    raw.on('close', WebSocket.#onClose);
    raw.on('pong', WebSocket.#onPong);
    raw.on('error', WebSocket.#onError);
  }

  /** True once the socket is closing or closed (either side); `send` rejects from then on. */
  get closed(): boolean {
    return this.#state !== 'open';
  }

  /** The subprotocol selected in the handshake (one of the endpoint's `protocols`), or `''`. */
  get protocol(): string {
    return this.#raw.protocol;
  }

  /** The close code, once closed: the peer's, or the one this side sent (1006 when cut). */
  get closeCode(): number | undefined {
    return this.#state === 'closed' ? this.#code : undefined;
  }

  /** The close reason, once closed ('' when none). */
  get closeReason(): string {
    return this.#reason;
  }

  /** Bytes written but not yet handed to the OS (the socket's own buffer). */
  get bufferedAmount(): number {
    return this.#raw.bufferedAmount;
  }

  /**
   * Validates and encodes a message per the outbound framing and sends it. Resolves at once
   * while the socket's buffer has room, otherwise once it drained, so a handler that awaits
   * its sends never buffers without bound. Rejects with `WebSocketClosedError` once the
   * socket is closing, and with a `TypeError` for a message that does not match the schema.
   *
   * @param message - a tagged message, a string, or bytes, per the endpoint's `outbound`
   */
  send(message: TOut): Promise<void> {
    if (this.#state !== 'open') return Promise.reject(new WebSocketClosedError(this.#code));
    let data: string | Uint8Array;
    try {
      data = this.#outbound.encode(message);
    } catch (error) {
      return Promise.reject(asError(error));
    }
    return this.#write(data);
  }

  /**
   * Sends a payload encoded elsewhere (e.g. JSON serialized once for many sockets) in the
   * outbound framing's frame kind, without validating it.
   *
   * @param payload - JSON text for tagged framings, a string, or bytes
   */
  sendEncoded(payload: string | Uint8Array): Promise<void> {
    if (this.#state !== 'open') return Promise.reject(new WebSocketClosedError(this.#code));
    return this.#write(payload);
  }

  #write(data: string | Uint8Array): Promise<void> {
    this.#raw.send(data, this.#outbound.binary ? BINARY : TEXT);
    return this.#backedUp() ? this.#waitDrain() : RESOLVED;
  }

  /** The node socket needs a drain (Node), or the WebSocket holds its high-water mark unsent (Bun). */
  #backedUp(): boolean {
    const socket = this.#socket;
    return socket.writableNeedDrain || this.#raw.bufferedAmount >= socket.writableHighWaterMark;
  }

  #waitDrain(): Promise<void> {
    if (this.#drain) return this.#drain;
    this.#drain = new Promise<void>((resolve) => {
      this.#resolveDrain = resolve;
    });
    this.#socket.once('drain', this.#drained);
    this.#armDrainCheck();
    return this.#drain;
  }

  #armDrainCheck(): void {
    this.#drainCheck = setTimeout(this.#recheck, DRAIN_CHECK_MS);
    this.#drainCheck.unref();
  }

  readonly #recheck = (): void => {
    this.#drainCheck = undefined;
    if (!this.#drain) return;
    if (this.#backedUp()) this.#armDrainCheck();
    else this.#drained();
  };

  readonly #drained = (): void => {
    this.#socket.off('drain', this.#drained);
    clearTimeout(this.#drainCheck);
    this.#drainCheck = undefined;
    const resolve = this.#resolveDrain;
    this.#drain = undefined;
    this.#resolveDrain = undefined;
    resolve?.();
  };

  /**
   * Closes the connection once: later calls return the same promise. Resolves when the
   * connection has closed. Sends after this reject locally.
   *
   * @param code - 1000 (default), 1003, 1007, 1008, 1009, 1011, 1013, or 4000–4999
   * @param reason - at most 123 UTF-8 bytes
   */
  close(code: number = CloseCode.normal, reason = ''): Promise<void> {
    try {
      checkClose(code, reason);
    } catch (error) {
      return Promise.reject(asError(error));
    }
    this.#closeWith(code, reason);
    return this.#whenClosed();
  }

  #whenClosed(): Promise<void> {
    if (this.#state === 'closed') return RESOLVED;
    this.#closed ??= new Promise<void>((resolve) => {
      this.#resolveClosed = resolve;
    });
    return this.#closed;
  }

  #closeWith(code: number, reason: string): void {
    if (this.#state !== 'open') return;
    this.#state = 'closing';
    this.#code = code;
    this.#reason = reason;
    this.#endIteration();
    this.#raw.close(code, reason);
  }

  #terminate(): void {
    if (this.#state === 'open') {
      this.#state = 'closing';
      this.#endIteration();
    }
    this.#raw.terminate();
  }

  #endIteration(): void {
    if (this.#waiter && this.#queue.length === 0) {
      const waiter = this.#waiter;
      this.#waiter = undefined;
      waiter(DONE);
    }
  }

  #message(data: Buffer, isBinary: boolean): void {
    if (this.#state !== 'open') return;
    this.#accept(this.#inbound.decode(data, isBinary), data.length);
  }

  /**
   * A frame of a framing whose validation may answer a promise (a Standard Schema's async
   * refinement): messages are handed on in the order they arrived, and the socket stops reading
   * while 64 of them are still being checked.
   */
  #deferredMessage(data: Buffer, isBinary: boolean): void {
    if (this.#state !== 'open') return;
    const size = data.length;
    const order = this.#order!;
    order.add(this.#inbound.decode(data, isBinary), (value) => this.#settled(value, size));
    if (order.pending >= INBOUND_HIGH && !this.#paused) {
      this.#paused = true;
      this.#raw.pause();
    }
  }

  /** A checked message handed on in its turn; reading resumes once the checks and the queue are low. */
  #settled(value: unknown, size: number): void {
    if (this.#state === 'open') this.#accept(value, size);
    if (
      this.#paused &&
      this.#order!.pending <= INBOUND_HIGH / 4 &&
      this.#queue.length <= INBOUND_HIGH / 4 &&
      this.#queuedBytes <= INBOUND_HIGH_BYTES / 4
    ) {
      this.#paused = false;
      this.#raw.resume();
    }
  }

  #accept(decoded: unknown, size: number): void {
    if (decoded instanceof Refusal) {
      this.#closeWith(decoded.code, decoded.reason);
      return;
    }
    const waiter = this.#waiter;
    if (waiter) {
      this.#waiter = undefined;
      waiter({ done: false, value: decoded as TIn });
      return;
    }
    this.#queue.push(decoded as TIn);
    this.#sizes.push(size);
    this.#queuedBytes += size;
    if (!this.#paused && (this.#queue.length >= INBOUND_HIGH || this.#queuedBytes >= INBOUND_HIGH_BYTES)) {
      this.#paused = true;
      this.#raw.pause();
    }
  }

  #closedBy(code: number, reason: Buffer): void {
    // What the connection ended with: the peer's close frame (usually echoing ours), 1005
    // for a close frame without a code, 1006 when it was cut.
    this.#code = code;
    if (this.#state === 'open') this.#reason = reason.toString('utf8');
    this.#state = 'closed';
    if (this.#grace) clearTimeout(this.#grace);
    this.#grace = undefined;
    this.#endIteration();
    if (this.#drain) this.#drained();
    const internals = this[kInternals];
    for (const listener of internals.closeListeners) listener();
    internals.closeListeners.clear();
    this.#raw.off('message', this.#inbound.mayDefer ? WebSocket.#onDeferredMessage : WebSocket.#onMessage);
    this.#raw.off('pong', WebSocket.#onPong);
    this.#resolveClosed?.();
  }

  // Shared listeners (one function for every socket, not closures per connection): the raw
  // socket points back at its wrapper.
  static readonly #onMessage = function (this: RawWebSocket, data: Buffer, isBinary: boolean): void {
    (this as Tagged)[kWrapper].#message(data, isBinary);
  };

  static readonly #onDeferredMessage = function (this: RawWebSocket, data: Buffer, isBinary: boolean): void {
    (this as Tagged)[kWrapper].#deferredMessage(data, isBinary);
  };

  static readonly #onClose = function (this: RawWebSocket, code: number, reason: Buffer): void {
    (this as Tagged)[kWrapper].#closedBy(code, reason);
  };

  static readonly #onPong = function (this: RawWebSocket): void {
    (this as Tagged)[kWrapper][kInternals].alive = true;
  };

  // ws reports protocol errors (bad UTF-8, unmasked frames, oversized messages) here after it
  // has closed the connection itself (1002/1007/1009); without a listener they would crash the
  // process.
  static readonly #onError = function (): void {};

  /** Iterates inbound messages until the socket is closing. */
  [Symbol.asyncIterator](): AsyncIterator<TIn, undefined> {
    return {
      next: () => {
        if (this.#queue.length > 0) {
          const value = this.#queue.shift() as TIn;
          this.#queuedBytes -= this.#sizes.shift()!;
          if (
            this.#paused &&
            this.#queue.length <= INBOUND_HIGH / 4 &&
            this.#queuedBytes <= INBOUND_HIGH_BYTES / 4
          ) {
            this.#paused = false;
            this.#raw.resume();
          }
          return Promise.resolve({ done: false, value });
        }
        if (this.#state !== 'open') return Promise.resolve(DONE);
        if (this.#waiter) throw new Error('WebSocket: one reader at a time; a next() is already pending');
        return new Promise((resolve) => {
          this.#waiter = resolve;
        });
      },
      // Leaving a `for await` loop early stops reading; it does not close the socket.
      return: () => Promise.resolve(DONE),
    };
  }
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
