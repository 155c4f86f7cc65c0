// The declaration of one operation as data: its binding sources, responses and metadata (what
// `this.operation(spec, handler)` takes, what the catalogue and contributions read).
import type * as v from 'valibot';
import type { OperationMeta } from './meta';
import type { AnyObjectSchema } from './object-schema';
import type { ResponseSpec } from './response-spec';
import type { AnySchema } from './standard-schema';

/** What a handler may return, as declared in `returns:` (one entry or a union list). */
export type ReturnsEntry = ResponseSpec<unknown> | AnySchema;
export type Returns = ReturnsEntry | readonly ReturnsEntry[];

/**
 * Binding sources added by extensions, keyed by spec name. A package augments it:
 *
 * @example
 * declare module '@api/core' {
 *   interface ExtensionSources { tasks: { declare: true; value: TaskQueue } }
 * }
 * // then: this.operation({ tasks: true }, ({ tasks }) => …) with `tasks: TaskQueue`
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface ExtensionSources {}

type ExtensionSpec = {
  readonly [K in keyof ExtensionSources]?: ExtensionSources[K] extends { declare: infer D } ? D : never;
};

/** The declaration of one operation: its binding sources, its responses and its metadata. */
export type OperationSpec = CoreOperationSpec & ExtensionSpec;

/** Core's binding sources, responses and metadata of one operation. */
export interface CoreOperationSpec {
  /** Path slots (404 when a value fails conversion). */
  readonly path?: AnyObjectSchema;
  /** The query string (400 when invalid). */
  readonly params?: AnyObjectSchema;
  /** Request headers: field `x_trace_id` or `xTraceId` reads header `x-trace-id` (400 when invalid). */
  readonly headers?: AnyObjectSchema;
  /** Cookies, by verbatim name (400 when invalid). */
  readonly cookies?: AnyObjectSchema;
  /** The JSON body (400 malformed, 422 invalid, 415 for another media type). */
  readonly json?: AnySchema;
  /** The raw body as a Buffer. */
  readonly content?: true;
  /** A case-insensitive, immutable view of the request headers as sent. */
  readonly rawHeaders?: true;
  /** A multipart/form-data body (415 not multipart, 400 broken, 422 invalid). */
  readonly form?: AnyObjectSchema;
  /** The request's id (`x-request-id` when well-formed, else generated), echoed on the response. */
  readonly requestId?: true;
  /**
   * The request's `AbortSignal`: aborted when the client goes away before the answer is complete,
   * when the route's deadline (`limits.deadlineMs`) passes, and at the shutdown cap. Pass it on to
   * what the handler starts (a query, a `fetch`, a stream's producer). Its `reason` is a
   * `DOMException` named `AbortError` (client gone, shutdown cap) or `TimeoutError` (deadline).
   * Routes that do not declare it pay nothing for it.
   */
  readonly signal?: true;
  /** The authenticated user, produced by a mount option (e.g. `auth` from @api/auth). */
  readonly user?: v.GenericSchema;
  /** The declared response(s); omitted means the handler returns nothing (204). */
  readonly returns?: Returns;
  readonly meta?: OperationMeta;
}

/** Binding source names, in the handler's argument. */
export type SourceName =
  | 'path'
  | 'params'
  | 'headers'
  | 'cookies'
  | 'json'
  | 'content'
  | 'rawHeaders'
  | 'form'
  | 'requestId'
  | 'signal'
  | 'user';
