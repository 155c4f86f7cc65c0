import type { Exchange, HeaderList } from '../../contract/exchange';
import type { InvokeAnswer } from '../../contract/invoke';
import { LightEmitter } from '../light-emitter';
import { FIELD_NAME, FIELD_VALUE, HOP_BY_HOP, NULL_BODY_STATUSES } from '../wire-rules';

const EMPTY = new Uint8Array(0);

/**
 * Where core writes the answer of a `wiring.invoke` request: the `ServerResponse` surface core uses
 * (`writeHead`, `write`, `end`, `destroy`, `finish`/`close`), collecting the answer in memory and
 * resolving `answer` with it once it ends. A buffered answer (`ex.send`) is one `end(body)`; a
 * streamed one is collected chunk by chunk up to `maxBytes` — past that the response is destroyed
 * (the writer's teardown runs on 'close') and `answer` rejects with a `RangeError`. `write` never
 * asks the writer to wait: the bound, not backpressure, keeps memory in check.
 *
 * The caller leaving (its `signal` aborts) destroys the response, as a client leaving destroys
 * node's: the route's signal and a stream's teardown run on 'close', `answer` rejects.
 */
export class DirectResponse extends LightEmitter {
  /** The whole answer, once the route has ended it. */
  readonly answer: Promise<InvokeAnswer>;
  /** node's reason phrase: unused (the answer carries none). */
  statusMessage = '';
  /** No socket. */
  readonly socket = null;
  headersSent = false;
  writableEnded = false;
  writableFinished = false;
  /** Always 0: collected bytes never wait for anyone. */
  readonly writableLength = 0;
  readonly writableNeedDrain = false;
  destroyed = false;
  readonly #bodiless: boolean;
  readonly #maxBytes: number;
  /** `METHOD path`, for the over-limit error. */
  readonly #label: string;
  #signal: AbortSignal | undefined;
  #parent: Exchange | undefined;
  #status = 200;
  #headers: Record<string, string | string[]> = {};
  #chunks: Uint8Array[] = [];
  #size = 0;
  #settled = false;
  #closing = false;
  #resolve!: (answer: InvokeAnswer) => void;
  #reject!: (error: Error) => void;

  /**
   * @param options - the caller's signal; true for a HEAD request (no body); the body's bound; `METHOD path`
   */
  constructor(options: {
    readonly signal: AbortSignal | undefined;
    readonly parent: Exchange | undefined;
    readonly head: boolean;
    readonly maxBytes: number;
    readonly label: string;
  }) {
    super();
    this.#signal = options.signal;
    this.#parent = options.parent;
    this.#bodiless = options.head;
    this.#maxBytes = options.maxBytes;
    this.#label = options.label;
    this.answer = new Promise<InvokeAnswer>((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
    // A rejection nobody awaits (the caller dropped the promise) must not crash the process.
    this.answer.catch(() => undefined);
  }

  /**
   * From now on the caller's signal aborting, or its parent exchange's response closing, destroys
   * this response (core calls it for a route that binds `signal` or has a deadline; a stream, on
   * its first chunk). A signal already aborted: at once.
   */
  watchClient(): void {
    const signal = this.#signal;
    const parent = this.#parent;
    this.#signal = undefined;
    this.#parent = undefined;
    if (this.#closing || this.destroyed) return;
    const left = (): void => void this.destroy();
    if (signal !== undefined) {
      if (signal.aborted) {
        this.destroy();
        return;
      }
      signal.addEventListener('abort', left, { once: true });
      this.once('close', () => signal.removeEventListener('abort', left));
    }
    if (parent !== undefined) {
      const res = parent.res;
      res.on('close', left);
      this.once('close', () => res.off('close', left));
    }
  }

  /** A node `Writable`'s flag: true until the end or a destroy. */
  get writable(): boolean {
    return !this.writableEnded && !this.destroyed;
  }

  /** Records the head; throws (nothing recorded) for a header node:http would refuse. */
  writeHead(status: number, headers: HeaderList): this {
    const out: Record<string, string | string[]> = {};
    for (let i = 0; i < headers.length; i += 2) {
      const name = headers[i]!;
      const value = headers[i + 1]!;
      if (!FIELD_NAME.test(name)) throw new TypeError(`Invalid header name: ${JSON.stringify(name)}`);
      if (!FIELD_VALUE.test(value)) throw new TypeError(`Invalid value of header "${name}"`);
      const lower = name.toLowerCase();
      if (HOP_BY_HOP.has(lower)) continue;
      const had = out[lower];
      if (lower === 'set-cookie') {
        if (had === undefined) out[lower] = [value];
        else (had as string[]).push(value);
      } else out[lower] = had === undefined ? value : `${had as string}, ${value}`;
    }
    this.#status = status;
    this.#headers = out;
    this.headersSent = true;
    return this;
  }

  /** The head is already recorded: nothing to flush. */
  flushHeaders(): void {
    this.watchClient();
  }

  /** Collects a chunk of a streamed body; false (dropped) after the end or a destroy. */
  write(chunk: string | Uint8Array, encoding?: BufferEncoding | (() => void), cb?: () => void): boolean {
    const done = typeof encoding === 'function' ? encoding : cb;
    if (this.writableEnded || this.destroyed) return false;
    // A streamed answer: the caller leaving must stop it, as a client leaving stops a stream.
    this.watchClient();
    this.#push(chunk);
    if (done !== undefined) queueMicrotask(done);
    return !this.destroyed;
  }

  end(cb?: () => void): this;
  end(chunk: string | Uint8Array, cb?: () => void): this;
  end(chunk: string | Uint8Array, encoding: BufferEncoding, cb?: () => void): this;
  end(chunk?: unknown, encoding?: unknown, cb?: unknown): this {
    if (typeof chunk === 'function') cb = chunk;
    else if (typeof encoding === 'function') cb = encoding;
    if (this.writableEnded || this.destroyed) return this;
    if (typeof chunk === 'string' || chunk instanceof Uint8Array) this.#push(chunk);
    if (this.destroyed) return this;
    this.writableEnded = true;
    this.#settled = true;
    const chunks = this.#chunks;
    this.#chunks = [];
    this.#resolve({
      status: this.#status,
      headers: this.#headers,
      body:
        chunks.length === 0 ? EMPTY : chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, this.#size),
    });
    if (typeof cb === 'function') this.once('finish', cb as () => void);
    this.#emitClose(true);
    return this;
  }

  /**
   * Ends the response at once: before its end, `answer` rejects (with `error`, else "destroyed
   * before it was complete"); 'close' follows, without 'finish'.
   */
  destroy(error?: Error): this {
    if (this.destroyed) return this;
    this.destroyed = true;
    this.#chunks = [];
    if (!this.#settled) {
      this.#settled = true;
      this.#reject(error ?? new Error(`${this.#label}: the response was destroyed before it was complete`));
    }
    this.#emitClose(false);
    return this;
  }

  #push(chunk: string | Uint8Array): void {
    if (this.#bodiless || NULL_BODY_STATUSES.has(this.#status)) return;
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    if (bytes.byteLength === 0) return;
    this.#size += bytes.byteLength;
    if (this.#size > this.#maxBytes) {
      this.destroy(
        new RangeError(
          `wiring.invoke: the answer to ${this.#label} is over maxAnswerBytes (${this.#maxBytes} bytes); ` +
            'pass a larger maxAnswerBytes, or invoke a route that answers less',
        ),
      );
      return;
    }
    this.#chunks.push(bytes);
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
