import * as v from 'valibot';
import { Struct } from '../schema/struct';
import { jsonString } from '../schema/serializer';
import { DataclassHTTPError } from './dataclass-http-error';
import { HTTPError } from './http-error';

/** The params of the 400 and 422 errors. */
export const ErrorReason = Struct('ErrorReason', {
  reason: v.string(),
  issues: v.array(Struct('ErrorReasonIssue', { path: v.string(), message: v.string() })),
});

/**
 * The JSON text of a 400's or 422's params, written directly: what `ErrorReason`'s compiled
 * serializer writes, without its per-field loops (these answers are what bad clients and scanners
 * get). Undefined for a value of another shape, which the compiled serializer then writes.
 */
function reasonJson(params: { readonly reason: unknown; readonly issues: unknown }): string | undefined {
  const { reason, issues } = params;
  if (typeof reason !== 'string' || !Array.isArray(issues)) return undefined;
  let text = '{"reason":' + jsonString(reason) + ',"issues":[';
  for (let i = 0; i < issues.length; i++) {
    const issue: unknown = issues[i];
    if (issue === null || typeof issue !== 'object') return undefined;
    const { path, message } = issue as { readonly path: unknown; readonly message: unknown };
    if (typeof path !== 'string' || typeof message !== 'string') return undefined;
    text +=
      (i === 0 ? '{"path":' : ',{"path":') + jsonString(path) + ',"message":' + jsonString(message) + '}';
  }
  return text + ']}';
}

/** 400: the request cannot be parsed or bound. */
export class MalformedRequestError extends DataclassHTTPError.define(ErrorReason, {
  type: 'malformed-request',
  title: 'Malformed request',
  status: 400,
  detailTemplate: '{reason}',
}) {
  protected override paramsJson(): string {
    return reasonJson(this.params) ?? super.paramsJson();
  }
}
/** 401: credentials absent or invalid. */
export class AuthenticationRequiredError extends HTTPError.define({
  type: 'authentication-required',
  title: 'Authentication required',
  status: 401,
}) {}
/** 403: authenticated but not allowed. */
export class ForbiddenError extends HTTPError.define({
  type: 'forbidden',
  title: 'The caller is authenticated but not allowed to perform this operation',
  status: 403,
}) {}
/** 404: no route or resource matches; also an unconvertible path value. */
export class NotFoundError extends HTTPError.define({ type: 'not-found', title: 'Not found', status: 404 }) {}
/** 405: the path exists but not with this method. */
export class MethodNotAllowedError extends HTTPError.define({
  type: 'method-not-allowed',
  title: 'Method not allowed',
  status: 405,
}) {}
/** 409: conflicts with the current resource state. */
export class ConflictError extends HTTPError.define({
  type: 'conflict',
  title: 'The request conflicts with the current state of the resource',
  status: 409,
}) {}
/** 410: the resource existed but has been permanently removed. */
export class GoneError extends HTTPError.define({
  type: 'gone',
  title: 'The resource existed but has been permanently removed',
  status: 410,
}) {}
/** The params of the 413 error: which limit the request is over, and its size in bytes. */
export const PayloadLimit = Struct('PayloadLimit', { limit: v.string(), bytes: v.number() });
/**
 * 413: the body is over a configured limit, named in the Problem (`maxBodyBytes`,
 * `multipart.maxFileSize` …) with its size, so the caller knows what to send instead.
 *
 * @example
 * throw new PayloadTooLargeError({ limit: 'maxBodyBytes', bytes: 1_048_576 });
 */
export class PayloadTooLargeError extends DataclassHTTPError.define(PayloadLimit, {
  type: 'payload-too-large',
  title: 'Payload too large',
  status: 413,
  detailTemplate: 'The request is over its {limit} limit of {bytes} bytes',
}) {}
/** The params of the 415 error: the media types (and codings) the operation accepts. */
export const AcceptedMediaTypes = Struct('AcceptedMediaTypes', { accepted: v.string() });
/**
 * 415: the body lacks the media type the operation reads; the Problem lists what it accepts.
 *
 * @example
 * throw new UnsupportedMediaTypeError({ accepted: 'application/json' });
 */
export class UnsupportedMediaTypeError extends DataclassHTTPError.define(AcceptedMediaTypes, {
  type: 'unsupported-media-type',
  title: 'Unsupported media type',
  status: 415,
  detailTemplate: 'This operation accepts {accepted}',
}) {}
/** 422: well-formed request that violates its typed contract. */
export class ValidationFailedError extends DataclassHTTPError.define(ErrorReason, {
  type: 'validation-failed',
  title: 'Validation failed',
  status: 422,
  detailTemplate: '{reason}',
}) {
  protected override paramsJson(): string {
    return reasonJson(this.params) ?? super.paramsJson();
  }
}
/** 429: rate limit exceeded (raised by application code). */
export class TooManyRequestsError extends HTTPError.define({
  type: 'too-many-requests',
  title: 'The caller has exceeded a rate limit',
  status: 429,
}) {}
/** 431: too many request headers. */
export class RequestHeaderFieldsTooLargeError extends HTTPError.define({
  type: 'request-header-fields-too-large',
  title: 'Request header fields too large',
  status: 431,
}) {}
/** 408: the request was not received in time. */
export class RequestTimeoutError extends HTTPError.define({
  type: 'request-timeout',
  title: 'Request timeout',
  status: 408,
}) {}
/** 500: any uncaught exception; server internals never leak. */
export class InternalServerError extends HTTPError.define({
  type: 'internal-server-error',
  title: 'Internal server error',
  status: 500,
}) {}
/** 503: the server is shutting down. */
export class ServiceUnavailableError extends HTTPError.define({
  type: 'service-unavailable',
  title: 'Service unavailable',
  status: 503,
}) {}
/**
 * 503: the operation did not produce the head of its answer within its deadline
 * (`limits.deadlineMs`); its late result is dropped.
 */
export class DeadlineExceededError extends HTTPError.define({
  type: 'deadline-exceeded',
  title: 'The answer was not ready within its deadline',
  status: 503,
}) {}
/**
 * 503: the server sheds load (event-loop delay, heap or RSS past the app's `loadShedding` limits)
 * before routing the request; `retry-after` says when to try again.
 */
export class OverloadedError extends HTTPError.define({
  type: 'overloaded',
  title: 'The server is overloaded',
  status: 503,
}) {}
/** 414: the request target is longer than the server reads (8 KiB). */
export class URITooLongError extends HTTPError.define({
  type: 'uri-too-long',
  title: 'Request target too long',
  status: 414,
}) {}
