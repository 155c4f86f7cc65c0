import type { SchemaOutput } from '../contract/standard-schema';
import type * as v from 'valibot';
import type { AnyObjectSchema } from '../contract/object-schema';
import { checkMiddleware } from './check';

/** The read-only request view a hook receives (`Request[H]`). */
export interface Request<THeaders = Record<string, never>> {
  /** The hook's own headers schema, bound (only the named headers are read). */
  readonly headers: THeaders;
  /** The wire method; HEAD reads as `HEAD`. */
  readonly method: string;
  /** The request path (percent-encoded, no query). */
  readonly path: string;
  /** `performance.now()` at dispatch on routes a dynamic hook covers, else 0. */
  readonly receivedAt: number;
}

/** Response headers a hook contributes: a constant, or computed per response. */
export type ResponseHeadersHook<THeaders> =
  | Readonly<Record<string, string>>
  // Method-style (bivariant) so a Middleware<H> fits a list of Middleware.
  | {
      hook(request: Request<THeaders>, status: number): Readonly<Record<string, string>> | undefined;
    }['hook'];

/**
 * Middleware: a structurally typed object (no base class) with any of `responseHeaders`,
 * `intercept` (+ `interceptMethods`) and `observe`. Hooks are introspected at wiring and
 * compiled into the routes they cover; an object with none is a `WiringError`.
 *
 * @example
 * const poweredBy = defineMiddleware({ responseHeaders: { 'x-powered-by': '@api' } });
 */
export interface Middleware<THeaders = unknown> {
  /** The headers schema bound into `request.headers` (same mapping as the `headers` source). */
  readonly headers?: AnyObjectSchema;
  /** Constant headers baked in at wiring, or a method computed per response. */
  readonly responseHeaders?: ResponseHeadersHook<THeaders>;
  /** Answers instead of routing when it returns a response; `undefined` falls through. */
  intercept?(request: Request<THeaders>): unknown;
  /** Methods the intercept runs for (default: all). */
  readonly interceptMethods?: readonly string[];
  /** Runs after the response has started; failures are logged and swallowed. */
  observe?(request: Request<THeaders>, status: number, durationMs: number): void;
}

type HeadersOf<TSchema> = TSchema extends v.GenericSchema ? SchemaOutput<TSchema> : Record<string, never>;

/**
 * Declares middleware with `request.headers` typed from its `headers` schema.
 *
 * @example
 * const requestId = defineMiddleware({
 *   headers: Struct('RequestIdHeaders', { x_request_id: v.optional(v.string()) }),
 *   responseHeaders: (request) => ({ 'x-request-id': request.headers.x_request_id ?? crypto.randomUUID() }),
 * });
 */
export function defineMiddleware<TSchema extends AnyObjectSchema | undefined = undefined>(
  middleware: { readonly headers?: TSchema } & Omit<Middleware<HeadersOf<TSchema>>, 'headers'>,
): Middleware<HeadersOf<TSchema>> {
  checkMiddleware('defineMiddleware', middleware, true);
  return middleware as Middleware<HeadersOf<TSchema>>;
}
