import { parseSetCookies, type ResponseCookie } from '../cookies/parse-set-cookie';

/** A header list as it crossed the wire: `[name, value]` pairs, names as sent, repeats kept. */
export type HeaderPairs = ReadonlyArray<readonly [string, string]>;

/**
 * Case-insensitive read access to a response's headers. Repeated headers are joined with
 * `, ` (as `fetch` does), except `set-cookie`, whose lines never join: `get('set-cookie')` is
 * the first line, `getSetCookie()` / `getAll()` give them all.
 *
 * @example
 * res.headers.get('Content-Type'); // 'application/json'
 * res.headers.get('x-missing');    // undefined
 */
export class ResponseHeaders implements Iterable<[string, string]> {
  readonly #byName = new Map<string, string[]>();

  /** @param pairs - The wire header list. */
  constructor(pairs: HeaderPairs) {
    for (const [name, value] of pairs) {
      const key = name.toLowerCase();
      const list = this.#byName.get(key);
      if (list) list.push(value);
      else this.#byName.set(key, [value]);
    }
  }

  /**
   * The header's value (repeats joined with `, `; `set-cookie`: the first line), or `undefined`.
   *
   * @param name - Any case.
   */
  get(name: string): string | undefined {
    const key = name.toLowerCase();
    const list = this.#byName.get(key);
    if (!list) return undefined;
    return key === 'set-cookie' ? list[0] : list.join(', ');
  }

  /**
   * Every value of the header, in wire order (empty when absent).
   *
   * @param name - Any case.
   */
  getAll(name: string): string[] {
    return [...(this.#byName.get(name.toLowerCase()) ?? [])];
  }

  /** Every `Set-Cookie` line, in wire order. */
  getSetCookie(): string[] {
    return this.getAll('set-cookie');
  }

  /**
   * True when the header was sent.
   *
   * @param name - Any case.
   */
  has(name: string): boolean {
    return this.#byName.has(name.toLowerCase());
  }

  /** Lowercased names of the headers sent, in first-seen order. */
  keys(): string[] {
    return [...this.#byName.keys()];
  }

  /** `[lowercased name, value]` pairs, values joined as `get()` joins them. */
  *[Symbol.iterator](): Iterator<[string, string]> {
    for (const key of this.#byName.keys()) yield [key, this.get(key) ?? ''];
  }

  /** A plain record of `[lowercased name, value]` (for snapshots and `toMatchObject`). */
  toJSON(): Record<string, string> {
    return Object.fromEntries(this);
  }
}

/** Pairs node's flat `rawHeaders` list into `[name, value]` tuples. */
export function pairRawHeaders(raw: readonly string[]): Array<readonly [string, string]> {
  const out: Array<readonly [string, string]> = [];
  for (let i = 0; i + 1 < raw.length; i += 2) out.push([raw[i] ?? '', raw[i + 1] ?? '']);
  return out;
}

/** The head of a response: status and headers, shared by buffered responses and stream sessions. */
export class ResponseHead {
  /** The status code. */
  readonly status: number;
  /** The status line's reason phrase. */
  readonly statusText: string;
  /** Case-insensitive header access. */
  readonly headers: ResponseHeaders;
  /** The wire header list: `[name, value]` pairs in order, names as sent, repeats kept. */
  readonly multiHeaders: HeaderPairs;
  #cookies: Record<string, ResponseCookie> | undefined;

  /**
   * @param status - The status code.
   * @param statusText - The reason phrase.
   * @param multiHeaders - The wire header list.
   */
  constructor(status: number, statusText: string, multiHeaders: HeaderPairs) {
    this.status = status;
    this.statusText = statusText;
    this.multiHeaders = multiHeaders;
    this.headers = new ResponseHeaders(multiHeaders);
  }

  /** The parsed `Set-Cookie` lines keyed by cookie name (attribute names lowercased). */
  get cookies(): Readonly<Record<string, ResponseCookie>> {
    this.#cookies ??= parseSetCookies(this.headers.getSetCookie());
    return this.#cookies;
  }
}

/**
 * A captured (buffered) response.
 *
 * @example
 * const res = await client.get('/healthz');
 * expect(res.status).toBe(200);
 * expect(res.json()).toEqual({ status: 'ok' });
 */
export class TestResponse extends ResponseHead {
  /** The body bytes (empty for `HEAD`, 204 and 304). */
  readonly body: Buffer;

  /**
   * @param status - The status code.
   * @param statusText - The reason phrase.
   * @param multiHeaders - The wire header list.
   * @param body - The body bytes.
   */
  constructor(status: number, statusText: string, multiHeaders: HeaderPairs, body: Buffer) {
    super(status, statusText, multiHeaders);
    this.body = body;
  }

  /** The body decoded as UTF-8. */
  get text(): string {
    return this.body.toString('utf8');
  }

  /**
   * The body parsed as JSON. `T` is an assertion, not a check: validate with valibot when it matters.
   *
   * @example
   * const widget = res.json<{ id: string }>();
   */
  json<T = unknown>(): T {
    const text = this.text;
    try {
      return JSON.parse(text) as T;
    } catch (error) {
      throw new SyntaxError(
        `TestResponse.json(): the ${this.status} body is not JSON: ${JSON.stringify(text.slice(0, 200))}`,
        { cause: error },
      );
    }
  }
}
