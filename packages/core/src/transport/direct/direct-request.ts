import type { IncomingHttpHeaders } from 'node:http';
import type { WireRequest } from '../../contract/wire';
import type { InvokeRequest } from '../../contract/invoke';
import { distinctHeaders } from '../wire-rules';

type Listener = (chunk: Buffer) => void;

const EMPTY = Buffer.alloc(0);

/**
 * A `wiring.invoke` request as core's exchange reads a request: the headers in node:http's shape
 * (built once from the caller's record), the body already whole in memory. It is `complete` from
 * the start (the whole body has arrived, as for a small body on node:http); a reader gets it as one
 * 'data' chunk (none when empty), then 'end' and 'close', on a later microtask.
 */
export class DirectRequest implements WireRequest {
  readonly url: string;
  readonly scheme: 'http' | 'https';
  readonly origin: string | undefined;
  readonly headers: IncomingHttpHeaders;
  /** True: the whole body is here. */
  readonly complete = true;
  /** True once the body was read to its end (or dropped by `resume`). */
  readableEnded = false;
  readonly #body: Buffer;
  readonly #given: InvokeRequest['headers'];
  #raw: string[] | undefined = undefined;
  #distinct: Record<string, string[]> | undefined = undefined;
  #started = false;
  readonly #data: Listener[] = [];
  readonly #end: (() => void)[] = [];
  readonly #close: (() => void)[] = [];

  /**
   * @param request - the caller's description
   * @param url - its target in origin-form (path and query)
   */
  constructor(request: InvokeRequest, url: string) {
    this.url = url;
    const origin = request.origin;
    this.origin = origin;
    this.scheme = origin !== undefined && origin.startsWith('https:') ? 'https' : 'http';
    const body = request.body;
    this.#body =
      body === undefined
        ? EMPTY
        : typeof body === 'string'
          ? Buffer.from(body)
          : Buffer.isBuffer(body)
            ? body
            : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
    this.#given = request.headers;
    this.headers = headersOf(request.headers, body === undefined ? undefined : this.#body.byteLength);
  }

  /** Names and values, one line per value (a listed name once per item), built on first read. */
  get rawHeaders(): string[] {
    if (this.#raw === undefined) {
      const raw: string[] = [];
      const given = this.#given;
      if (given !== undefined)
        for (const key in given) {
          const value = given[key];
          const name = key.toLowerCase();
          if (value === undefined || name === 'content-length') continue;
          if (typeof value === 'string') raw.push(name, value);
          else for (const item of value) raw.push(name, item);
        }
      const length = this.headers['content-length'];
      if (length !== undefined) raw.push('content-length', length);
      this.#raw = raw;
    }
    return this.#raw;
  }

  /** The number of header lines (the 431 check). */
  get headerCount(): number {
    return this.rawHeaders.length >> 1;
  }

  get headersDistinct(): Record<string, string[]> {
    return (this.#distinct ??= distinctHeaders(this.rawHeaders));
  }

  on(event: 'data', listener: Listener): this;
  on(event: 'end' | 'close', listener: () => void): this;
  on(event: 'data' | 'end' | 'close', listener: Listener | (() => void)): this {
    if (event === 'data') {
      this.#data.push(listener);
      if (!this.#started) {
        this.#started = true;
        // After the caller has added its 'end' and 'close' listeners, as a socket's data arrives.
        queueMicrotask(() => this.#flow());
      }
    } else (event === 'end' ? this.#end : this.#close).push(listener as () => void);
    return this;
  }

  off(event: 'data', listener: Listener): this {
    const at = this.#data.indexOf(listener);
    if (at >= 0) this.#data.splice(at, 1);
    return this;
  }

  /** Drops the body (a refused one is not read). */
  resume(): this {
    this.#data.length = 0;
    return this;
  }

  #flow(): void {
    const body = this.#body;
    if (body.byteLength > 0) for (const listener of this.#data.slice()) listener(body);
    this.readableEnded = true;
    for (const listener of this.#end.slice()) listener();
    for (const listener of this.#close.slice()) listener();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<Buffer> {
    if (this.#started) return;
    this.#started = true;
    if (this.#body.byteLength > 0) yield this.#body;
    this.readableEnded = true;
  }
}

/**
 * The caller's header record in node:http's shape: lower-case names, a listed name joined with
 * `, ` (`set-cookie` kept a list), `content-length` the body's (absent without one).
 */
function headersOf(given: InvokeRequest['headers'], length: number | undefined): IncomingHttpHeaders {
  const headers: Record<string, string | string[]> = {};
  if (given !== undefined)
    for (const key in given) {
      const value = given[key];
      if (value === undefined) continue;
      const name = key.toLowerCase();
      if (name === 'content-length') continue;
      if (typeof value === 'string') headers[name] = value;
      else if (name === 'set-cookie') headers[name] = [...value];
      else if (value.length > 0) headers[name] = value.join(', ');
    }
  if (length !== undefined) headers['content-length'] = '' + length;
  return headers;
}
