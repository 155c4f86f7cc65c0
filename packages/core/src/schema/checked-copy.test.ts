import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { CHECKED_COPY, compileCheckedCopy } from './checked-copy';
import { node } from './introspect';
import { Struct } from './struct';

const Movie = Struct('Movie', {
  id: v.number(),
  title: v.string(),
  genres: v.array(v.string()),
  released: v.nullable(v.boolean()),
  kind: v.literal('movie'),
  inner: Struct('Inner', { n: v.number() }),
});

describe('compileCheckedCopy', () => {
  it('builds a copy for objects of leaves, literals, string arrays and nested objects, and lists of them', () => {
    const movie = {
      id: 1,
      title: 't',
      genres: ['a'],
      released: null,
      kind: 'movie',
      inner: { n: 2 },
      extra: 0,
    };
    const written = JSON.stringify({ ...movie, extra: undefined });
    expect(compileCheckedCopy(node(Movie))?.(movie)).toBe(written);
    expect(compileCheckedCopy(node(v.array(Movie)))?.([movie])).toBe(`[${written}]`);
    // Index keys come first in Object.keys and in an object literal alike: the declared order holds.
    expect(compileCheckedCopy(node(v.object({ b: v.string(), 2: v.number() })))?.({ 2: 3, b: 'x' })).toBe(
      '{"2":3,"b":"x"}',
    );
  });

  it('has none for what only the concatenation serves: optional fields, unions, records, "__proto__", a leaf', () => {
    for (const schema of [
      Struct('Opt', { a: v.optional(v.string()) }),
      Struct('Union', { a: v.union([v.string(), v.number()]) }),
      Struct('Rec', { a: v.record(v.string(), v.string()) }),
      v.object(Object.fromEntries([['__proto__', v.string()]]) as Record<string, v.GenericSchema>),
      v.string(),
      v.array(v.number()),
    ])
      expect(compileCheckedCopy(node(schema))).toBeUndefined();
  });

  it('is the default on Bun only (JavaScriptCore writes JSON.stringify fastest)', () => {
    expect(CHECKED_COPY).toBe(typeof (globalThis as { Bun?: unknown }).Bun !== 'undefined');
    expect(CHECKED_COPY).toBe(false);
  });
});
