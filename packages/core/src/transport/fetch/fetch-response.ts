import type { HeaderList } from '../../contract/exchange';
import { LightEmitter } from '../light-emitter';
import { FIELD_NAME, FIELD_VALUE, HOP_BY_HOP, NULL_BODY_STATUSES } from '../wire-rules';

/** Bytes a streamed body holds before the writer is told to wait (`write` → false, then `drain`). */
const HIGH_WATER_MARK = 16 * 1024;

const NO_HEADERS: Record<string, string> = {};

/** The queue of a response nothing waits in (shared, never written: a buffered answer makes none). */
const NO_CHUNKS: Uint8Array[] = [];

/**
 * Where core writes a response on the fetch transport: the `ServerResponse` surface core uses
 * (`writeHead`, `write`, `end`, `destroy`, `drain`/`finish`/`close`), answering a WHATWG
 * `Response`. It is a light event emitter, not a node `Writable`: the kind of answer decides the body.
 *
 * - A buffered answer (`end(body)` with nothing written before, what `ex.send` does) becomes a
 *   `Response` over its bytes or text at once: no stream object is built.
 * - A streamed one (`write`, or `flushHeaders`) becomes a `Response` over a `ReadableStream` that
 *   pulls: it holds one chunk ahead of the consumer, the rest wait here; `write` returns false (the
 *   writer waits for `drain`) once 16 KiB wait, so a stalled client never grows memory. A node
 *   stream (an encoder) can be piped into it.
 *
 * A cancelled stream (the client left) destroys this response: `close` runs the writer's teardown.
 * `destroy()` (a cut body) errors the stream, so the client sees an incomplete body, never a
 * complete one. `finish` (then `close`) follows the end on a later microtask, as node's follow it.
 */
export class FetchResponse extends LightEmitter {
  /** node's reason phrase: unused here (a `Response` has none on the wire). */
  statusMessage = '';
  /** No socket: the fetch server owns the connection. */
  readonly socket = null;
  headersSent = false;
  /** True once `end` was called. */
  writableEnded = false;
  /** True once the whole body was handed on (to the `Response`, or read from its stream). */
  writableFinished = false;
  /** Bytes written and not yet taken by the consumer. */
  writableLength = 0;
  /** `write` returned false: `drain` follows once the consumer has taken the waiting bytes. */
  writableNeedDrain = false;
  destroyed = false;
  readonly #bodiless: boolean;
  /** The request, until something watches for its client leaving (`watchClient`). */
  #request: Request | undefined;
  #status = 200;
  #headers: Record<string, string> | Headers | undefined = undefined;
  /** The head names a media type: a text body is handed to the `Response` as text (no default type added). */
  #typed = false;
  #settled = false;
  /** The answer, once decided before anyone asked for it (`outcome()` hands it over as it is). */
  #answered: Response | undefined = undefined;
  /** The failure (destroyed before an answer), once decided before anyone asked. */
  #failed: Error | undefined = undefined;
  /** The promise handed out by `outcome()` while nothing was decided, with its settlers. */
  #promise: Promise<Response> | undefined = undefined;
  #resolve: ((response: Response) => void) | undefined = undefined;
  #reject: ((error: Error) => void) | undefined = undefined;
  #controller: ReadableStreamDefaultController<Uint8Array> | undefined = undefined;
  /** Chunks written behind the one the stream holds for its consumer (which has not asked yet). */
  #queue: Uint8Array[] = NO_CHUNKS;
  #cancelled = false;
  /** The body was cut (destroyed mid-stream): the stream fails once what was written is taken. */
  #cut: Error | undefined = undefined;
  #closing = false;

  /**
   * @param request - the request answered (its `signal` tells when the client leaves)
   * @param head - true for a HEAD request: the answer carries no body
   */
  constructor(request: Request, head: boolean) {
    super();
    this.#request = request;
    this.#bodiless = head;
  }

