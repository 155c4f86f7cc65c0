import { assertEventField, assertRetry } from './encode-event';

/** The fields of a `ServerSentEvent`. */
export interface ServerSentEventInit<T> {
  /** A model (sent as one line of JSON) or a string (sent verbatim, line by line); omit for a field-only event. */
  readonly data?: T | string;
  /** The event type (`addEventListener(type)` in a browser); no CR, LF or NUL. */
  readonly event?: string;
  /** The event id (the browser's `Last-Event-ID` on reconnect); no CR, LF or NUL. */
  readonly id?: string;
  /** The reconnection time the client should use, in milliseconds (a non-negative integer). */
  readonly retry?: number;
}

/**
 * One Server-Sent Event with its optional fields, yielded by an `SSEResponse` stream. Fields
 * are checked at construction: `event`/`id` with CR, LF or NUL and a `retry` that is not a
 * non-negative integer throw a `TypeError` naming the field.
 *
 * `T` is inferred from a model `data`; an event with string data or none is a
 * `ServerSentEvent<never>`, which fits any `SSEResponse`.
 *
 * @example
 * yield new ServerSentEvent({ event: 'widget.created', id: '1', data: { message: 'created' } });
 */
export class ServerSentEvent<T = never> {
  readonly data: T | string | undefined;
  readonly event: string | undefined;
  readonly id: string | undefined;
  readonly retry: number | undefined;

  /** @param init - `data` (text, or none), `event`, `id`, `retry`: fits any `SSEResponse` */
  constructor(init: ServerSentEventInit<never>);
  /** @param init - `data` (a model), `event`, `id`, `retry` */
  constructor(init: ServerSentEventInit<T>);
  constructor(init: ServerSentEventInit<T>) {
    if (init.event !== undefined) assertEventField('event', init.event);
    if (init.id !== undefined) assertEventField('id', init.id);
    if (init.retry !== undefined) assertRetry(init.retry);
    this.data = init.data;
    this.event = init.event;
    this.id = init.id;
    this.retry = init.retry;
  }
}
