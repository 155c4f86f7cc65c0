/** One decoded Server-Sent Event. */
export interface ServerSentEventRecord<T = unknown> {
  /** The `data` lines joined with `\n`, JSON-decoded when they parse (else the raw string). */
  readonly data: T;
  /** The `event` field, when sent. */
  readonly event?: string;
  /** The `id` field, when sent. */
  readonly id?: string;
  /** The `retry` field in ms, when sent as digits. */
  readonly retry?: number;
}

function decodeData(raw: string): unknown {
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}

/**
 * An incremental Server-Sent Events decoder (the WHATWG event-stream rules): feed text as it
 * arrives, get the events completed so far. Comment lines (`: ping`) are skipped; a block
 * without `data` dispatches nothing.
 *
 * @example
 * const decoder = new SSEDecoder();
 * decoder.push('data: {"a":1}\n'); // []
 * decoder.push('\n');               // [{ data: { a: 1 } }]
 */
export class SSEDecoder {
  #buffer = '';
  #data: string[] = [];
  #event: string | undefined;
  #id: string | undefined;
  #retry: number | undefined;

  /**
   * Feeds text; returns the events it completed.
   *
   * @param text - The next piece of the stream (any split, even mid-line).
   */
  push(text: string): ServerSentEventRecord[] {
    this.#buffer += text;
    const out: ServerSentEventRecord[] = [];
    for (;;) {
      const match = /\r\n|\r|\n/.exec(this.#buffer);
      if (!match) break;
      // A lone trailing \r may be the first half of \r\n: wait for the next piece.
      if (match[0] === '\r' && match.index === this.#buffer.length - 1) break;
      const line = this.#buffer.slice(0, match.index);
      this.#buffer = this.#buffer.slice(match.index + match[0].length);
      const event = this.#line(line);
      if (event) out.push(event);
    }
    return out;
  }

  /**
   * Ends the stream: a final lone `\r` still ends its line, but a trailing event without its
   * blank line is discarded, as a browser does.
   */
  end(): ServerSentEventRecord[] {
    const out: ServerSentEventRecord[] = [];
    if (this.#buffer.endsWith('\r')) {
      const event = this.#line(this.#buffer.slice(0, -1));
      if (event) out.push(event);
    }
    this.#buffer = '';
    this.#reset();
    return out;
  }

  #line(line: string): ServerSentEventRecord | undefined {
    if (line === '') return this.#dispatch();
    if (line.startsWith(':')) return undefined;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    switch (field) {
      case 'data':
        this.#data.push(value);
        break;
      case 'event':
        this.#event = value;
        break;
      case 'id':
        if (!value.includes('\0')) this.#id = value;
        break;
      case 'retry':
        if (/^\d+$/.test(value)) this.#retry = Number(value);
        break;
      default:
        break;
    }
    return undefined;
  }

  #dispatch(): ServerSentEventRecord | undefined {
    if (this.#data.length === 0) {
      this.#reset();
      return undefined;
    }
    const event: { data: unknown; event?: string; id?: string; retry?: number } = {
      data: decodeData(this.#data.join('\n')),
    };
    if (this.#event !== undefined && this.#event !== '') event.event = this.#event;
    if (this.#id !== undefined) event.id = this.#id;
    if (this.#retry !== undefined) event.retry = this.#retry;
    this.#reset();
    return event;
  }

  #reset(): void {
    this.#data = [];
    this.#event = undefined;
    this.#id = undefined;
    this.#retry = undefined;
  }
}

/**
 * Decodes a buffered `text/event-stream` body into its events.
 *
 * @param text - The whole body.
 * @example
 * parseSSE(': ping\n\nevent: tick\ndata: 1\n\n'); // [{ data: 1, event: 'tick' }]
 */
export function parseSSE<T = unknown>(text: string): ServerSentEventRecord<T>[] {
  const decoder = new SSEDecoder();
  return [...decoder.push(text), ...decoder.end()] as ServerSentEventRecord<T>[];
}
