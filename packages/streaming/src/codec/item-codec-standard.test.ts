// NDJSON/SSE items from a Standard Schema (zod, ArkType …): validated by the generic path and
// written as the schema's output; a mismatch names the path, never the value.
import { describe, expect, it } from 'vitest';
import type { StandardSchemaV1 } from '@api/core/extension';
import { compileItemEncoder } from './item-codec';

/** A hand-made Standard Schema of `{ n: number }` whose output doubles n (a transform). */
const Doubled: StandardSchemaV1<{ n: number }, { n: number }> = {
  '~standard': {
    version: 1,
    vendor: 'test',
    validate: (value) => {
      const n = (value as { n?: unknown } | null)?.n;
      if (typeof n !== 'number')
        return {
          issues: [{ message: `expected number, got ${JSON.stringify(n)}`, path: [{ key: 'n' }] }],
        };
      return { value: { n: n * 2 } };
    },
  },
};
const Async: StandardSchemaV1 = {
  '~standard': { version: 1, vendor: 'test', validate: async (value) => ({ value }) },
};

describe('compileItemEncoder with a Standard Schema', () => {
  it("writes the schema's output", () => {
    expect(compileItemEncoder(Doubled, 'NDJSON item')({ n: 2 })).toBe('{"n":4}');
  });

  it('refuses a mismatch naming the path, without the value', () => {
    const encode = compileItemEncoder(Doubled, 'NDJSON item');
    expect(() => encode({ n: 'secret' })).toThrow(
      new TypeError('NDJSON item does not match its schema: Invalid value at `$.n`'),
    );
  });

  it('refuses an asynchronous schema (items are checked as they are written)', () => {
    expect(() => compileItemEncoder(Async, 'NDJSON item')({})).toThrow(/validates asynchronously/);
  });
});
