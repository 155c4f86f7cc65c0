import { lines } from './lines';

/** One Server-Sent Event as the client yields it. */
export interface SSEEvent<T> {
  /** The event type (`event:`), `'message'` when the server sent none. */
  readonly event: string;
  /** The data: a model sent as JSON is decoded to `T`; text data is the text as sent. */
  readonly data: T | string;
  /** The event's `id:`, when it carried one (the client resumes after it on reconnect). */
  readonly id: string | undefined;
}

/** What one connection's frames tell the reader besides the events. */
export interface SSEState {
  /** The last `id:` seen (sent back as `Last-Event-ID` on reconnect). */
  lastEventId: string | undefined;
  /** The last `retry:` seen, in ms. */
  retry: number | undefined;
}

function decodeData(text: string): unknown {
  // Models are sent as one line of JSON (an object or array); strings are sent verbatim.
  if (text.startsWith('{') || text.startsWith('[')) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

/**
 * The events of one `text/event-stream` body, parsed as the HTML standard's EventSource does:
 * `data:` lines joined with LF, `event:`, `id:` (kept in `state`), `retry:`, comments ignored, an
 * event without data not dispatched.
 *
 * @param body - the response body
 * @param state - updated with `id:` and `retry:` as they arrive
 * @param signal - the call's signal
 */
export async function* sseEvents<T>(
  body: ReadableStream<Uint8Array> | null,
  state: SSEState,
  signal: AbortSignal | undefined,
): AsyncGenerator<SSEEvent<T>, void, undefined> {
  let data: string[] = [];
  let event = '';
  let id: string | undefined;
  for await (const line of lines(body, signal)) {
    if (line === '') {
      if (data.length > 0)
        yield { event: event || 'message', data: decodeData(data.join('\n')) as T | string, id };
      data = [];
      event = '';
      id = undefined;
      continue;
    }
    if (line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') data.push(value);
    else if (field === 'event') event = value;
    else if (field === 'id' && !value.includes('\0')) id = state.lastEventId = value;
    else if (field === 'retry' && /^\d+$/.test(value)) state.retry = Number(value);
  }
}