  /**
   * The answer: the `Response` itself when it was decided already (a route that answered within
   * the dispatch: no promise, no microtask hop), else a promise of it; a promise that rejects when
   * the response was destroyed before any answer.
   */
  outcome(): Response | Promise<Response> {
    if (this.#answered !== undefined) return this.#answered;
    if (this.#failed !== undefined) return Promise.reject(this.#failed);
    return this.response;
  }

  /** The answer as a promise (`outcome()` without the synchronous case). */
  get response(): Promise<Response> {
    if (this.#promise !== undefined) return this.#promise;
    if (this.#answered !== undefined) return (this.#promise = Promise.resolve(this.#answered));
    if (this.#failed !== undefined) this.#promise = Promise.reject(this.#failed);
    else
      this.#promise = new Promise<Response>((resolve, reject) => {
        this.#resolve = resolve;
        this.#reject = reject;
      });
    // A rejection nobody awaits (the caller dropped the promise) must not crash the process.
    this.#promise.catch(() => undefined);
    return this.#promise;
  }

  #settle(response: Response): void {
    if (this.#resolve !== undefined) this.#resolve(response);
    else this.#answered = response;
  }

  /**
   * From now on, a client that leaves before the answer is complete destroys this response (a
   * stream's teardown and a request's signal run on 'close'). Not done for every request:
   * `request.signal` is not free (Bun makes it on first read; Deno then aborts it after every
   * answer, a DOMException each; @hono/node-server builds a full undici Request for it), and a
   * buffered answer nobody waits on has nothing to stop. Core calls it for a request's signal or
   * deadline; a stream calls it when it opens.
   */
  watchClient(): void {
    const request = this.#request;
    if (request === undefined) return;
    this.#request = undefined;
    if (this.#closing || this.destroyed) return;
    const signal = request.signal as AbortSignal | undefined;
    if (signal === undefined || signal.aborted) return;
    const left = (): void => void this.destroy();
    signal.addEventListener('abort', left, { once: true });
    this.once('close', () => signal.removeEventListener('abort', left));
  }

  /** A node `Writable`'s flag: true until the end or a destroy. */
  get writable(): boolean {
    return !this.writableEnded && !this.destroyed;
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
        if (!FIELD_NAME.test(name) || !FIELD_VALUE.test(value)) new Headers([[name, value]]);
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

  /**
   * Writes a chunk of a streamed body (the `Response` is answered with a stream on the first one);
   * false once 16 KiB wait for the consumer (`drain` follows). After the end or a destroy the
   * chunk is dropped (false).
   */
  write(chunk: string | Uint8Array, encoding?: BufferEncoding | (() => void), cb?: () => void): boolean {
    const done = typeof encoding === 'function' ? encoding : cb;
    if (this.writableEnded || this.destroyed) return false;
    this.#open();
    this.#push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
    if (done !== undefined) queueMicrotask(done);
    if (this.writableLength < HIGH_WATER_MARK) return true;
    this.writableNeedDrain = true;
    return false;
  }

  /** Ends the response: with nothing written before, `end(body)` answers with the whole body at once. */
  end(cb?: () => void): this;
  end(chunk: string | Uint8Array, cb?: () => void): this;
  end(chunk: string | Uint8Array, encoding: BufferEncoding, cb?: () => void): this;
  end(chunk?: unknown, encoding?: unknown, cb?: unknown): this {
    if (typeof chunk === 'function') cb = chunk;
    else if (typeof encoding === 'function') cb = encoding;
    if (this.writableEnded || this.destroyed) return this;
    const body = typeof chunk === 'string' || chunk instanceof Uint8Array ? chunk : undefined;
    if (!this.#settled) {
      // The whole body at once (or none): a Response over its text or bytes, no stream. Text is
      // encoded by the runtime; only a head without a media type needs bytes (a string body would add one).
      this.writableEnded = true;
      this.#answer(typeof body === 'string' && !this.#typed ? Buffer.from(body) : body);
    } else {
      if (body !== undefined) this.#push(typeof body === 'string' ? Buffer.from(body) : body);
      this.writableEnded = true;
      if (this.#queue.length === 0) this.#closeStream();
    }
    if (typeof cb === 'function') this.once('finish', cb as () => void);
    return this;
  }

  /**
   * Ends the response at once. Before an answer, the caller of `app.fetch` sees the failure (the
   * promise rejects); in a stream not yet complete, the stream fails (an incomplete body).
   */
  destroy(error?: Error): this {
    if (this.destroyed) return this;
    this.destroyed = true;
    if (!this.#settled) {
      this.#settled = true;
      const failure = error ?? new Error('the response was destroyed before it was answered');
      if (this.#reject !== undefined) this.#reject(failure);
      else this.#failed = failure;
    } else if (!this.#cancelled && !this.writableFinished) {
      // A cut body: what was written still reaches the consumer, then the stream fails, so the
      // client sees an incomplete body, never a complete one (node ends the socket the same way).
      this.#cut = error ?? new Error('the response body was cut');
      if (this.#queue.length === 0 && (this.#controller?.desiredSize ?? 0) > 0) this.#fail();
    } else {
      this.#queue = NO_CHUNKS;
      this.writableLength = 0;
    }
    // No 'error' event: a cut is core's decision, already logged where it was made.
    this.#emitClose(false);
    return this;
  }

  /** The stream of a cut body fails (after the chunks written before the cut). */
  #fail(): void {
    try {
      this.#controller?.error(this.#cut);
    } catch {
      // The stream is already closed or errored: nothing more to tell its reader.
    }
  }

  /** Answers with the whole body (or none); the response is then finished. */
  #answer(body: Uint8Array | string | undefined): void {
    this.#settled = true;
    const status = this.#status;
    const none = this.#bodiless || NULL_BODY_STATUSES.has(status) || body === undefined;
    this.#settle(
      new Response(none ? null : (body as Uint8Array<ArrayBuffer> | string), {
        // 'manual': the body is sent as core framed it. workerd would otherwise compress a body
        // whose head says content-encoding (already encoded by @api/compress) a second time;
        // other runtimes ignore the field.
        encodeBody: 'manual',
        status,
        headers: this.#headers ?? NO_HEADERS,
      } as ResponseInit),
    );
    this.#emitClose(true);
  }

  /** Answers with a stream (first chunk, or `flushHeaders`); a bodiless answer has none. */
  #open(): void {
    if (this.#settled) return;
    this.#settled = true;
    this.watchClient();
    let stream: ReadableStream<Uint8Array> | null = null;
    if (!this.#bodiless && !NULL_BODY_STATUSES.has(this.#status))
      stream = new ReadableStream<Uint8Array>(
        {
          start: (controller) => {
            this.#controller = controller;
          },
          pull: () => this.#pull(),
          cancel: () => {
            // The client left (or the server gave up on the body): the writer's teardown runs on 'close'.
            this.#cancelled = true;
            this.#queue = NO_CHUNKS;
            this.writableLength = 0;
            this.destroy();
          },
        },
        // One chunk held ahead of the consumer (a runtime reading a burst finds it there); the
        // rest wait here, counted for backpressure.
        { highWaterMark: 1 },
      );
    this.#settle(
      new Response(stream, {
        encodeBody: 'manual',
        status: this.#status,
        headers: this.#headers ?? NO_HEADERS,
      } as ResponseInit),
    );
  }

  /**
   * A chunk for the consumer: into the stream when it holds none (taken at once by a waiting
   * read, or held one ahead), queued here otherwise.
   */
  #push(chunk: Uint8Array): void {
    const controller = this.#controller;
    // A bodiless answer (HEAD, 204, 304) drops what is written; so does a cancelled stream.
    if (controller === undefined || this.#cancelled || chunk.byteLength === 0) return;
    if (this.#queue.length === 0 && (controller.desiredSize ?? 0) > 0) {
      controller.enqueue(chunk);
      return;
    }
    if (this.#queue === NO_CHUNKS) this.#queue = [];
    this.#queue.push(chunk);
    this.writableLength += chunk.byteLength;
  }

  /** The stream holds nothing for its consumer any more: the oldest queued chunk. */
  #pull(): void {
    const chunk = this.#queue.shift();
    if (chunk === undefined) {
      // Everything written before a cut was taken: now the stream fails.
      if (this.#cut !== undefined) this.#fail();
      return;
    }
    this.writableLength -= chunk.byteLength;
    this.#controller!.enqueue(chunk);
    if (this.#queue.length === 0 && this.writableEnded) this.#closeStream();
    else if (this.writableNeedDrain && this.writableLength < HIGH_WATER_MARK) {
      this.writableNeedDrain = false;
      this.emit('drain');
    }
  }

  /** The last chunk was taken after the end: the stream closes, the response is finished. */
  #closeStream(): void {
    if (!this.#cancelled) this.#controller?.close();
    this.#emitClose(true);
  }

  /** `finish` (when complete) then `close`, once, after the current turn, as node emits them. */
  #emitClose(finished: boolean): void {
    if (finished) this.writableFinished = true;
    if (this.#closing) return;
    this.#closing = true;
    queueMicrotask(() => {
      if (this.writableFinished) this.emit('finish');
      this.emit('close');
    });
  }
}
