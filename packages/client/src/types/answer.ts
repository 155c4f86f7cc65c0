import type { AnySchema, SchemaOutput } from '@api/core';
// What a call resolves to: a union by status of the declared successes and every error the route
// can produce, read from the operation's spec through types only.
import type {
  Accepted,
  BytesResponse,
  Created,
  ExceptionResponse,
  JSONResponse,
  NoContent,
  ResponseSpec,
} from '@api/core';
import type { SSEEvent } from '../streams/sse';
import type {
  AuthenticationRequiredProblem,
  ErrorBodyOf,
  ErrorStatusOf,
  InternalServerErrorProblem,
  OtherStatus,
  MalformedRequestProblem,
  NotFoundProblem,
  PayloadTooLargeProblem,
  UnsupportedMediaTypeProblem,
  ValidationFailedProblem,
} from './problems';

/** A typed response header as it travels: string literals stay literal, booleans are `'true' | 'false'`. */
type WireValue<T> = T extends string
  ? T
  : T extends boolean
    ? 'true' | 'false'
    : T extends undefined
      ? T
      : string;

/**
 * The typed response headers of a success, by field name (`xTraceId` reads `x-trace-id`), with
 * their values as sent; `location` is always there (undefined when the answer has none).
 */
export type AnswerHeaders<THeaders> = [THeaders] extends [undefined]
  ? LocationHeader
  : { readonly [K in keyof THeaders]: WireValue<THeaders[K]> } & LocationHeader;

/** The header every success may carry. */
export interface LocationHeader {
  /** The `Location` header, when the answer carries one (e.g. a `Created`). */
  readonly location: string | undefined;
}

/** A success: `ok` is true, `data` holds the decoded body. */
export interface Success<TStatus extends number, TData, THeaders> {
  readonly ok: true;
  readonly status: TStatus;
  readonly data: TData;
  readonly error?: undefined;
  readonly headers: AnswerHeaders<THeaders>;
  /** The fetch `Response` (its body already read, except for streams). */
  readonly response: Response;
}

/** A failure: `ok` is false, `error` holds the decoded error body (a Problem, or a `StructHTTPError` body). */
export interface Failure<TStatus extends number, TError> {
  readonly ok: false;
  readonly status: TStatus;
  readonly error: TError;
  readonly data?: undefined;
  /** The fetch `Response` (its body already read). */
  readonly response: Response;
}

/** The status of an operation's plain answer: `create` answers 201, every other operation 200. */
type DefaultStatus<TName> = TName extends 'create' ? 201 : 200;

type ItemsOf<TSource> = TSource extends AsyncIterable<infer I> ? Flat<I> : never;
type Flat<I> = I extends AsyncIterable<infer J> ? J : I;
/** The fields a `ServerSentEvent` carries (told apart from the data items of its stream). */
interface EventFields {
  readonly event: string | undefined;
  readonly id: string | undefined;
  readonly retry: number | undefined;
}

/** The typed headers of a wrapper value (`undefined` when it declares none). */
type WrapperHeaders<V> = V['headers' & keyof V] & {};

/**
 * The success an `returns:` entry's value type stands for. The JSON wrappers are told apart by a
 * check against each class with `unknown` arguments (tsc compares the type arguments only), and
 * their body is read by indexed access: no inference per operation.
 */
type SuccessOfValue<V, TName> =
  V extends JSONResponse<unknown, unknown>
    ? Success<DefaultStatus<TName>, V['json'], WrapperHeaders<V>>
    : V extends Created<unknown, unknown>
      ? Success<201, V['json'], WrapperHeaders<V>>
      : V extends Accepted<unknown, unknown>
        ? Success<202, V['json'], WrapperHeaders<V>>
        : V extends { readonly keepalive: number | undefined; readonly stream: infer S }
          ? Success<
              200,
              AsyncIterable<SSEEvent<Exclude<ItemsOf<S>, string | EventFields>>>,
              HeadersOfWrapper<V>
            >
          : V extends { readonly stream: infer S }
            ? [ItemsOf<S>] extends [Uint8Array | string]
              ? Success<DefaultStatus<TName>, ReadableStream<Uint8Array>, HeadersOfWrapper<V>>
              : Success<DefaultStatus<TName>, AsyncIterable<ItemsOf<S>>, HeadersOfWrapper<V>>
            : V extends BytesResponse<infer H>
              ? Success<DefaultStatus<TName>, ReadableStream<Uint8Array>, H>
              : V extends NoContent<infer H>
                ? Success<204, undefined, H>
                : V extends string
                  ? Success<DefaultStatus<TName>, string, undefined>
                  : V extends Uint8Array
                    ? Success<DefaultStatus<TName>, ReadableStream<Uint8Array>, undefined>
                    : Success<DefaultStatus<TName>, V, undefined>;
type HeadersOfWrapper<V> = V extends { readonly headers: infer H }
  ? Exclude<H, undefined> | HeadersFallback<H>
  : undefined;
type HeadersFallback<H> = [Exclude<H, undefined>] extends [never] ? undefined : never;

type SuccessOf<E, TName> =
  E extends ResponseSpec<infer V>
    ? SuccessOfValue<V, TName>
    : E extends AnySchema
      ? Success<DefaultStatus<TName>, SchemaOutput<E>, undefined>
      : never;

/** The successes of an operation: one per `returns:` entry; none declared means 204. */
export type Successes<S, TName> = 'returns' extends keyof S
  ? SuccessesOf<S['returns' & keyof S], TName>
  : Success<204, undefined, undefined>;
