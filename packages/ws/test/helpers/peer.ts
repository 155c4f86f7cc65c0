import { once } from 'node:events';
import type { IncomingMessage } from 'node:http';
import WebSocket, { type ClientOptions } from 'ws';

/** One received message, as the client saw it. */
export interface Received {
  readonly data: Buffer;
  readonly isBinary: boolean;
}

/** How the connection ended, as the client saw it. */
export interface Closed {
  readonly code: number;
  readonly reason: string;
}

/**
 * A `ws` client for wire tests: buffers every message and resolves `closed` with the code and
 * reason the server sent.
 */
export class Peer {
  readonly raw: WebSocket;
  readonly received: Received[] = [];
  readonly closed: Promise<Closed>;
  #waiters: ((message: Received) => void)[] = [];
  #read = 0;

  private constructor(raw: WebSocket) {
    this.raw = raw;
    raw.on('error', () => undefined);
    raw.on('message', (data: Buffer, isBinary: boolean) => {
      const message = { data, isBinary };
      this.received.push(message);
      const waiter = this.#waiters.shift();
      if (waiter) {
        this.#read++;
        waiter(message);
      }
    });
    this.closed = new Promise((resolve) => {
      raw.on('close', (code: number, reason: Buffer) => resolve({ code, reason: reason.toString() }));
    });
  }

  /** Connects; resolves once open (rejects with the handshake failure). */
  static async open(url: string, options: ClientOptions = {}): Promise<Peer> {
    const raw = new WebSocket(url, { perMessageDeflate: false, ...options });
    const peer = new Peer(raw);
    const result = await Promise.race([
      once(raw, 'open').then(() => 'open' as const),
      once(raw, 'unexpected-response').then(([, res]) => res as IncomingMessage),
      once(raw, 'error').then(([error]) => error as Error),
    ]);
    if (result === 'open') return peer;
    if (result instanceof Error) throw result;
    throw new Error(`handshake refused: ${result.statusCode}`);
  }

  /** The next message (in order). */
  next(): Promise<Received> {
    if (this.#read < this.received.length) return Promise.resolve(this.received[this.#read++]!);
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  /** The next message, parsed as JSON (asserting it came in a text frame). */
  async json(): Promise<unknown> {
    const message = await this.next();
    if (message.isBinary) throw new Error('expected a text frame, got a binary one');
    return JSON.parse(message.data.toString()) as unknown;
  }

  /** The next message as text. */
  async text(): Promise<string> {
    const message = await this.next();
    if (message.isBinary) throw new Error('expected a text frame, got a binary one');
    return message.data.toString();
  }

  send(data: unknown): void {
    this.raw.send(typeof data === 'string' || data instanceof Uint8Array ? data : JSON.stringify(data));
  }
}
