import type * as v from 'valibot';
import { BaseHTTPError } from '../errors';
import { describeValue, wiringError } from '../contract/wiring-error';
import type { SetCookie } from '../cookies/set-cookie';
import type { TypeErrorMessage, WiringTypeError } from '../contract/type-errors';
import { spec } from '../contract/response-spec';
import { checkOf } from './checks';
import { checkFields, responseFacts, type HeaderSchema, type HeadersOf, type ResponseSpec } from './response';
import type { ErrorClass } from '../contract/meta';
import type { AnySchema, SchemaReturn } from '../contract/standard-schema';

type Digit = '0' | '1' | '2' | '3' | '4' | '5' | '6' | '7' | '8' | '9';
/** The error statuses as literal types: `400` … `599`. */
export type ErrorStatus = `${4 | 5}${Digit}${Digit}` extends `${infer N extends number}` ? N : never;
/** `unknown` for a computed status (checked at construction) or a literal in 400–599; an error otherwise. */
type ErrorStatusCheck<TStatus extends number> = number extends TStatus
  ? unknown
  : TStatus extends ErrorStatus
    ? unknown
    : WiringTypeError<
        TypeErrorMessage<
          `${TStatus} is not an error status, and an exception handler answers with one (400-599)`,
          'use an error status, e.g. 409 or 503'
        >
      >;

/**
 * What an exception handler returns to replace an exception. `statusCode` is required, 400–599.
 *
 * @example
 * return new ExceptionResponse({ statusCode: 409, json: { type: 'conflict', title: 'Duplicate', status: 409 } });
 */
export class ExceptionResponse<const TBody, THeaders = undefined, const TStatus extends number = number> {
  readonly statusCode: TStatus;
  readonly json: TBody;
  readonly headers: THeaders | undefined;
  readonly cookies: readonly SetCookie[] | undefined;
  constructor(init: {
    /** 400–599: a literal outside is a type error; a computed one is checked here. */
    readonly statusCode: TStatus & ErrorStatusCheck<TStatus>;
    readonly json: TBody;
    readonly headers?: THeaders;
    readonly cookies?: readonly SetCookie[];
  }) {
    if (typeof init !== 'object' || init === null)
      throw wiringError(
        'API_WIRING_INVALID_ARGUMENT',
        'new ExceptionResponse(init)',
        `expected { statusCode, json, headers?, cookies? }, got ${describeValue(init)}`,
        'new ExceptionResponse({ statusCode: 409, json: body })',
      );
    const status = init.statusCode;
    if (typeof status !== 'number' || !Number.isInteger(status) || status < 400 || status > 599) {
      throw typeof status === 'number'
        ? wiringError(
            'API_WIRING_STATUS',
            'ExceptionResponse',
            `statusCode ${status} is outside 400–599`,
            'an exception handler answers with an error status',
          )
        : wiringError(
            'API_WIRING_INVALID_ARGUMENT',
            'ExceptionResponse',
            `statusCode must be an integer from 400 to 599, got ${describeValue(status)}`,
            'e.g. statusCode: 409',
          );
    }
    if (init.cookies !== undefined || init.headers !== undefined)
      checkFields('ExceptionResponse', { cookies: init.cookies, headers: init.headers });
    this.statusCode = init.statusCode;
    this.json = init.json;
    this.headers = init.headers;
    this.cookies = init.cookies;
  }
  /**
   * Declares an exception handler's response of `schema`, with optional typed headers; `status`
   * pins the error status this body is sent with (any 400–599 when left out).
   *
   * @example
   * returns: [ExceptionResponse.of(QueueFullProblem, { status: 503, headers: RetryAfter })]
   */
  static of<
    TSchema extends v.GenericSchema,
    THeaders extends HeaderSchema | undefined = undefined,
    const TStatus extends number = number,
  >(
    schema: TSchema,
    options: {
      readonly headers?: THeaders;
      /** 400–599: a literal outside is a type error; a computed one is checked here. */
      readonly status?: TStatus & ErrorStatusCheck<TStatus>;
    } = {},
  ): ResponseSpec<ExceptionResponse<v.InferOutput<TSchema>, HeadersOf<THeaders>, TStatus>> {
    checkOf('ExceptionResponse.of', schema, options, ['headers', 'status']);
    const status = options.status;
    if (status !== undefined && (!Number.isInteger(status) || status < 400 || status > 599))
      throw wiringError(
        'API_WIRING_STATUS',
        'ExceptionResponse.of',
        `status ${String(status)} is outside 400–599`,
        'pin an error status (e.g. status: 503), or leave status out',
      );
    return spec({
      kind: 'json',
      cls: ExceptionResponse,
      schema,
      headers: options.headers,
      status,
      contentType: 'application/json',
    });
  }
}

