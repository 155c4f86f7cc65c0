import type { ResponseFields } from '@api/core';
import { BufferedResponse, type HeadersArg } from '@api/core/extension';
import type { StreamSource } from '../pump/stream-source';

// Core's header helper types, re-exported under the names this package always exported.
export type { HeaderSchema, HeadersArg, HeadersOf } from '@api/core/extension';

/** What every streaming wrapper's constructor takes besides its own options. */
export type StreamResponseInit<TItem, THeaders> = {
  // The item type comes from the declaration (`NDJSONStreamingResponse.of(schema)`), never from
  // the stream: a lifecycle generator's own type would otherwise be inferred as the item.
  readonly stream: StreamSource<NoInfer<TItem>>;
} & ResponseFields<THeaders> &
  HeadersArg<THeaders>;

/**
 * The fields every streaming wrapper carries: core's buffered wrappers' fields (status, typed and
 * raw headers, cookies, Location/Link), checked by core's `BufferedResponse` on construction, plus
 * `stream`. The wrappers themselves are `StreamingResponse`, `NDJSONStreamingResponse` and
 * `SSEResponse`.
 */
export abstract class StreamResponse<TItem, THeaders> extends BufferedResponse<THeaders> {
  /** The items: an async iterable, or a one-yield lifecycle async generator. */
  readonly stream: StreamSource<TItem>;

  constructor(init: StreamResponseInit<TItem, THeaders>) {
    super(init);
    this.stream = init.stream;
  }
}
