import type { ResponseSpec } from '@api/core';
import { defineResponseKind, wiringError, type AnySchema, type SchemaReturn } from '@api/core/extension';
import { compileItemEncoder, type ItemEncoder } from '../codec/item-codec';
import { compileStreamWriter } from '../response/stream-writer';
import {
  StreamResponse,
  type HeaderSchema,
  type HeadersOf,
  type StreamResponseInit,
} from '../response/stream-response';
import { encodeData, encodeEvent, PING } from './encode-event';
import { ServerSentEvent } from './server-sent-event';

const EVENT_STREAM = 'text/event-stream';
const NO_CACHE = [['cache-control', 'no-cache']] as const;

/** What an `SSEResponse<T>` stream yields: a model and a string are sent as `data`. */
export type SSEItem<T> = T | string | ServerSentEvent<T>;

/** Builds the SSE chunk encoder for an item schema. */
function sseEncoder(data: ItemEncoder): (item: unknown) => string {
  return (item) => {
    if (typeof item === 'string') return encodeData(item) + '\n';
    if (item instanceof ServerSentEvent) {
      const value: unknown = item.data;
      return encodeEvent({
        event: item.event,
        id: item.id,
        retry: item.retry,
        data: value === undefined ? undefined : typeof value === 'string' ? value : data(value),
      });
    }
    // JSON text never holds a raw line break: one data line.
    return 'data: ' + data(item) + '\n\n';
  };
}

/**
 * A Server-Sent Events stream (`text/event-stream`, `cache-control: no-cache`), GET-only.
 * Items are a model (validated, one line of JSON as `data`), a string (sent verbatim as
 * `data`, line by line) or a `ServerSentEvent` with `event`, `id`, `retry`. With `keepalive`,
 * a `: ping` comment goes out after that many idle seconds.
 *
 * The head: with a lifecycle generator, once its setup succeeded (so an `EventSource` opens
 * even when nothing is due yet; a failure of the first item is then a mid-stream failure:
 * logged, stream cut); with a plain async iterable, with its first item. A failure before the
 * head is a normal error response.
 *
 * @example
 * events = this.operation({ returns: SSEResponse.of(Notice) }, () =>
 *   new SSEResponse({ stream: notices(), keepalive: 15 }),
 * );
 */
export class SSEResponse<T, THeaders = undefined> extends StreamResponse<SSEItem<T>, THeaders> {
  /** Idle seconds before a `: ping` comment; undefined: no pings. */
  readonly keepalive: number | undefined;

  /**
   * @param init - `stream` (items, or a lifecycle generator yielding them), `keepalive` (idle
   *   seconds, > 0), plus `statusCode`, `headers` (required when declared), `rawHeaders`,
   *   `cookies`, `location`, `links`
   */
  constructor(init: StreamResponseInit<SSEItem<T>, THeaders> & { readonly keepalive?: number }) {
    super(init);
    const keepalive = init.keepalive;
    if (
      keepalive !== undefined &&
      !(typeof keepalive === 'number' && keepalive > 0 && keepalive < 2 ** 31 / 1000)
    )
      throw new TypeError(
        `SSEResponse: keepalive must be a positive number of seconds, got ${String(keepalive)}`,
      );
    this.keepalive = keepalive;
  }

  /**
   * Declares an SSE response whose `data` is `schema` (strings are always allowed as raw data),
   * with optional typed headers. Wiring fails with a `WiringError` on any method but GET.
   *
   * @param schema - the data schema (a Struct, or a union of tagged Structs; `v.string()` for text only)
   * @param options - `headers`: the typed response-headers schema
   */
  static of<TSchema extends AnySchema, THeaders extends HeaderSchema | undefined = undefined>(
    schema: TSchema,
    options: { readonly headers?: THeaders } = {},
  ): ResponseSpec<SSEResponse<SchemaReturn<TSchema>, HeadersOf<THeaders>>> {
    return defineResponseKind({
      kind: 'sse',
      cls: SSEResponse,
      schema,
      headers: options.headers,
      status: undefined,
      contentType: EVENT_STREAM,
      compile: (ctx) => {
        if (ctx.method !== 'GET')
          throw wiringError(
            'API_WIRING_STREAMING_METHOD',
            ctx.where,
            `SSEResponse is GET-only (an EventSource can only GET), but this operation answers ${ctx.method}`,
            'serve the events from a GET operation (get, readMany or readOne), or stream NDJSONStreamingResponse from this one',
          );
        return compileStreamWriter(ctx, {
          name: 'SSEResponse',
          cls: SSEResponse,
          contentType: EVENT_STREAM,
          defaults: NO_CACHE,
          encode: sseEncoder(compileItemEncoder(schema, 'SSE data')),
          keepaliveMs: (response: SSEResponse<unknown, unknown>) =>
            response.keepalive === undefined ? undefined : response.keepalive * 1000,
          ping: PING,
          // An EventSource opens on the head: once setup succeeded, send it, even with nothing due yet.
          gate: 'setup',
        });
      },
    });
  }
}
