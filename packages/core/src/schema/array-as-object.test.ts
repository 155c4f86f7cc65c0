import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { compileArrayAsObjectFinder } from './array-as-object';

/** The keys of the path where `schema` finds an array standing for an object, or undefined. */
function where(schema: v.GenericSchema, value: unknown): (string | number)[] | undefined {
  const find = compileArrayAsObjectFinder(schema);
  expect(v.is(schema, value)).toBe(true); // what valibot itself accepts
  return find?.(value)?.map((p) => p.key);
}

describe('compileArrayAsObjectFinder', () => {
  it('is undefined for a schema that declares no object or record', () => {
    expect(compileArrayAsObjectFinder(v.array(v.string()))).toBeUndefined();
    expect(compileArrayAsObjectFinder(v.union([v.string(), v.tuple([v.number()])]))).toBeUndefined();
  });

  it('finds an array given for a record, an object, or one behind optional/nullable wrappers', () => {
    expect(where(v.record(v.string(), v.string()), ['x'])).toEqual([]);
    expect(where(v.object({ a: v.optional(v.string()) }), [])).toEqual([]);
    expect(where(v.looseObject({}), [1])).toEqual([]);
    expect(where(v.object({ m: v.nullish(v.record(v.string(), v.number())) }), { m: [1] })).toEqual(['m']);
    expect(where(v.object({ m: v.nullish(v.record(v.string(), v.number())) }), { m: null })).toBeUndefined();
    expect(where(v.record(v.string(), v.string()), { a: 'x' })).toBeUndefined();
  });

  it('walks arrays, tuples, record values and rest entries to the first array-as-object', () => {
    const Tag = v.object({ t: v.optional(v.string()) });
    expect(where(v.array(Tag), [{}, []])).toEqual([1]);
    expect(where(v.tuple([v.string(), Tag]), ['a', []])).toEqual([1]);
    expect(where(v.tupleWithRest([v.string()], Tag), ['a', {}, []])).toEqual([2]);
    expect(where(v.record(v.string(), Tag), { a: {}, b: [] })).toEqual(['b']);
    expect(where(v.objectWithRest({ a: v.string() }, Tag), { a: 'x', z: [] })).toEqual(['z']);
    expect(where(v.objectWithRest({ a: v.string() }, Tag), { a: 'x', z: {} })).toBeUndefined();
  });

  it('follows the union member valibot picks (its first that accepts), and every intersected member', () => {
    const Labels = v.record(v.string(), v.string());
    expect(where(v.union([v.array(v.string()), Labels]), ['x'])).toBeUndefined();
    expect(where(v.union([Labels, v.array(v.string())]), ['x'])).toEqual([]);
    const Kinds = v.variant('kind', [
      v.object({ kind: v.literal('a'), labels: Labels }),
      v.object({ kind: v.literal('b') }),
    ]);
    expect(where(Kinds, { kind: 'a', labels: ['x'] })).toEqual(['labels']);
    expect(where(v.intersect([v.object({ a: v.optional(Labels) }), v.object({})]), { a: ['x'] })).toEqual([
      'a',
    ]);
  });

  it('checks a recursive schema (v.lazy) at every depth', () => {
    interface Tree {
      children?: Tree[] | undefined;
      labels?: Record<string, string> | undefined;
    }
    const TreeSchema: v.GenericSchema<Tree> = v.object({
      children: v.optional(v.array(v.lazy(() => TreeSchema))),
      labels: v.optional(v.record(v.string(), v.string())),
    });
    expect(where(TreeSchema, { children: [{ children: [{ labels: ['x'] }] }] })).toEqual([
      'children',
      0,
      'children',
      0,
      'labels',
    ]);
    expect(where(TreeSchema, { children: [{ children: [{ labels: { a: 'x' } }] }] })).toBeUndefined();
  });
});
