// What a call takes: one object whose keys are the operation's declared request parts, typed from
// the same schemas the server binds with (their *input* side: what a caller may send).
import type * as v from 'valibot';
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
export type FormIn<TSchema> = TSchema extends v.GenericSchema
  ? { readonly [K in keyof v.InferInput<TSchema>]: FormFieldIn<v.InferInput<TSchema>[K]> } | FormData
  : never;

/** The value a caller gives for one declared source. */
type SourceIn<K, TSchema> = K extends 'form'
  ? FormIn<TSchema>
  : K extends 'content'
    ? RawBody
    : TSchema extends v.GenericSchema
      ? v.InferInput<TSchema>
      : never;

/** Sources a call carries; `user`, `rawHeaders`, `requestId` and extension sources are the server's own. */
type Sent = 'path' | 'params' | 'headers' | 'cookies' | 'json' | 'form' | 'content';
/** Sources the caller may leave out: cookies (a browser sends its own), and objects with no required field. */
type MayOmit<K, TSchema> = K extends 'cookies'
  ? true
  : K extends 'params' | 'headers'
    ? TSchema extends v.GenericSchema
      ? object extends v.InferInput<TSchema>
        ? true
        : false
      : true
    : false;

/** Per-call options, beside the request parts. */
export interface CallOptions {
  /** Aborts the request, and ends a stream or an SSE subscription. */
  readonly signal?: AbortSignal;
  /** Headers added to this request (after the client's defaults, before the declared ones). */
  readonly requestHeaders?: Readonly<Record<string, string>>;
  /** SSE: open a new connection (with `Last-Event-ID`) when one ends, as EventSource does. [true] */
  readonly reconnect?: boolean;
}

/** The argument of a call: the declared request parts plus `signal`. */
export type CallInput<S> = {
  readonly [K in keyof S as K extends Sent ? (MayOmit<K, S[K]> extends true ? never : K) : never]: SourceIn<
    K,
    S[K]
  >;
} & {
  readonly [K in keyof S as K extends Sent ? (MayOmit<K, S[K]> extends true ? K : never) : never]?: SourceIn<
    K,
    S[K]
  >;
} & CallOptions;

/** True when a call may be made with no argument (nothing required). */
export type NoneRequired<S> = object extends CallInput<S> ? true : false;
