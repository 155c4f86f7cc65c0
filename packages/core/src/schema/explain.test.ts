import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { compileExplainer } from './explain';
import { toErrorReason, type SourceLabel } from './issues';
import { prng } from '../../test/prng';

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
      return [NaN, Infinity, 1888, 2100, 0, 10, 10.5, 2 ** 60][Math.floor(rand() * 8)];
    case 7:
      return Array.from({ length: Math.floor(rand() * 12) }, () => randomValue(rand, depth + 1));
    default: {
      const keys = [
        'title',
        'year',
        'rating',
        'genres',
        'released',
        'limit',
        'name',
        'note',
        'tag',
        'toString',
      ];
      const obj: Record<string, unknown> = {};
      for (const k of keys) if (rand() < 0.6) obj[k] = randomValue(rand, depth + 1);
      return obj;
    }
  }
}

// Objects close to valid: one or two fields wrong, as a 422 usually is.
function nearMovie(rand: () => number): unknown {
  const movie: Record<string, unknown> = {
    title: rand() < 0.9 ? 'The Bench' : randomValue(rand, 2),
    year: rand() < 0.8 ? 1800 + Math.floor(rand() * 400) + (rand() < 0.1 ? 0.5 : 0) : randomValue(rand, 2),
    rating: rand() < 0.85 ? rand() * 11 : randomValue(rand, 2),
    genres:
      rand() < 0.85
        ? Array.from({ length: Math.floor(rand() * 12) }, () => (rand() < 0.9 ? 'g' : randomValue(rand, 3)))
        : randomValue(rand, 2),
    released: rand() < 0.9 ? rand() < 0.5 : randomValue(rand, 2),
  };
  if (rand() < 0.3) movie.extra = 'ignored';
  if (rand() < 0.1) delete movie.title;
  if (rand() < 0.05) delete movie.year;
  return movie;
}

function nearOptionals(rand: () => number): unknown {
  const out: Record<string, unknown> = {};
  const choose = <T>(values: T[]): T => values[Math.floor(rand() * values.length)]!;
  if (rand() < 0.7) out.limit = choose([1, 20, 5, 0, 2.5, '3', undefined, null]);
  if (rand() < 0.7) out.name = choose(['n', '', 1, undefined]);
  if (rand() < 0.9) out.note = choose(['text', null, null, 3, undefined]);
  if (rand() < 0.7) out.tag = choose(['a', 'drama', null, undefined, 'b']);
  if (rand() < 0.5) out.released = choose([true, false, undefined]);
  if (rand() < 0.5) out.nested = choose([{ at: 'x', n: [1, 2] }, { n: ['1'] }, { at: 2 }, [], null, 'x']);
  if (rand() < 0.9) return out;
  return randomValue(rand);
}

const schemas: Record<string, v.GenericSchema> = {
  movie: v.object({
    title: v.pipe(v.string(), v.minLength(1), v.maxLength(200)),
    year: v.pipe(v.number(), v.integer(), v.minValue(1888), v.maxValue(2100)),
    rating: v.pipe(v.number(), v.minValue(0), v.maxValue(10)),
    genres: v.pipe(v.array(v.string()), v.maxLength(10), v.nonEmpty()),
    released: v.boolean(),
  }),
  optionals: v.object({
    limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1)), 20),
    name: v.optional(v.pipe(v.string(), v.regex(/^[a-z]+$/), v.length(1))),
    note: v.nullable(v.string(), 'none'),
    tag: v.nullish(v.picklist(['a', 'drama'])),
    released: v.optional(v.literal(true)),
    nested: v.optional(
      v.object({
        at: v.pipe(v.string(), v.minLength(1)),
        n: v.optional(v.array(v.pipe(v.number(), v.safeInteger(), v.finite())), [0]),
      }),
    ),
  }),
  // A default that itself fails its schema: valibot reports it, at the absent key.
  badDefault: v.object({ limit: v.optional(v.pipe(v.number(), v.minValue(5)), 1), toString: v.string() }),
};

const SOURCES: SourceLabel[] = ['json', 'query', 'form'];

describe('compileExplainer', () => {
  for (const [name, schema] of Object.entries(schemas)) {
    it(`finds the issues valibot reports on ${name} (random and near-valid inputs)`, () => {
      const explain = compileExplainer(schema)!;
      expect(explain).toBeTypeOf('function');
      const rand = prng(name.length * 104729);
      let explained = 0;
      for (let i = 0; i < 4000; i++) {
        const input = i % 2 === 0 ? randomValue(rand) : (name === 'movie' ? nearMovie : nearOptionals)(rand);
        const expected = v.safeParse(schema, input, { abortEarly: false });
        const issues = explain(input);
        if (issues === undefined) continue; // valibot decides (no issue found, or unsure)
        explained++;
        const label = JSON.stringify(input);
        expect(expected.success, label).toBe(false);
        const want = expected.issues!;
        expect(
          issues.map((x) => [x.kind, x.type, x.expected, x.input, x.path?.map((p) => [p.key, p.value])]),
          label,
        ).toEqual(
          want.map((x) => [x.kind, x.type, x.expected, x.input, x.path?.map((p) => [p.key, p.value])]),
        );
        for (const source of SOURCES)
          expect(toErrorReason(source, issues)).toEqual(toErrorReason(source, want));
      }
      expect(explained).toBeGreaterThan(1000);
    });
  }

  it('never quotes the submitted value: no received text, no message', () => {
    const issues = compileExplainer(schemas.movie!)!({ title: 'secret-value', year: 'secret-year' })!;
    expect(issues.length).toBeGreaterThan(0);
    for (const x of issues) {
      expect(x.received).toBe('');
      expect(x.message).toBe('');
    }
    expect(JSON.stringify(toErrorReason('json', issues))).not.toContain('secret');
  });

  it('leaves to valibot what it cannot be sure of', () => {
    const explain = compileExplainer(schemas.movie!)!;
    // An array where an object is expected (core refuses it after valibot, with its own issue).
    expect(explain([1, 2])).toBeUndefined();
    // A value the compiled check refuses and valibot accepts: no issue, valibot decides.
    const integer = compileExplainer(v.object({ n: v.pipe(v.number(), v.integer()) }))!;
    expect(integer({ n: 2 ** 60 })).toBeUndefined();
    expect(integer({ n: 0.5 })).toHaveLength(1);
    // A computed default.
    const computed = compileExplainer(v.object({ n: v.optional(v.number(), () => 1) }))!;
    expect(computed({})).toBeUndefined();
    // A stateful pattern, a transformation, a union: no explainer.
    expect(compileExplainer(v.object({ s: v.pipe(v.string(), v.regex(/a/g)) }))).toBeUndefined();
    expect(compileExplainer(v.object({ s: v.pipe(v.string(), v.trim()) }))).toBeUndefined();
    expect(compileExplainer(v.union([v.string(), v.number()]))).toBeUndefined();
    expect(compileExplainer(v.object({ s: v.fallback(v.string(), 'x') }))).toBeUndefined();
  });
});
