import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { compileFastValidator, FAIL } from './fast-validate';
import { prng } from '../../test/prng';
import { Struct } from './struct';

function randomValue(rand: () => number, depth = 0): unknown {
  const pick = Math.floor(rand() * (depth > 2 ? 7 : 10));
  switch (pick) {
    case 0:
      return undefined;
    case 1:
      return null;
    case 2:
      return rand() < 0.5;
    case 3:
      return Math.floor(rand() * 3000) - 500;
    case 4:
      return rand() * 20 - 5;
    case 5:
      return ['', 'a', 'x'.repeat(Math.floor(rand() * 250)), 'drama', 'ok', 'AB12'][Math.floor(rand() * 6)];
    case 6:
      return [NaN, Infinity, 1888, 2100, 0, 10, 10.5][Math.floor(rand() * 7)];
    case 7:
      return Array.from({ length: Math.floor(rand() * 12) }, () => randomValue(rand, depth + 1));
    default: {
      const keys = ['title', 'year', 'rating', 'genres', 'released', 'limit', 'name', 'extra', 'tag', 'note'];
      const obj: Record<string, unknown> = {};
      for (const k of keys) if (rand() < 0.6) obj[k] = randomValue(rand, depth + 1);
      return obj;
    }
  }
}

// Objects close to valid, so both branches (pass/fail) are exercised often.
function nearMovie(rand: () => number): unknown {
  const movie: Record<string, unknown> = {
    title: rand() < 0.9 ? 'The Bench' : randomValue(rand, 2),
    year: rand() < 0.85 ? 1900 + Math.floor(rand() * 300) : randomValue(rand, 2),
    rating: rand() < 0.85 ? rand() * 11 : randomValue(rand, 2),
    genres:
      rand() < 0.85
        ? Array.from({ length: Math.floor(rand() * 12) }, () => (rand() < 0.95 ? 'g' : 1))
        : randomValue(rand, 2),
    released: rand() < 0.9 ? rand() < 0.5 : randomValue(rand, 2),
  };
  if (rand() < 0.3) movie.extra = 'ignored';
  if (rand() < 0.1) delete movie.title;
  return movie;
}

function nearOptionals(rand: () => number): unknown {
  const out: Record<string, unknown> = {};
  const choose = <T>(values: T[]): T => values[Math.floor(rand() * values.length)]!;
  if (rand() < 0.7) out.limit = choose([1, 20, 5, 0, 2.5, '3', undefined]);
  if (rand() < 0.7) out.name = choose(['n', '', 1, undefined]);
  out.note = choose(['text', null, null, 3]);
  if (rand() < 0.7) out.tag = choose(['a', 'drama', null, undefined, 'b']);
  if (rand() < 0.5) out.released = choose([true, false, undefined]);
  if (rand() < 0.9) return out;
  return randomValue(rand);
}

// Tagged-union members, their tags and near misses (a wrong tag, a missing or mistyped field).
function nearTagged(key: string) {
  return (rand: () => number): unknown => {
    const choose = <T>(values: T[]): T => values[Math.floor(rand() * values.length)]!;
    const out: Record<string, unknown> = {};
    if (rand() < 0.95) out[key] = choose(['Created', 'Deleted', 'Deleted', 'Renamed', 1, undefined]);
    if (rand() < 0.9) out.id = choose(['1', '2', 3, null]);
    if (rand() < 0.6) out.name = choose(['w', '', 7]);
    if (rand() < 0.2) out.extra = 'ignored';
    return rand() < 0.95 ? out : randomValue(rand);
  };
}

const near: Record<string, (rand: () => number) => unknown> = {
  optionals: nearOptionals,
  tagged: nearTagged('type'),
  variant: nearTagged('kind'),
};

const schemas = {
  movie: v.object({
    title: v.pipe(v.string(), v.minLength(1), v.maxLength(200)),
    year: v.pipe(v.number(), v.integer(), v.minValue(1888), v.maxValue(2100)),
    rating: v.pipe(v.number(), v.minValue(0), v.maxValue(10)),
    genres: v.pipe(v.array(v.string()), v.maxLength(10)),
    released: v.boolean(),
  }),
  optionals: v.object({
    limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1)), 20),
    name: v.optional(v.string()),
    note: v.nullable(v.string(), 'none'),
    tag: v.nullish(v.picklist(['a', 'drama'])),
    released: v.optional(v.literal(true)),
  }),
  nested: v.object({
    genres: v.array(v.object({ name: v.pipe(v.string(), v.regex(/^[a-z]+$/)) })),
    extra: v.optional(v.array(v.number())),
  }),
  tagged: v.union([
    Struct('Created', { id: v.string(), name: v.pipe(v.string(), v.minLength(1)) }, { tag: true }),
    Struct('Deleted', { id: v.string() }, { tag: true }),
  ]),
  variant: v.variant('kind', [
    v.object({ kind: v.literal('Created'), id: v.string(), name: v.optional(v.string()) }),
    v.object({ kind: v.literal('Deleted'), id: v.string() }),
  ]),
};

describe('compileFastValidator', () => {
  for (const [name, schema] of Object.entries(schemas)) {
    it(`agrees with valibot on ${name} (random and near-valid inputs)`, () => {
      const fast = compileFastValidator(schema)!;
      expect(fast).toBeTypeOf('function');
      const rand = prng(name.length * 7919);
      let passed = 0;
      for (let i = 0; i < 4000; i++) {
        const input = i % 2 === 0 ? randomValue(rand) : (near[name] ?? nearMovie)(rand);
        const expected = v.safeParse(schema, input);
        const actual = fast(input);
        expect(actual !== FAIL, JSON.stringify(input)).toBe(expected.success);
        if (expected.success) {
          expect(actual).toEqual(expected.output);
          passed++;
        }
      }
      expect(passed).toBeGreaterThan(50);
    });
  }

  it('strips unknown keys and never returns the input object', () => {
    const fast = compileFastValidator(schemas.movie)!;
    const input = { title: 't', year: 1999, rating: 1, genres: [], released: true, secret: 'x' };
    const out = fast(input) as Record<string, unknown>;
    expect(out).toEqual({ title: 't', year: 1999, rating: 1, genres: [], released: true });
    expect(out).not.toBe(input);
    expect(out.genres).not.toBe(input.genres);
  });

  it('declines schemas outside its subset (valibot runs alone)', () => {
    expect(compileFastValidator(v.pipe(v.string(), v.trim()))).toBeUndefined();
    expect(compileFastValidator(v.union([v.string(), v.number()]))).toBeUndefined();
    // Untagged Structs, or a variant whose key is not a literal: no dispatch, valibot decides.
    expect(
      compileFastValidator(v.union([Struct('A', { a: v.string() }), Struct('B', { b: v.string() })])),
    ).toBeUndefined();
    expect(
      compileFastValidator(
        v.variant('k', [v.object({ k: v.picklist(['a', 'b']) }), v.object({ k: v.literal('c') })]),
      ),
    ).toBeUndefined();
    expect(compileFastValidator(v.object({ a: v.custom<string>(() => true) }))).toBeUndefined();
  });
});
