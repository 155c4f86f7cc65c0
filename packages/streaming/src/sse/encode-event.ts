/** The fields of one Server-Sent Event, as the frame encoder takes them. */
export interface EventFields {
  /** The data, already turned into text (JSON for a model, verbatim for a string). */
  readonly data?: string | undefined;
  readonly event?: string | undefined;
  readonly id?: string | undefined;
  readonly retry?: number | undefined;
}

// CR, LF or NUL: a line break would inject fields or events; NUL makes a browser drop the id.
const FORBIDDEN = /[\r\n\0]/;
// Every line break the event-stream grammar knows.
const LINE_BREAK = /\r\n|\r|\n/;

/**
 * Throws a `TypeError` when `value` cannot be sent as the `field` of an event (CR, LF or NUL).
 *
 * @param field - `event` or `id`, named in the error
 * @param value - the field's value
 */
export function assertEventField(field: 'event' | 'id', value: string): void {
  if (typeof value !== 'string')
    throw new TypeError(`ServerSentEvent: ${field} must be a string, got ${typeof value}`);
  if (FORBIDDEN.test(value))
    throw new TypeError(
      `ServerSentEvent: ${field} contains CR, LF or NUL, which the event-stream format cannot carry`,
    );
}

/**
 * Throws a `TypeError` unless `retry` is a non-negative safe integer (milliseconds).
 *
 * @param retry - the reconnection time the client should use
 */
export function assertRetry(retry: number): void {
  if (!Number.isSafeInteger(retry) || retry < 0)
    throw new TypeError(
      `ServerSentEvent: retry must be a non-negative integer of milliseconds, got ${String(retry)}`,
    );
}

/**
 * Encodes one event frame: `event:`, `id:`, `retry:` lines (each only when set), then one
 * `data:` line per line of `data` (split on CR LF, CR or LF, every line kept, so `"a\n"`
 * round-trips), then the blank line that dispatches it.
 *
 * @param fields - the event; `event`/`id` with CR, LF or NUL and a bad `retry` throw a `TypeError`
 * @example
 * encodeEvent({ event: 'tick', id: '7', data: 'a\nb' }); // 'event: tick\nid: 7\ndata: a\ndata: b\n\n'
 */
export function encodeEvent(fields: EventFields): string {
  let out = '';
  if (fields.event !== undefined) {
    assertEventField('event', fields.event);
    out += 'event: ' + fields.event + '\n';
  }
  if (fields.id !== undefined) {
    assertEventField('id', fields.id);
    out += 'id: ' + fields.id + '\n';
  }
  if (fields.retry !== undefined) {
    assertRetry(fields.retry);
    out += 'retry: ' + fields.retry + '\n';
  }
  if (fields.data !== undefined) out += encodeData(fields.data);
  return out + '\n';
}

/**
 * The `data:` lines of a text: one per line, split on CR LF, CR or LF.
 *
 * @param data - the text; an empty string still sends one empty `data:` line
 */
export function encodeData(data: string): string {
  // The common case (JSON, one-line text) costs one scan and no split.
  if (!LINE_BREAK.test(data)) return 'data: ' + data + '\n';
  let out = '';
  for (const line of data.split(LINE_BREAK)) out += 'data: ' + line + '\n';
  return out;
}

/** The keepalive comment: ignored by every client, it keeps proxies from closing an idle stream. */
export const PING = ': ping\n\n';
