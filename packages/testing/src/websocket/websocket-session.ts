import WebSocket from 'ws';
import type { ResponseHead } from '../client/test-response';
import { encodeFrame, frameDecoder, type FrameDecoder, type WebSocketFraming } from './framing';

/** How a WebSocket connection ended: the close code and reason (1006 and `''` when it was cut). */
export interface WebSocketClose {
  /** The close code (1000 normal, 1001 going away, 1008 policy, … 1006 when no close frame came). */
  readonly code: number;
  /** The close reason (UTF-8, at most 123 bytes; `''` when none). */
  readonly reason: string;
}

/** Options of `WebSocketSession.sendRaw`. */
export interface SendRawOptions {
  /** Send a binary frame. Default: binary for bytes, text for a string. */
  readonly binary?: boolean;
}

/**
 * An open WebSocket to the app under test, typed from the endpoint's framings (see
 * `client.websocket`): `send` what the endpoint's `inbound` accepts, `receive` what its
 * `outbound` sends (decoded and validated on arrival), iterate the messages until the server
 * closes, `close`. `closed` resolves with how the connection ended.
 *
 * @example
 * await using ws = await client.websocket('/chat', { inbound: SendMessage, outbound: ChatMessage });
 * await ws.send({ type: 'send-message', text: 'hi' });
 * const message = await ws.receive(); // { type: 'chat-message', text: 'hi', from: '…' }
 */
export interface WebSocketSession<TSend, TReceive> extends AsyncIterable<TReceive>, AsyncDisposable {
  /** The handshake's `101 Switching Protocols` response: status and headers (`sec-websocket-protocol`, `set-cookie`, …). */
  readonly handshake: ResponseHead;
  /** The subprotocol the server chose (`''` when none). */
  readonly protocol: string;
  /** The connection state, as in the WHATWG `WebSocket`: 0 connecting, 1 open, 2 closing, 3 closed. */
  readonly readyState: 0 | 1 | 2 | 3;
  /** Resolves once the connection closed, with its code and reason. Never rejects. */
  readonly closed: Promise<WebSocketClose>;
  /**
   * Sends a message: JSON in a text frame for schema framings, a text frame for `'string'`, a
   * binary frame for `'bytes'`. Resolves once the frame was written. Not validated, so a test
   * can also send what the server must refuse (or use `sendRaw`).
   *
   * @param message - The message.
   */
  send(message: TSend): Promise<void>;
  /**
   * Sends a frame as is, bypassing the framing (to test how the server refuses it).
   *
   * @param data - The frame's payload.
   * @param options - `binary` (default: binary for bytes, text for a string).
   */
  sendRaw(data: string | Uint8Array, options?: SendRawOptions): Promise<void>;
  /**
   * The next message, decoded and validated. Rejects when the connection closed first (the
   * message names the code and reason), or when the message does not fit the outbound framing.
   */
  receive(): Promise<TReceive>;
  /**
   * Closes with a close frame and resolves with how the connection ended (the server's answer).
   *
   * @param code - 1000 (default) or 3000–4999.
   * @param reason - At most 123 UTF-8 bytes. Default `''`.
   */
  close(code?: number, reason?: string): Promise<WebSocketClose>;
  /** Drops the connection without a close frame (a client that vanished); resolves with code 1006. */
  terminate(): Promise<WebSocketClose>;
}

/** How long `[Symbol.asyncDispose]` waits for the server's close frame before cutting the connection. */
const DISPOSE_GRACE_MS = 2_000;

/**
 * The session over a `ws` client. Not exported from the package: the public type is the
 * `WebSocketSession` interface, so no `ws` type reaches a user's declarations.
 */
export class Session<TSend, TReceive> implements WebSocketSession<TSend, TReceive> {
  readonly handshake: ResponseHead;
  readonly closed: Promise<WebSocketClose>;
  readonly #raw: WebSocket;
  readonly #inbound: WebSocketFraming;
  readonly #decode: FrameDecoder;
  readonly #queue: { data: Buffer; isBinary: boolean }[] = [];
  #waiter: (() => void) | undefined;
  #ended = false;

  /**
   * @param raw - The `ws` client, built on its 101 (before `open`, so no message is missed).
   * @param handshake - The 101 response.
   * @param inbound - What the session sends.
   * @param outbound - What it receives.
   */
  constructor(
    raw: WebSocket,
    handshake: ResponseHead,
    inbound: WebSocketFraming,
    outbound: WebSocketFraming,
  ) {
    this.#raw = raw;
    this.handshake = handshake;
    this.#inbound = inbound;
    this.#decode = frameDecoder(outbound);
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

  get protocol(): string {
    return this.#raw.protocol;
  }

  get readyState(): 0 | 1 | 2 | 3 {
    return this.#raw.readyState;
  }

  #wake(): void {
    const waiter = this.#waiter;
    this.#waiter = undefined;
    waiter?.();
  }

  send(message: TSend): Promise<void> {
    const { data, binary } = encodeFrame(this.#inbound, message);
    return this.sendRaw(data, { binary });
  }

  sendRaw(data: string | Uint8Array, options: SendRawOptions = {}): Promise<void> {
    return new Promise((resolve, reject) =>
      this.#raw.send(data, { binary: options.binary ?? typeof data !== 'string' }, (error) =>
        error ? reject(error) : resolve(),
      ),
    );
  }

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

  async *[Symbol.asyncIterator](): AsyncIterator<TReceive> {
    for (;;) {
      const result = await this.#next();
      if (result === undefined) return;
      yield result.value;
    }
  }

  async close(code = 1000, reason = ''): Promise<WebSocketClose> {
    if (this.#raw.readyState === WebSocket.OPEN) this.#raw.close(code, reason);
    return this.closed;
  }

  async terminate(): Promise<WebSocketClose> {
    if (this.#raw.readyState !== WebSocket.CLOSED) this.#raw.terminate();
    return this.closed;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    if (this.#raw.readyState === WebSocket.OPEN || this.#raw.readyState === WebSocket.CLOSING) {
      const done = this.closed;
      if (this.#raw.readyState === WebSocket.OPEN) this.#raw.close();
      const timer = setTimeout(() => this.#raw.terminate(), DISPOSE_GRACE_MS);
      await done;
      clearTimeout(timer);
    }
  }
}
