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

/** A multipart body as the caller gives it: the form Struct's fields (files as `Blob`/`File`), or a `FormData`. */
export type FormIn<TSchema> = TSchema extends AnySchema
  ? { readonly [K in keyof SchemaInput<TSchema>]: FormFieldIn<SchemaInput<TSchema>[K]> } | FormData
  : never;

/** The value a caller gives for one declared source. */
type SourceIn<K, TSchema> = K extends 'form'
  ? FormIn<TSchema>
  : K extends 'content'
    ? RawBody
    : TSchema extends AnySchema
      ? SchemaInput<TSchema>
      : never;

/** Sources a call always carries when declared (a body, the path). */
type Always = 'path' | 'json' | 'form' | 'content';
/** Sources required only when their schema has a required field. */
type Maybe = 'params' | 'headers';
type InputOf<T> = T extends AnySchema ? SchemaInput<T> : never;
type Optional<S, K extends keyof S> = object extends InputOf<S[K]> ? true : false;

/** The keys a call cannot leave out (never: the argument itself is optional). */
export type RequiredKeys<S> =
  | (keyof S & Always)
  | { [K in keyof S & Maybe]: Optional<S, K> extends true ? never : K }[keyof S & Maybe];

/** Per-call options, beside the request parts. */
export interface CallOptions {
  /** Aborts the request, and ends a stream or an SSE subscription. */
  readonly signal?: AbortSignal;
  /** Headers added to this request (after the client's defaults, before the declared ones). */
  readonly requestHeaders?: Readonly<Record<string, string>>;
  /** SSE: open a new connection (with `Last-Event-ID`) when one ends, as EventSource does. [true] */
  readonly reconnect?: boolean;
}

/** The sources a call may leave out: cookies, and a query or headers with no required field. */
type OptionalKeys<S> = Exclude<keyof S & (Maybe | 'cookies'), RequiredKeys<S>>;

/**
 * The argument of a call: the declared request parts plus `signal`. Two mapped types over the
 * spec's request keys (required, then optional), so tsc does little work per operation; `user`,
 * `rawHeaders`, `requestId` and extension sources are the server's own. `cookies` is sent as one
 * `cookie` header (a browser sends its own jar and ignores it).
 */
export type CallInput<S> = { readonly [K in RequiredKeys<S>]: SourceIn<K, S[K]> } & {
  readonly [K in OptionalKeys<S>]?: SourceIn<K, S[K]>;
} & CallOptions;
