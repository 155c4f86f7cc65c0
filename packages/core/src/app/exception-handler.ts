import type { BaseHTTPError } from '../errors';
import type { ExceptionResponse, ResponseSpec } from '../responses/response';
import type { ErrorClass } from '../meta/meta';

/** What a handler may return: a response that replaces the exception, an HTTP error, or nothing. */
export type ExceptionHandlerResult = ExceptionResponse<unknown, unknown> | BaseHTTPError | undefined | void;

/**
 * A custom exception handler: one typed `handleException` for one exception class (and its
 * subclasses; the nearest class in the prototype chain wins).
 */
export interface ExceptionHandler<TError extends Error = Error> {
  /** The exception class this handler owns. */
  readonly exception: abstract new (...args: never[]) => TError;
  /** Declared results, validated at wiring: `ExceptionResponse.of(...)` specs and/or HTTP error classes. */
  readonly returns?: readonly (ResponseSpec<ExceptionResponse<unknown, unknown>> | ErrorClass)[];
  /** Returns a replacement response, an HTTP error to render, or `undefined` for default handling. */
  handleException(error: TError): ExceptionHandlerResult | Promise<ExceptionHandlerResult>;
}

/**
 * Declares an exception handler with `error` typed from `exception`.
 *
 * @example
 * const duplicateName = defineExceptionHandler({
 *   exception: DuplicateNameError,
 *   handleException: () => new ConflictError(),
 * });
 */
export function defineExceptionHandler<TError extends Error>(
  handler: ExceptionHandler<TError>,
): ExceptionHandler<TError> {
  return handler;
}