type SuccessesOf<R, TName> = R extends readonly unknown[] ? SuccessOf<R[number], TName> : SuccessOf<R, TName>;

/**
 * The error classes an operation declares in `meta.exceptions` (one conditional: fewer
 * instantiations per call than a chain of indexed accesses through `keyof`).
 */
type Declared<S> = S extends { readonly meta: { readonly exceptions: readonly (infer E)[] } } ? E : never;
type FailureOfClass<C> = C extends unknown ? Failure<ErrorStatusOf<C>, ErrorBodyOf<C>> : never;

/**
 * The errors core derives from each declared source (the same list the OpenAPI document carries),
 * as a table: an operation's derived errors are one indexed access by the sources it declares
 * (cheap for tsc: no conditional type per operation).
 */
interface DerivedBySource {
  path: Failure<404, NotFoundProblem>;
  params: Failure<400, MalformedRequestProblem>;
  headers: Failure<400, MalformedRequestProblem>;
  cookies: Failure<400, MalformedRequestProblem>;
  json:
    | Failure<400, MalformedRequestProblem>
    | Failure<413, PayloadTooLargeProblem>
    | Failure<422, ValidationFailedProblem>;
  form:
    | Failure<400, MalformedRequestProblem>
    | Failure<413, PayloadTooLargeProblem>
    | Failure<415, UnsupportedMediaTypeProblem>
    | Failure<422, ValidationFailedProblem>;
  content: Failure<413, PayloadTooLargeProblem>;
}
/** The statuses of `DerivedBySource`, by source. */
interface DerivedStatusBySource {
  path: 404;
  params: 400;
  headers: 400;
  cookies: 400;
  json: 400 | 413 | 422;
  form: 400 | 413 | 415 | 422;
  content: 413;
}
type Sources<S> = keyof S & keyof DerivedBySource;

/** What an authenticated mount adds: its 401, and the errors its authenticator raises. */
type AuthFailures<TAuth> = [TAuth] extends [never]
  ? never
  : Failure<401, AuthenticationRequiredProblem> | FailureOfClass<TAuth>;
type AuthStatus<TAuth> = [TAuth] extends [never] ? never : 401 | ErrorStatusOf<TAuth>;

/**
 * One declared answer of an app's exception handler: an error class's body at its status, or an
 * `ExceptionResponse.of(Body, { status })` body at its pinned status (an unpinned one can be any
 * status: it stays in the "any other status" member).
 */
type HandlerAnswer<R> =
  R extends ResponseSpec<ExceptionResponse<infer B, unknown, infer S>>
    ? number extends S
      ? never
      : Failure<S, B>
    : FailureOfClass<R>;
/**
 * The app-wide errors given to `createClient` (`AppErrors`): exception handlers from
 * `defineExceptionHandler` (their declared `returns`), or error classes.
 */
type HandlerFailures<H> = H extends { readonly returns?: infer R extends readonly unknown[] }
  ? HandlerAnswer<R[number]>
  : FailureOfClass<H>;
type HandlerStatus<H> = HandlerFailures<H>['status'];

/**
 * Any other error status (a proxy's 502, a rate limit's 429 the route does not declare): the
 * body as sent (a Problem, or whatever a proxy wrote), never mistaken for a declared one. Its
 * statuses are the error statuses HTTP registers (`OtherStatus`), less the declared ones.
 */
export type Unexpected<TDeclared extends number> = Failure<Exclude<OtherStatus, TDeclared>, unknown>;

/**
 * Every answer of a call, as a union: narrow on `ok`, then on `status` (and a Problem's `type`).
 * `TAppErrors` are the app's exception handlers' declared answers (`createClient<…, AppErrors>`).
 */
export type Answer<S, TName, TAuth = never, TAppErrors = never> =
  | Successes<S, TName>
  | Failures<Declared<S>, Sources<S>, TAuth, TAppErrors>;

/**
 * The failures of an operation, from the parts that decide them. The conditional is what makes
 * tsc cache them per distinct set (most operations share one): an alias alone is expanded into
 * every `Answer`, so each call would re-instantiate the whole union and its `Exclude` over
 * `OtherStatus`; behind a conditional each call pays only for reading its spec.
 */
type Failures<TDeclared, TSources extends keyof DerivedBySource, TAuth, TAppErrors> = [TDeclared] extends [
  unknown,
]
  ? FailuresOf<TDeclared, TSources, TAuth, TAppErrors>
  : never;
type FailuresOf<TDeclared, TSources extends keyof DerivedBySource, TAuth, TAppErrors> =
  | FailureOfClass<TDeclared>
  | DerivedBySource[TSources]
  | Failure<500, InternalServerErrorProblem>
  | AuthFailures<TAuth>
  | HandlerFailures<TAppErrors>
  | Unexpected<
      | ErrorStatusOf<TDeclared>
      | DerivedStatusBySource[TSources]
      | 500
      | AuthStatus<TAuth>
      | HandlerStatus<TAppErrors>
    >;

/** The successful data of a call (what `orThrow()` resolves to). */
export type DataOf<TAnswer> = TAnswer extends { readonly ok: true; readonly data: infer D } ? D : never;
/** The failures of a call (what a `ResponseError` thrown by `orThrow()` carries). */
export type FailureOf<TAnswer> = Extract<TAnswer, { readonly ok: false }>;
