import type * as v from 'valibot';
import type { Link, Location, RawHeaders, ResponseFields, SetCookie } from '@api/core';
import type { StreamSource } from '../pump/stream-source';

/** A typed response-headers schema, as `JSONResponse.of(schema, { headers })` takes it. */
export type HeaderSchema = v.ObjectSchema<v.ObjectEntries, undefined>;

/** The typed headers a response carries for its declared headers schema (`undefined`: none). */
export type HeadersOf<THeaders> = THeaders extends v.GenericSchema ? v.InferOutput<THeaders> : undefined;

/** `headers` is required exactly when the declaration has a headers schema. */
export type HeadersArg<THeaders> = [THeaders] extends [undefined]
  ? { readonly headers?: undefined }
  : { readonly headers: THeaders };

/** What every streaming wrapper's constructor takes besides its own options. */
export type StreamResponseInit<TItem, THeaders> = {
  // The item type comes from the declaration (`NDJSONStreamingResponse.of(schema)`), never from
  // the stream: a lifecycle generator's own type would otherwise be inferred as the item.
  readonly stream: StreamSource<NoInfer<TItem>>;
} & ResponseFields<THeaders> &
  HeadersArg<THeaders>;

/**
 * The fields every streaming wrapper carries (the same as core's buffered wrappers, plus
 * `stream`); the wrappers themselves are `StreamingResponse`, `NDJSONStreamingResponse` and
 * `SSEResponse`.
 */
export abstract class StreamResponse<TItem, THeaders> {
  /** The items: an async iterable, or a one-yield lifecycle async generator. */
  readonly stream: StreamSource<TItem>;
  /** The status; defaults to the operation's (200 for endpoints and GETs). */
  readonly statusCode: number | undefined;
  /** Typed headers, per the declaration's headers schema. */
  readonly headers: THeaders | undefined;
  /** Headers as written (a `content-type` here replaces the default media type). */
  readonly rawHeaders: RawHeaders | undefined;
  /** One `set-cookie` each. */
  readonly cookies: readonly SetCookie[] | undefined;
  readonly location: Location | undefined;
  readonly links: Link | readonly Link[] | undefined;

  constructor(init: StreamResponseInit<TItem, THeaders>) {
    this.stream = init.stream;
    this.statusCode = init.statusCode;
    this.headers = init.headers;
    this.rawHeaders = init.rawHeaders;
    this.cookies = init.cookies;
    this.location = init.location;
    this.links = init.links;
  }
}
