import type { IncomingHttpHeaders } from 'node:http';
import type { WireRequest } from '../../contract/wire';
import { distinctHeaders } from '../wire-rules';

type Listener = (chunk: Buffer) => void;

/**
 * A WHATWG `Request` as core's exchange reads a request: headers in node:http's shapes, built
 * only when something reads them (most routes read none, or one, through `headers`), the body as
 * chunks (events or async iteration), read only when a binder asks for it.
 *
 * The body: a JSON binder takes a body of declared length as text in one `text()` call
 * (`wholeText`). Otherwise, with a declared `content-length` (core refuses one over its limit before reading), the
 * runtime's own `arrayBuffer()` reads it in one call — the runtime's HTTP framing holds it to that
 * length, and the binder still counts what arrives. Without one (chunked), it is pulled one chunk
 * at a time from a stream reader, nothing buffered ahead of the binder, so an over-limit body is
 * refused at the limit and the rest never read.
 *
 * What `fetch` cannot tell: header names arrive lower-cased and repeats of one name already
 * joined with `, ` (`set-cookie` aside), so `rawHeaders` keeps the order, not the spelling or the
 * repeats, and `headersDistinct` holds one value per name.
 */
export class FetchRequest implements WireRequest {
  readonly url: string;
  readonly scheme: 'http' | 'https';
  readonly origin: string;
  /** A `Headers` joins repeats (`RequestHead.repeatsJoined`). */
  readonly repeatsJoined = true;
  readonly #request: Request;
  /** `request.body`, once read (undefined before): Deno makes a stream object on that read. */
  #body: ReadableStream<Uint8Array> | null | undefined = undefined;
  /** The body's end was read. */
  #ended = false;
  #reader: ReadableStreamDefaultReader<Uint8Array> | undefined = undefined;
  /** Set once something reads the body (listeners or iteration): it is read once. */
  #started = false;
  /** The headers as a record, once something needed them all (built by `#readHeaders`). */
  #headers: IncomingHttpHeaders | undefined = undefined;
  /** What `headers` gives before that: reads one name at a time (see `headerView`). */
  #view: IncomingHttpHeaders | undefined = undefined;
  #raw: string[] | undefined = undefined;
  #distinct: Record<string, string[]> | undefined = undefined;
  /** The listeners, each list made when its first one comes (most requests have none). */
  #data: Listener[] | undefined = undefined;
  #end: (() => void)[] | undefined = undefined;
  #close: (() => void)[] | undefined = undefined;

  /**
   * @param request - the request
   * @param url - its target in origin-form (path and query)
   * @param scheme - its URL's scheme
   * @param origin - its URL's scheme and authority
   */
  constructor(request: Request, url: string, scheme: 'http' | 'https', origin: string) {
    this.url = url;
    this.scheme = scheme;
    this.origin = origin;
    this.#request = request;
  }

  /**
   * `request.body`, read on first need: a declared length is read by `arrayBuffer()` without it
   * (on Deno, reading `body` first makes a stream the runtime then reads through, ×1.2 the work).
   */
  #stream(): ReadableStream<Uint8Array> | null {
    if (this.#body === undefined) this.#body = this.#request.body;
    return this.#body;
  }

  /** True once the whole body arrived (at once when there is none). */
  get complete(): boolean {
    return this.#ended || this.#stream() === null;
  }

  /** True once the body's end was read (at once when there is none). */
  get readableEnded(): boolean {
    return this.complete;
  }

