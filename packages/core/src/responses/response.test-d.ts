import * as v from 'valibot';
import { describe, expectTypeOf, it } from 'vitest';
import { ExceptionResponse, Struct } from '../index';

const Body = Struct('Body', { code: v.string() });

describe('ExceptionResponse', () => {
  it('takes a literal error status, rejects one outside 400–599, and leaves computed ones to run time', () => {
    const ok = new ExceptionResponse({ statusCode: 409, json: { code: 'x' } });
    expectTypeOf(ok.statusCode).toEqualTypeOf<409>();
    // @ts-expect-error 302 is not an error status
    void new ExceptionResponse({ statusCode: 302, json: { code: 'x' } });
    // @ts-expect-error 600 is not an error status
    void new ExceptionResponse({ statusCode: 600, json: { code: 'x' } });
    const computed: number = 500;
    void new ExceptionResponse({ statusCode: computed, json: { code: 'x' } });
  });

  it('has optional headers', () => {
    void new ExceptionResponse<v.InferOutput<typeof Body>, { retryAfter: string }>({
      statusCode: 503,
      json: { code: 'x' },
    });
    void new ExceptionResponse({ statusCode: 503, json: { code: 'x' }, headers: { retryAfter: '1' } });
  });
});
