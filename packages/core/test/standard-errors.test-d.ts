// Types of error bodies from Standard Schemas (zod 4, ArkType 2): raise params, `params`, an exception
// handler's stand-in body and an adapter's `compose` are inferred as from valibot, and wrong uses are
// compile errors.
import { type } from 'arktype';
import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import {
  DataclassHTTPError,
  defineExceptionHandler,
  ExceptionResponse,
  StructHTTPError,
  type ErrorBodyAdapter,
} from '../src/index';

const ZBody = z.object({
  code: z.string(),
  message: z.string(),
  httpStatus: z.int(),
  note: z.string().optional(),
});
class ZLegacy extends StructHTTPError.define(ZBody, {
  status: 409,
  consts: { code: 'E1' },
  templates: { message: 'No {thing}' },
  statusField: 'httpStatus',
  params: z.object({ thing: z.string() }),
}) {}

const ABody = type({ code: 'string', httpStatus: 'number.integer' });
class ALegacy extends StructHTTPError.define(ABody, { status: 410, statusField: 'httpStatus' }) {}

const ZParams = z.object({ id: z.string(), count: z.coerce.number() });
class ZMissing extends DataclassHTTPError.define(ZParams, {
  type: 'missing',
  title: 'Missing',
  status: 404,
  detailTemplate: 'No {id}',
}) {}
class AMissing extends DataclassHTTPError.define(type({ id: 'string' }), {
  type: 'ark-missing',
  title: 'Missing',
  status: 404,
  detailTemplate: 'No {id}',
}) {}

class UpstreamError extends Error {}

describe('StructHTTPError.define with a Standard Schema body', () => {
  it('keeps the status literal and the schema; raise params are the unfed fields and the params schema', () => {
    expectTypeOf(ZLegacy.status).toEqualTypeOf<409>();
    expectTypeOf(ZLegacy.bodySchema).toEqualTypeOf<typeof ZBody>();
    expectTypeOf(ALegacy.status).toEqualTypeOf<410>();
    expectTypeOf<ConstructorParameters<typeof ZLegacy>[0]>().toEqualTypeOf<
      { thing: string } & Omit<z.input<typeof ZBody>, 'code' | 'message' | 'httpStatus'>
    >();
    expectTypeOf<ConstructorParameters<typeof ALegacy>[0]>().toEqualTypeOf<
      Omit<typeof ABody.inferIn, 'httpStatus'>
    >();
    void new ZLegacy({ thing: 'x' });
    void new ZLegacy({ thing: 'x', note: 'n' });
    void new ALegacy({ code: 'E' });
    expectTypeOf(new ZLegacy({ thing: 'x' }).body).toEqualTypeOf<z.input<typeof ZBody>>();
  });

  it('refuses unknown fields in consts and templates, a wrong const type and a missing raise param', () => {
    // @ts-expect-error "nope" is not a body field
    StructHTTPError.define(ZBody, { status: 400, consts: { nope: 'x' } });
    // @ts-expect-error a const has the field's type
    StructHTTPError.define(ZBody, { status: 400, consts: { httpStatus: 'x' } });
    // @ts-expect-error "nope" is not a body field
    StructHTTPError.define(ABody, { status: 400, statusField: 'nope' });
    // @ts-expect-error the params schema's "thing" is required
    void new ZLegacy({});
    // @ts-expect-error "code" is not fed: the raise passes it
    void new ALegacy({});
  });
});

describe('DataclassHTTPError.define with Standard Schema params', () => {
  it('takes the input type at the raise and keeps the output as `params`', () => {
    expectTypeOf(ZMissing.status).toEqualTypeOf<404>();
    expectTypeOf(ZMissing.type).toEqualTypeOf<'missing'>();
    expectTypeOf<ConstructorParameters<typeof ZMissing>[0]>().toEqualTypeOf<z.input<typeof ZParams>>();
    expectTypeOf(new ZMissing({ id: 'a', count: 1 }).params).toEqualTypeOf<z.output<typeof ZParams>>();
    expectTypeOf(new AMissing({ id: 'a' }).params).toEqualTypeOf<{ id: string }>();
    // @ts-expect-error "id" is a string
    void new AMissing({ id: 1 });
  });
});

describe('an exception handler declaring a Standard Schema StructHTTPError', () => {
  it("returns an ExceptionResponse with the body schema's input", () => {
    defineExceptionHandler({
      exception: UpstreamError,
      returns: [ALegacy],
      handleException: () => new ExceptionResponse({ statusCode: 410, json: { code: 'E', httpStatus: 410 } }),
    });
    defineExceptionHandler({
      exception: UpstreamError,
      returns: [ALegacy],
      handleException: () =>
        // @ts-expect-error httpStatus is a number
        new ExceptionResponse({ statusCode: 410, json: { code: 'E', httpStatus: 'gone' } }),
    });
  });
});

describe('ErrorBodyAdapter with a Standard Schema', () => {
  it("composes the schema's input", () => {
    const House = z.object({ error: z.string(), at: z.string().transform((s) => s.length) });
    const adapter: ErrorBodyAdapter<typeof House> = {
      schema: House,
      compose: (error) => ({ error: error.type, at: 'x' }),
    };
    expectTypeOf(adapter.compose).returns.toEqualTypeOf<{ error: string; at: string }>();
    const wrong: ErrorBodyAdapter<typeof House> = {
      schema: House,
      // @ts-expect-error "at" is text before the transform
      compose: (error) => ({ error: error.type, at: 1 }),
    };
    void wrong;
  });
});
