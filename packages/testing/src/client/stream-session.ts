import type { ClientRequest, IncomingMessage } from 'node:http';
import { StringDecoder } from 'node:string_decoder';
import { NDJSONDecoder } from '../stream/parse-ndjson';
import { SSEDecoder, type ServerSentEventRecord } from '../stream/parse-sse';
import { pairRawHeaders, ResponseHead } from './test-response';

/**
 * A streamed response whose head has arrived: `status`, `headers`, `multiHeaders` and `cookies`
 * are ready, and the body is read by iterating it (`Buffer` chunks as they arrive). Leaving
 * early — `break`, `close()`, or the end of an `await using` scope — destroys the connection,
 * so the server sees the client disconnect. The body can be iterated once.
 *
 * @example
 * await using session = await client.streamGet('/events');
 * for await (const event of session.events()) {
 *   if (event.event === 'done') break;
 * }
 */
export class StreamSession extends ResponseHead implements AsyncIterable<Buffer>, AsyncDisposable {
  readonly #req: ClientRequest;
  readonly #res: IncomingMessage;
  readonly #onClose: (session: StreamSession) => void;
  #consumed = false;
  #closed = false;

  /** @internal Built by `TestClient.stream*`. */
  constructor(req: ClientRequest, res: IncomingMessage, onClose: (session: StreamSession) => void) {
    super(res.statusCode ?? 0, res.statusMessage ?? '', pairRawHeaders(res.rawHeaders));
    this.#req = req;
    this.#res = res;
    this.#onClose = onClose;
  }

  /** True once the body was read to its end or the session was closed. */
  get closed(): boolean {
    return this.#closed;
  }

  /** The body chunks, as they arrive. Leaving the loop early closes the connection. */
  async *[Symbol.asyncIterator](): AsyncIterator<Buffer> {
    if (this.#consumed) throw new Error('StreamSession: the body can be iterated once; it was already read');
    if (this.#closed) throw new Error('StreamSession: closed before its body was read');
    this.#consumed = true;
    try {
      for await (const chunk of this.#res) yield chunk as Buffer;
    } finally {
      await this.close();
    }
  }

  /** Decoded NDJSON items (one per line), as they arrive. */
  async *ndjson<T = unknown>(): AsyncGenerator<T, void, undefined> {
    const text = new StringDecoder('utf8');
    const lines = new NDJSONDecoder();
    for await (const chunk of this) {
      for (const item of lines.push(text.write(chunk))) yield item as T;
    }
    for (const item of lines.push(text.end())) yield item as T;
    for (const item of lines.end()) yield item as T;
  }

  /**
   * Decoded Server-Sent Events, as they arrive: `data` JSON-decoded when it parses (else the
   * raw string; multi-line data joined with `\n`); comments such as `: ping` are skipped.
   */
  async *events<T = unknown>(): AsyncGenerator<ServerSentEventRecord<T>, void, undefined> {
    const text = new StringDecoder('utf8');
    const events = new SSEDecoder();
    for await (const chunk of this) {
      for (const event of events.push(text.write(chunk))) yield event as ServerSentEventRecord<T>;
    }
    for (const event of events.push(text.end())) yield event as ServerSentEventRecord<T>;
    for (const event of events.end()) yield event as ServerSentEventRecord<T>;
  }

  /** Reads the rest of the body into one buffer. */
  async read(): Promise<Buffer> {
    const chunks: Buffer[] = [];
    for await (const chunk of this) chunks.push(chunk);
    return Buffer.concat(chunks);
  }

  /** Reads the rest of the body as UTF-8 text. */
  async text(): Promise<string> {
    return (await this.read()).toString('utf8');
  }

  /**
   * Closes the session. When the body was not read to its end this destroys the connection
   * (the server's response sees `close` before `finish`); resolves once the socket is closed.
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#onClose(this);
    const socket = this.#req.socket;
    if (!this.#res.complete) {
      this.#res.destroy();
      this.#req.destroy();
    }
    if (socket && !socket.closed) {
      await new Promise<void>((resolve) => {
        socket.once('close', () => resolve());
        // A finished response on a one-off connection closes by itself; make sure it does.
        socket.destroy();
      });
    }
  }

  /** Same as `close()`, for `await using`. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}
