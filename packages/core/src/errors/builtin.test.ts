import { describe, expect, it } from 'vitest';
import { compileSerializer } from '../schema/serializer';
import { DataclassHTTPError } from './dataclass-http-error';
import { ErrorReason, MalformedRequestError, ValidationFailedError } from './builtin';

// What the 400's and 422's bodies were before their params were written directly: the Problem
// head, the detail through JSON.stringify, and the params through ErrorReason's compiled serializer.
const serializeReason = compileSerializer(ErrorReason);
function expectedBody(type: string, title: string, status: number, params: object): string {
  const detail = (params as { reason: unknown }).reason;
  return (
    `{"type":"${type}","title":"${title}","status":${status},` +
    `"detail":${JSON.stringify(typeof detail === 'string' ? detail : JSON.stringify(detail))},` +
    `"params":${serializeReason(params)}}`
  );
}

const AWKWARD = [
  'Invalid min value: expected >=1888',
  'Expected ("a" | "b"), got string',
  'back\\slash, tab\t, newline\n, NUL\u0000, DEL\u007f',
  'é, 日本語, emoji 😀, lone \ud800 and \udfff surrogates',
  '',
];

describe('the 400 and 422 Problem bodies (params written directly)', () => {
  const cases: object[] = [
    {
      reason: 'Invalid min value: expected >=1888 at `$.year`',
      issues: [{ path: '$.year', message: 'Invalid min value: expected >=1888' }],
    },
    { reason: 'Invalid value at `json`', issues: [] },
    ...AWKWARD.map((text, i) => ({
      reason: `${text} at \`$["k${i}"]\``,
      issues: AWKWARD.map((message, j) => ({ path: `$["${AWKWARD[(i + j) % AWKWARD.length]}"]`, message })),
    })),
    // Extra fields are not part of ErrorReason: neither writer sends them.
    { reason: 'r', issues: [{ path: 'p', message: 'm', extra: 1 }], extra: true },
  ];

  it('are byte-identical to the compiled serializer for ErrorReason values', () => {
    for (const params of cases) {
      expect(new ValidationFailedError(params as never).problemJson()).toBe(
        expectedBody('validation-failed', 'Validation failed', 422, params),
      );
      expect(new MalformedRequestError(params as never).problemJson()).toBe(
        expectedBody('malformed-request', 'Malformed request', 400, params),
      );
      JSON.parse(new ValidationFailedError(params as never).problemJson());
    }
  });

  it('leave values of another shape to the compiled serializer', () => {
    const odd: object[] = [
      { reason: 'r', issues: [{ path: 'p', message: 3 }] },
      { reason: 'r', issues: [null] },
      { reason: 'r', issues: 'none' },
      { reason: 7, issues: [] },
      { reason: 'r', issues: [{ path: 'p', message: 'm' }, 'x'] },
    ];
    for (const params of odd) {
      const error = new ValidationFailedError(params as never);
      // The same text the compiled serializer writes (or the same error it throws).
      let expected: string | Error;
      try {
        expected = expectedBody('validation-failed', 'Validation failed', 422, params);
      } catch (failure) {
        expected = failure as Error;
      }
      if (typeof expected === 'string') expect(error.problemJson()).toBe(expected);
      else expect(() => error.problemJson()).toThrow(expected.message);
    }
  });

  it('a one-placeholder template is its string field; other templates are rendered', () => {
    class Plain extends DataclassHTTPError.define(ErrorReason, {
      type: 'plain',
      title: 'Plain',
      status: 409,
      detailTemplate: 'Because {reason}',
    }) {}
    const params = { reason: 'a "quoted" reason', issues: [] };
    expect(new ValidationFailedError(params).detail).toBe('a "quoted" reason');
    expect(new ValidationFailedError(params).message).toBe('a "quoted" reason');
    expect(new Plain(params).detail).toBe('Because a "quoted" reason');
    expect(new Plain(params).problemJson()).toBe(
      '{"type":"plain","title":"Plain","status":409,"detail":"Because a \\"quoted\\" reason",' +
        '"params":{"reason":"a \\"quoted\\" reason","issues":[]}}',
    );
  });
});