  /**
   * The headers in node:http's shape (lower-case names; `set-cookie` a list). A read by name asks
   * the `Request` for that one header (what a route does: a few names); anything that needs them
   * all (keys, `in`, spread, a write) builds the record once, and every read goes to it from then on.
   */
  get headers(): IncomingHttpHeaders {
    return (
      this.#headers ??
      (this.#view ??= headerView(
        this.#request.headers,
        () => this.#headers,
        () => this.#record(),
      ))
    );
  }

  #record(): IncomingHttpHeaders {
    if (this.#headers === undefined) this.#readHeaders();
    return this.#headers!;
  }

  /** Names and values in arrival order, built on first read. */
  get rawHeaders(): string[] {
    if (this.#raw === undefined) this.#readHeaders();
    return this.#raw!;
  }

  /** The number of header lines (the 431 check), without building either shape when the runtime tells it. */
  get headerCount(): number {
    if (this.#raw !== undefined) return this.#raw.length >> 1;
    // Bun's `Headers` knows its size (`count`); elsewhere the headers are read once here.
    const count = (this.#request.headers as Headers & { count?: unknown }).count;
    if (typeof count === 'number') return count;
    return this.rawHeaders.length >> 1;
  }

  #readHeaders(): void {
    const headers: Record<string, string | string[]> = {};
    const raw: string[] = [];
    this.#request.headers.forEach((value, name) => {
      raw.push(name, value);
      if (name === 'set-cookie') ((headers[name] ??= []) as string[]).push(value);
      else headers[name] = value;
    });
    this.#headers = headers;
    this.#raw = raw;
  }

  get headersDistinct(): Record<string, string[]> {
    return (this.#distinct ??= distinctHeaders(this.rawHeaders));
  }

  on(event: 'data', listener: Listener): this;
  on(event: 'end' | 'close', listener: () => void): this;
  on(event: 'data' | 'end' | 'close', listener: Listener | (() => void)): this {
    if (event === 'data') {
      (this.#data ??= []).push(listener);
      void this.#flow();
    } else if (event === 'end') (this.#end ??= []).push(listener as () => void);
    else (this.#close ??= []).push(listener as () => void);
    return this;
  }

  off(event: 'data', listener: Listener): this {
    const at = this.#data?.indexOf(listener) ?? -1;
    if (at >= 0) this.#data!.splice(at, 1);
    return this;
  }

  /**
   * Stops reading: a body core refused (413) is not read to its end. node:http would drain it on
   * the same connection; a fetch server owns its connections, so the rest is cancelled instead.
   */
  resume(): this {
    const reader = this.#reader;
    if (reader !== undefined) reader.cancel().catch(() => undefined);
    else if (!this.#started || this.#body !== undefined)
      // Not read yet (or read through a stream): cancelled. A one-call read under way is left to end.
      this.#stream()
        ?.cancel()
        .catch(() => undefined);
    return this;
  }

  /**
   * The whole body as text, in one native read (`RequestBody.wholeText`): core's JSON binders
   * call it for a body that declares its length. Once: the body is then read.
   */
  wholeText(): Promise<string> {
    if (this.#started) return Promise.reject(new Error('the request body is already being read'));
    this.#started = true;
    return this.#request.text().then((text) => {
      this.#ended = true;
      return text;
    });
  }

  /** Reads chunk by chunk into the 'data' listeners, then 'end' and 'close' ('close' alone when it fails). */
  async #flow(): Promise<void> {
    if (this.#started) return;
    this.#started = true;
    if (this.#request.headers.get('content-length') !== null) {
      // A declared length: one native read (see the class comment).
      let bytes: ArrayBuffer;
      try {
        bytes = await this.#request.arrayBuffer();
      } catch {
        // The client left or the body broke mid-read: 'close' alone, as node:http does.
        this.#finish(false);
        return;
      }
      if (bytes.byteLength > 0) {
        const chunk = Buffer.from(bytes);
        if (this.#data !== undefined) for (const listener of this.#data.slice()) listener(chunk);
      }
      this.#finish(true);
      return;
    }
    const body = this.#stream();
    if (body === null) {
      // No body: end as node does for an empty one, once the listeners are in place.
      await Promise.resolve();
      this.#finish(true);
      return;
    }
    const reader = (this.#reader = body.getReader());
    try {
      for (;;) {
        const step = await reader.read();
        if (step.done) break;
        const chunk = toBuffer(step.value);
        if (this.#data !== undefined) for (const listener of this.#data.slice()) listener(chunk);
      }
    } catch {
      this.#finish(false);
      return;
    }
    this.#finish(true);
  }

  #finish(ok: boolean): void {
    if (ok) {
      this.#ended = true;
      if (this.#end !== undefined) for (const listener of this.#end.slice()) listener();
    }
    if (this.#close !== undefined) for (const listener of this.#close.slice()) listener();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<Buffer> {
    const body = this.#stream();
    if (body === null || this.#started) return;
    this.#started = true;
    const reader = (this.#reader = body.getReader());
    for (;;) {
      const step = await reader.read();
      if (step.done) break;
      yield toBuffer(step.value);
    }
    this.#ended = true;
  }
}

/**
 * A record of `headers` read one name at a time: a lower-case name is `headers.get(name)`
 * (undefined when absent, as node's record); everything else, and every read once `record()` was
 * built, is the record's (which `record()` builds from `headers` on first need).
 *
 * @param headers - the request's headers
 * @param built - the record, when built (by this view or by anything else)
 * @param whole - the record, built on first call
 */
function headerView(
  headers: Headers,
  built: () => IncomingHttpHeaders | undefined,
  whole: () => IncomingHttpHeaders,
): IncomingHttpHeaders {
  const target: IncomingHttpHeaders = {};
  return new Proxy(target, {
    get(_target, name): unknown {
      const record = built();
      if (record !== undefined) return Reflect.get(record, name) as unknown;
      if (typeof name !== 'string' || name in Object.prototype || name === 'set-cookie')
        return Reflect.get(whole(), name) as unknown;
      // node's record has lower-case names only: another spelling is absent.
      if (name !== name.toLowerCase()) return undefined;
      try {
        return headers.get(name) ?? undefined;
      } catch {
        // Not a header name (a Headers refuses it): no such header, as in node's record.
        return undefined;
      }
    },
    has: (_target, name) => Reflect.has(whole(), name),
    ownKeys: () => Reflect.ownKeys(whole()),
    getOwnPropertyDescriptor: (_target, name) => Reflect.getOwnPropertyDescriptor(whole(), name),
    set: (_target, name, value) => Reflect.set(whole(), name, value),
    deleteProperty: (_target, name) => Reflect.deleteProperty(whole(), name),
    defineProperty: (_target, name, descriptor) => Reflect.defineProperty(whole(), name, descriptor),
  });
}

function toBuffer(chunk: Uint8Array): Buffer {
  return Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
}
