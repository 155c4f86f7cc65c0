import * as v from 'valibot';
import { describe, expectTypeOf, it } from 'vitest';
import {
  ConflictError,
  DataclassHTTPError,
  defineExceptionHandler,
  ExceptionResponse,
  HTTPError,
  NotFoundError,
  SetCookie,
  Struct,
  StructHTTPError,
} from '../index';

class UpstreamError extends Error {
  readonly retryAfter = 5;
}
const Problem = Struct('UpstreamProblem', { type: v.literal('upstream'), detail: v.string() });
const Retry = Struct('Retry', { retryAfter: v.number() });
const LegacyBody = Struct('LegacyBody', { code: v.string(), httpStatus: v.pipe(v.number(), v.integer()) });
class LegacyGone extends StructHTTPError.define(LegacyBody, { status: 410, statusField: 'httpStatus' }) {}
class TeapotError extends HTTPError.define({ type: 'teapot', title: 'I am a teapot', status: 418 }) {}
const MissingParams = Struct('MissingParams', { id: v.string() });
class MissingError extends DataclassHTTPError.define(MissingParams, {
  type: 'missing',
  title: 'Missing',
  status: 404,
  detailTemplate: 'No {id}',
}) {}

describe('error classes keep their status and type as literal types', () => {
  it('HTTPError, DataclassHTTPError and StructHTTPError', () => {
    expectTypeOf(TeapotError.status).toEqualTypeOf<418>();
    expectTypeOf(TeapotError.type).toEqualTypeOf<'teapot'>();
    expectTypeOf(ConflictError.status).toEqualTypeOf<409>();
    expectTypeOf(MissingError.status).toEqualTypeOf<404>();
    expectTypeOf(MissingError.type).toEqualTypeOf<'missing'>();
    expectTypeOf(LegacyGone.status).toEqualTypeOf<410>();
  });
});

describe('defineExceptionHandler without returns', () => {
  it('takes any ExceptionResponse, with or without headers, any HTTP error, or nothing', () => {
    defineExceptionHandler({
      exception: UpstreamError,
      handleException: () => new ExceptionResponse({ statusCode: 502, json: { anything: 1 } }),
    });
    defineExceptionHandler({
      exception: UpstreamError,
      handleException: (error) =>
        new ExceptionResponse({ statusCode: 503, json: {}, headers: { retryAfter: error.retryAfter } }),
    });
    defineExceptionHandler({
      exception: UpstreamError,
      async handleException(error) {
        if (error.retryAfter > 1) return new ExceptionResponse({ statusCode: 503, json: null });
        return error.retryAfter ? new NotFoundError() : undefined;
      },
    });
  });
});