/** What a handler may return: a response that replaces the exception, an HTTP error, or nothing. */
export type ExceptionHandlerResult = ExceptionResponse<unknown, unknown> | BaseHTTPError | undefined | void;

/** One declared result of an exception handler: `ExceptionResponse.of(...)` or an HTTP error class. */
export type ExceptionHandlerReturn = ResponseSpec<ExceptionResponse<unknown, unknown>> | ErrorClass;

/**
 * A custom exception handler: one typed `handleException` for one exception class (and its
 * subclasses; the nearest class in the prototype chain wins).
 */
export interface ExceptionHandler<TError extends Error = Error> {
  /** The exception class this handler owns. */
  readonly exception: abstract new (...args: never[]) => TError;
  /** Declared results, validated at wiring: `ExceptionResponse.of(...)` specs and/or HTTP error classes. */
  readonly returns?: readonly ExceptionHandlerReturn[];
  /** Returns a replacement response, an HTTP error to render, or `undefined` for default handling. */
  handleException(error: TError): ExceptionHandlerResult | Promise<ExceptionHandlerResult>;
}

/**
 * The Problem body (RFC 9457) an `ExceptionResponse` sends when it stands in for a Problem-family
 * error class: `type` and `status` are the class's own.
 */
export interface ProblemBody<TStatus extends number = number, TType extends string = string> {
  readonly type: TType;
  readonly title: string;
  readonly status: TStatus;
  readonly docs?: string;
  readonly detail?: string;
  readonly params?: unknown;
}

/** The body an `ExceptionResponse` standing in for error class `C` carries: its Struct body, or a Problem. */
type ErrorBodyOf<C> = C extends { readonly bodySchema: infer B extends AnySchema }
  ? SchemaReturn<B>
  : C extends { readonly type: infer T extends string; readonly status: infer S extends number }
    ? ProblemBody<S, T>
    : never;
type StatusOf<C> = C extends { readonly status: infer S extends number } ? S : number;

/**
 * A body as the `ExceptionResponse` constructor infers it: literal and read-only (its type
 * parameters are `const`, so `type: 'conflict'` stays a literal without `as const`).
 */
export type DeepReadonly<T> = T extends (...args: never[]) => unknown
  ? T
  : T extends object
    ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
    : T;

/** What one declared member lets the handler return. */
type ResultOf<M> =
  M extends ResponseSpec<ExceptionResponse<infer B, infer H, infer S>>
    ? // `| undefined`: typed headers stay optional (a response without them infers `undefined`).
      // No declared headers: untyped ones are sent as given (as for an error class's stand-in), and
      // `unknown` keeps inference from a mixed `returns` list from picking a type no member takes.
      ExceptionResponse<DeepReadonly<B>, [H] extends [undefined] ? unknown : H | undefined, S>
    : M extends abstract new (...args: never[]) => infer I
      ? (I & BaseHTTPError) | ExceptionResponse<DeepReadonly<ErrorBodyOf<M>>, unknown, StatusOf<M>>
      : never;

/**
 * What `handleException` may return for a `returns` declaration: an instance of a declared error
 * class, an `ExceptionResponse` whose status and body match a declared member
 * (`ExceptionResponse.of(Body, { status? })` → `Body` at that status, or at any error status
 * when none is pinned; an error class → its body at its status), or `undefined` for default
 * handling. With no `returns`, any `ExceptionHandlerResult`.
 */
export type DeclaredExceptionResult<TReturns extends readonly ExceptionHandlerReturn[]> =
  TReturns extends readonly [] ? ExceptionHandlerResult : ResultOf<TReturns[number]> | undefined | void;

/** The argument of `defineExceptionHandler`: `handleException`'s result is checked against `returns`. */
export interface ExceptionHandlerDefinition<
  TError extends Error,
  TReturns extends readonly ExceptionHandlerReturn[],
