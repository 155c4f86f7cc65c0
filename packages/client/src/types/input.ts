import type { AnySchema, SchemaInput } from '@api/core';
// What a call takes: one object whose keys are the operation's declared request parts, typed from
// the same schemas the server binds with (their *input* side: what a caller may send).
import type { FileFormPartValue, FormPartValue } from '@api/core';

/** A raw request body (`content:`). */
export type RawBody = Blob | ArrayBuffer | ArrayBufferView | string;

/** One multipart field as the caller gives it: files and byte parts as `Blob`/`File`, JSON parts as values. */
type FormFieldIn<T> =
  T extends FileFormPartValue<unknown>
    ? Blob
    : T extends FormPartValue<infer V, unknown>
      ? V extends Uint8Array
        ? Blob
        : V
      : T extends readonly (infer E)[]
        ? readonly FormFieldIn<E>[]
        : T;

/**
 * A form body as the caller gives it: the form Struct's fields (files as `Blob`/`File`), a
 * `FormData` (multipart), or a `URLSearchParams` (url-encoded). The fields object is sent as
 * multipart, or url-encoded with `formEncoding: 'urlencoded'` (then without files).
 */
export type FormIn<TSchema> = TSchema extends AnySchema
  ?
      | { readonly [K in keyof SchemaInput<TSchema>]: FormFieldIn<SchemaInput<TSchema>[K]> }
      | FormData
      | URLSearchParams
  : never;

/** The value a caller gives for one declared source. */
type SourceIn<K, TSchema> = K extends 'form'
  ? FormIn<TSchema>
  : K extends 'content'
    ? RawBody
    : SchemaInput<TSchema>;

/** Sources a call always carries when declared (a body, the path). */
type Always = 'path' | 'json' | 'form' | 'content';
/** Sources required only when their schema has a required field. */
type Maybe = 'params' | 'headers';
/** `K` when the spec declares it with a required field (a conditional per source, no mapped type). */
type RequiredIf<S, K extends Maybe> = K extends keyof S
  ? object extends SchemaInput<S[K]>
    ? never
    : K
  : never;

/** The keys a call cannot leave out (never: the argument itself is optional). */
export type RequiredKeys<S> = (keyof S & Always) | RequiredIf<S, 'params'> | RequiredIf<S, 'headers'>;

/** Per-call options, beside the request parts. */
export interface CallOptions {
  /** Aborts the request, and ends a stream or an SSE subscription. */
  readonly signal?: AbortSignal;
  /** Headers added to this request (after the client's defaults, before the declared ones). */
  readonly requestHeaders?: Readonly<Record<string, string>>;
  /** SSE: open a new connection (with `Last-Event-ID`) when one ends, as EventSource does. [true] */
  readonly reconnect?: boolean;
  /**
   * Form routes: how a fields object travels, `multipart/form-data` or
   * `application/x-www-form-urlencoded` (as an HTML `<form>` posts; no files). ['multipart']
   */
  readonly formEncoding?: 'multipart' | 'urlencoded';
}

/**
 * The sources a call may leave out: cookies, and a query or headers with no required field. A
 * required one is in both mapped types of `CallInput`, where the required property wins (no
 * `Exclude` per operation).
 */
type OptionalKeys<S> = keyof S & (Maybe | 'cookies');

/**
 * The argument of a call: the declared request parts plus `signal`. Two mapped types over the
 * spec's request keys (required, then optional), so tsc does little work per operation; `user`,
 * `rawHeaders`, `requestId` and extension sources are the server's own. `cookies` is sent as one
 * `cookie` header (a browser sends its own jar and ignores it).
 */
export type CallInput<S> = { readonly [K in RequiredKeys<S>]: SourceIn<K, S[K]> } & {
  readonly [K in OptionalKeys<S>]?: SourceIn<K, S[K]>;
} & CallOptions;