describe('defineExceptionHandler with returns', () => {
  it('checks the body of an ExceptionResponse against ExceptionResponse.of(Body)', () => {
    defineExceptionHandler({
      exception: UpstreamError,
      returns: [ExceptionResponse.of(Problem, { headers: Retry })],
      handleException: (error) =>
        new ExceptionResponse({
          statusCode: 502,
          json: { type: 'upstream', detail: 'down' },
          headers: { retryAfter: error.retryAfter },
          cookies: [new SetCookie('seen', '1')],
        }),
    });
    defineExceptionHandler({
      exception: UpstreamError,
      returns: [ExceptionResponse.of(Problem, { headers: Retry })],
      // typed headers declared, and still optional
      handleException: () =>
        new ExceptionResponse({ statusCode: 502, json: { type: 'upstream', detail: 'x' } }),
    });
    defineExceptionHandler({
      exception: UpstreamError,
      returns: [ExceptionResponse.of(Problem)],
      // headers stay optional
      handleException: () =>
        new ExceptionResponse({ statusCode: 502, json: { type: 'upstream', detail: 'x' } }),
    });
    defineExceptionHandler({
      exception: UpstreamError,
      returns: [ExceptionResponse.of(Problem)],
      // @ts-expect-error the body misses "detail"
      handleException: () => new ExceptionResponse({ statusCode: 502, json: { type: 'upstream' } }),
    });
    defineExceptionHandler({
      exception: UpstreamError,
      returns: [ExceptionResponse.of(Problem)],
      // @ts-expect-error "type" is the literal 'upstream'
      handleException: () => new ExceptionResponse({ statusCode: 502, json: { type: 'other', detail: 'x' } }),
    });
    defineExceptionHandler({
      exception: UpstreamError,
      returns: [ExceptionResponse.of(Problem, { headers: Retry })],
      handleException: () =>
        // @ts-expect-error the typed header is a number
        new ExceptionResponse({
          statusCode: 502,
          json: { type: 'upstream', detail: 'x' },
          headers: { retryAfter: 'soon' },
        }),
    });
  });

  it('ties a pinned status to its body', () => {
    const Busy = Struct('Busy', { retryIn: v.number() });
    defineExceptionHandler({
      exception: UpstreamError,
      returns: [ExceptionResponse.of(Problem, { status: 502 }), ExceptionResponse.of(Busy, { status: 503 })],
      handleException: (error) =>
        error.retryAfter > 1
          ? new ExceptionResponse({ statusCode: 503, json: { retryIn: error.retryAfter } })
          : new ExceptionResponse({ statusCode: 502, json: { type: 'upstream', detail: 'x' } }),
    });
    defineExceptionHandler({
      exception: UpstreamError,
      returns: [ExceptionResponse.of(Problem, { status: 502 }), ExceptionResponse.of(Busy, { status: 503 })],
      handleException: () =>
        // @ts-expect-error 503 carries Busy, not Problem
        new ExceptionResponse({ statusCode: 503, json: { type: 'upstream', detail: 'x' } }),
    });
    defineExceptionHandler({
      exception: UpstreamError,
      returns: [ExceptionResponse.of(Problem, { status: 502 })],
      handleException: () =>
        // @ts-expect-error no declared member answers 500
        new ExceptionResponse({ statusCode: 500, json: { type: 'upstream', detail: 'x' } }),
    });
    // @ts-expect-error a pinned status is an error status
    ExceptionResponse.of(Problem, { status: 302 });
  });

  it('ties an error class status to its body: a Struct body, or a Problem', () => {
    defineExceptionHandler({
      exception: UpstreamError,
      returns: [LegacyGone, ConflictError],
      handleException: (error) =>
        error.retryAfter > 1
          ? new ExceptionResponse({ statusCode: 410, json: { code: 'E410', httpStatus: 410 } })
          : new ExceptionResponse({
              statusCode: 409,
              json: { type: 'conflict', title: 'Conflict', status: 409, detail: 'taken' },
            }),
    });
    defineExceptionHandler({
      exception: UpstreamError,
      returns: [LegacyGone, ConflictError],
      handleException: () =>
        // @ts-expect-error 410 is LegacyGone: its body is LegacyBody
        new ExceptionResponse({ statusCode: 410, json: { type: 'conflict', title: 'x', status: 410 } }),
    });
    defineExceptionHandler({
      exception: UpstreamError,
      returns: [ConflictError],
      handleException: () =>
        // @ts-expect-error a 409 Problem says status 409
        new ExceptionResponse({ statusCode: 409, json: { type: 'conflict', title: 'x', status: 410 } }),
    });
    defineExceptionHandler({
      exception: UpstreamError,
      returns: [ConflictError],
      handleException: () => new ConflictError(),
    });
    defineExceptionHandler({
      exception: UpstreamError,
      returns: [LegacyGone],
      // @ts-expect-error a Problem error is not the declared StructHTTPError
      handleException: () => new ConflictError(),
    });
  });

  it('still lets the handler fall back to default handling', () => {
    defineExceptionHandler({
      exception: UpstreamError,
      returns: [ConflictError],
      handleException: (error) => (error.retryAfter > 1 ? undefined : new ConflictError()),
    });
  });
});

describe('defineExceptionHandler with a mixed returns list', () => {
  // Inference of the returned response's headers type once picked `unknown` from the error
  // class member, and the response then fit no member.
  it('takes an ExceptionResponse of a declared body beside an error class or a headers-typed body', () => {
    const Body = Struct('MixedBody', { code: v.string() });
    defineExceptionHandler({
      exception: UpstreamError,
      returns: [ConflictError, ExceptionResponse.of(Body)],
      handleException: (error) =>
        error.retryAfter > 9
          ? new ConflictError()
          : new ExceptionResponse({ statusCode: 502, json: { code: 'upstream' } }),
    });
    defineExceptionHandler({
      exception: UpstreamError,
      returns: [ConflictError, ExceptionResponse.of(Body, { status: 503, headers: Retry })],
      handleException: (error) =>
        new ExceptionResponse({
          statusCode: 503,
          json: { code: 'x' },
          headers: { retryAfter: error.retryAfter },
        }),
    });
    defineExceptionHandler({
      exception: UpstreamError,
      returns: [ExceptionResponse.of(Body), ExceptionResponse.of(Body, { status: 503, headers: Retry })],
      handleException: () => new ExceptionResponse({ statusCode: 502, json: { code: 'x' } }),
    });
    defineExceptionHandler({
      exception: UpstreamError,
      returns: [ConflictError, ExceptionResponse.of(Body, { status: 503, headers: Retry })],
      handleException: () =>
        // @ts-expect-error -- a declared header of the wrong type
        new ExceptionResponse({ statusCode: 503, json: { code: 'x' }, headers: { retryAfter: 'soon' } }),
    });
  });
});
