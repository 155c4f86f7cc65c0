import { Writable } from 'node:stream';
import type { HeaderList } from '../../contract/exchange';

/** Bytes a streamed body holds before the writer is told to wait (`write` → false, then `drain`). */
const HIGH_WATER_MARK = 16 * 1024;

/** Statuses whose response has no body at all (the `Response` constructor refuses one). */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/**
 * `encodeBody: 'manual'`: the body is sent as core framed it. workerd would otherwise compress a
 * body whose head says `content-encoding` (already encoded by @api/compress) a second time; other
 * runtimes ignore the field.
 */
const MANUAL = { encodeBody: 'manual' } as const;

const NO_HEADERS: Record<string, string> = {};

/** A field name (a token) and a field value a `Headers` takes as it is; anything else it checks itself. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const FIELD_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/** Hop-by-hop headers: a fetch server owns its connections and frames the body itself. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding']);

/**
 * Where core writes a response on the fetch transport: the `ServerResponse` surface core uses
 * (`writeHead`, `write`, `end`, `destroy`, `drain`/`finish`/`close`), answering a WHATWG
 * `Response`. A buffered answer (`end(body)` with nothing written before) becomes a `Response`
 * over its bytes; a streamed one a `Response` over a `ReadableStream` that pulls: a chunk is
 * handed on only when the consumer asks for more, and `write` returns false (the writer waits for
 * `drain`) once 16 KiB wait, so a stalled client never grows memory. A cancelled stream (the
 * client left) destroys this response: `close` runs the writer's teardown. `destroy()` (a cut
 * body) errors the stream, so the client sees an incomplete body, not a complete one.
 */
export class FetchResponse extends Writable {
  /** The answer, once the head and its body (or the start of a stream) are decided. */
  readonly response: Promise<Response>;
  /** node's reason phrase: unused here (a `Response` has none on the wire). */
  statusMessage = '';
  /** No socket: the fetch server owns the connection. */
  readonly socket = null;
  headersSent = false;
  readonly #bodiless: boolean;
  #status = 200;
  #headers: Record<string, string> | Headers | undefined = undefined;
  /** The head names a media type: a text body is handed to the `Response` as text (no default type added). */
  #typed = false;
  #settled = false;
  #resolve!: (response: Response) => void;
  #reject!: (error: Error) => void;
  #controller: ReadableStreamDefaultController<Uint8Array> | undefined = undefined;
  /** The callback of the chunk waiting for the consumer to pull. */
  #waiting: (() => void) | undefined = undefined;
  #cancelled = false;

  /** @param head - true for a HEAD request: the answer carries no body. */
  constructor(head: boolean) {
    super({ highWaterMark: HIGH_WATER_MARK });
    this.#bodiless = head;
    this.response = new Promise<Response>((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
    // A rejection nobody awaits (the caller dropped the promise) must not crash the process.
    this.response.catch(() => undefined);
  }

  /**
   * Records the head; throws (nothing recorded) when a header cannot be sent, as node does. The
   * fields become a plain record (what a runtime's `Response` takes fastest); a name sent twice
   * (`set-cookie`) makes it a `Headers`, which keeps each line.
   */
  writeHead(status: number, headers: HeaderList): this {
    let out: Record<string, string> | Headers = {};
    let typed = false;
    for (let i = 0; i < headers.length; i += 2) {
      const name = headers[i]!;
      const lower = name.toLowerCase();
      if (HOP_BY_HOP.has(lower)) continue;
      if (lower === 'content-type') typed = true;
      const value = headers[i + 1]!;
      if (out instanceof Headers) out.append(name, value);
      else {
        // Refused here, as a Headers refuses it, before anything is recorded.
        if (!TOKEN.test(name) || !FIELD_VALUE.test(value)) new Headers([[name, value]]);
        if (Object.hasOwn(out, name)) {
          const lines: Headers = new Headers(out);
          lines.append(name, value);
          out = lines;
        } else out[name] = value;
      }
    }
    this.#status = status;
    this.#headers = out;
    this.#typed = typed;
    this.headersSent = true;
    return this;
  }

  flushHeaders(): void {
    this.#open();
  }

  override end(cb?: () => void): this;
  override end(chunk: unknown, cb?: () => void): this;
  override end(chunk: unknown, encoding: BufferEncoding, cb?: () => void): this;
  override end(chunk?: unknown, encoding?: unknown, cb?: unknown): this {
    if (typeof chunk === 'function' || chunk === undefined || chunk === null) {
      if (!this.#settled) this.#answer(undefined);
      return super.end(chunk as () => void);
    }
    if (!this.#settled) {
      // The whole body at once: a Response over its text or bytes, no stream. Text is encoded by
      // the runtime; only a head without a media type needs bytes (a string body would add one).
      this.#answer(
        typeof chunk === 'string' && !this.#typed ? Buffer.from(chunk) : (chunk as Uint8Array | string),
      );
      return super.end(encoding as () => void);
    }
    return super.end(chunk, encoding as BufferEncoding, cb as () => void);
  }

  /** Answers with the whole body (or none). */
  #answer(body: Uint8Array | string | undefined): void {
    this.#settled = true;
    const status = this.#status;
    const none = this.#bodiless || NULL_BODY.has(status) || body === undefined;
    this.#resolve(
      new Response(none ? null : (body as Uint8Array<ArrayBuffer> | string), {
        encodeBody: 'manual',
        status,
        headers: this.#headers ?? NO_HEADERS,
      } as ResponseInit),
    );
  }

  /** Answers with a stream (first chunk, or `flushHeaders`). */
  #open(): void {
    if (this.#settled) return;
    this.#settled = true;
    if (this.#bodiless || NULL_BODY.has(this.#status)) {
      this.#resolve(
        new Response(null, { ...MANUAL, status: this.#status, headers: this.#headers ?? NO_HEADERS }),
      );
      return;
    }
    const stream = new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          this.#controller = controller;
        },
        pull: () => this.#pulled(),
        cancel: () => {
          // The client left (or the server gave up on the body): the writer's teardown runs on 'close'.
          this.#cancelled = true;
          this.#pulled();
          this.destroy();
        },
      },
      // Nothing queued ahead of the consumer: a chunk leaves this writer when it is read.
      { highWaterMark: 0 },
    );
    this.#resolve(
      new Response(stream, { ...MANUAL, status: this.#status, headers: this.#headers ?? NO_HEADERS }),
    );
  }

  #pulled(): void {
    const waiting = this.#waiting;
    this.#waiting = undefined;
    waiting?.();
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.#open();
    const controller = this.#controller;
    if (controller === undefined || this.#cancelled) {
      callback();
      return;
    }
    controller.enqueue(chunk);
    // Pull-based: the next chunk is taken only when the consumer has room for it.
    if ((controller.desiredSize ?? 0) > 0) callback();
    else this.#waiting = callback;
  }

  override _final(callback: (error?: Error | null) => void): void {
    if (!this.#cancelled) this.#controller?.close();
    callback();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    if (!this.#settled) {
      // Nothing was answered: the caller of app.fetch sees the failure.
      this.#settled = true;
      this.#reject(error ?? new Error('the response was destroyed before it was answered'));
    } else if (!this.#cancelled && !this.writableFinished) {
      // A cut body: the stream fails, so the client sees an incomplete body, never a complete one.
      try {
        this.#controller?.error(error ?? new Error('the response body was cut'));
      } catch {
        // already closed
      }
    }
    this.#pulled();
    // No 'error' event: a cut is core's decision, already logged where it was made.
    callback();
  }
}