> {
  /** The exception class this handler owns (and its subclasses). */
  readonly exception: abstract new (...args: never[]) => TError;
  /** Declared results: `ExceptionResponse.of(...)` specs and/or HTTP error classes. */
  readonly returns?: TReturns;
  /** Returns a declared result, or `undefined` for default handling. */
  handleException(
    error: TError,
  ): DeclaredExceptionResult<TReturns> | Promise<DeclaredExceptionResult<TReturns>>;
}

/**
 * What `defineExceptionHandler` returns: the handler, its declared `returns` kept as a type (a
 * typed client reads the answers an app's handlers declare from `typeof handler`).
 */
export interface DeclaredExceptionHandler<
  TError extends Error,
  TReturns extends readonly ExceptionHandlerReturn[],
> extends ExceptionHandler<TError> {
  readonly returns?: TReturns;
}

/**
 * Declares an exception handler with `error` typed from `exception`. With `returns`, what
 * `handleException` returns must match a declared member: an `ExceptionResponse` whose status and
 * body fit one of them, or an instance of a declared error class (a type error otherwise).
 *
 * @example
 * const duplicateName = defineExceptionHandler({
 *   exception: DuplicateNameError,
 *   returns: [ConflictError],
 *   handleException: () => new ConflictError(),
 * });
 */
export function defineExceptionHandler<
  TError extends Error,
  const TReturns extends readonly ExceptionHandlerReturn[] = readonly [],
>(handler: ExceptionHandlerDefinition<TError, TReturns>): DeclaredExceptionHandler<TError, TReturns> {
  checkHandlerShape('defineExceptionHandler', handler, true);
  return handler;
}

const HANDLER_KEYS: readonly string[] = ['exception', 'returns', 'handleException'];

/**
 * Checks the shape of one exception handler (at `defineExceptionHandler` and at registration):
 * every mistake is a `WiringError` naming `where`, what was expected and the fix. `strictKeys`
 * also refuses unknown keys (a plain object from `defineExceptionHandler`).
 */
export function checkHandlerShape(where: string, handler: unknown, strictKeys: boolean): void {
  if (typeof handler !== 'object' || handler === null)
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      where,
      `expected a handler object, got ${describeValue(handler)}`,
      'use defineExceptionHandler({ exception, handleException })',
    );
  const h = handler as Partial<Record<'exception' | 'returns' | 'handleException', unknown>>;
  if (typeof h.exception !== 'function' || typeof h.handleException !== 'function') {
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      where,
      'a handler needs "exception" (a class) and "handleException"',
      'use defineExceptionHandler({ exception, handleException })',
    );
  }
  const exception = h.exception as { name: string; prototype: unknown };
  if (exception !== Error && !(exception.prototype instanceof Error))
    throw wiringError(
      'API_WIRING_NOT_AN_ERROR_CLASS',
      where,
      `"exception" is ${describeValue(h.exception)}, which ` +
        'does not extend Error, so it never matches a thrown error',
      'pass an Error subclass, e.g. exception: DuplicateNameError',
    );
  if (strictKeys)
    for (const key of Object.keys(h))
      if (!HANDLER_KEYS.includes(key))
        throw wiringError(
          'API_WIRING_UNKNOWN_OPTION',
          where,
          `handler for ${exception.name} has unknown key "${key}"`,
          `use only ${HANDLER_KEYS.join(', ')}`,
        );
  if (h.returns !== undefined && !Array.isArray(h.returns))
    throw wiringError(
      'API_WIRING_RETURNS',
      where,
      `handler for ${exception.name} declares returns as ${describeValue(h.returns)}, not a list`,
      'returns: [ExceptionResponse.of(Body), SomeHTTPError]',
    );
  for (const entry of (h.returns as readonly unknown[] | undefined) ?? []) {
    const info = responseFacts(entry);
    const ok = info ? info.cls === ExceptionResponse : isErrorClass(entry);
    if (!ok)
      throw wiringError(
        'API_WIRING_RETURNS',
        where,
        `handler for ${exception.name} declares a result that is ` +
          'neither ExceptionResponse.of(...) nor an HTTP error class',
        'declare returns: [ExceptionResponse.of(Body), SomeHTTPError]',
      );
  }
}

/** True for an HTTP error class (a `BaseHTTPError` subclass). */
export function isErrorClass(entry: unknown): entry is typeof BaseHTTPError {
  return typeof entry === 'function' && entry.prototype instanceof BaseHTTPError;
}
