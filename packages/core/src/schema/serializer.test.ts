import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { compileSerializer } from './serializer';
import { ResponseShapeError } from './response-shape-error';
import { Struct } from './struct';
import { discriminatorOf } from './tagged-union';
import { prng } from '../../test/prng';

const Created = Struct('Created', { id: v.string(), name: v.string() }, { tag: true });
const Deleted = Struct('Deleted', { id: v.string(), at: v.optional(v.number()) }, { tag: true });
const Event = v.union([Created, Deleted]);

function shapeError(run: () => unknown): ResponseShapeError {
  try {
    run();
  } catch (error) {
    if (error instanceof ResponseShapeError) return error;
    throw error;
  }
  throw new Error('no ResponseShapeError');
}

describe('compileSerializer: unions of tagged Structs', () => {
  it('dispatches on "type" to the member: the tag first, declared fields only, in declared order', () => {
    const serialize = compileSerializer(Event, { strict: true });
    expect(serialize({ name: 'w', secret: 'x', id: '1', type: 'Created' })).toBe(
      '{"type":"Created","id":"1","name":"w"}',
    );
    expect(serialize({ id: '2', type: 'Deleted', name: 'dropped' })).toBe('{"type":"Deleted","id":"2"}');
    expect(serialize({ id: '3', type: 'Deleted', at: 5 })).toBe('{"type":"Deleted","id":"3","at":5}');
  });

  it('dispatches inside arrays, objects and nullable wrappers', () => {
    const Feed = Struct('Feed', { items: v.array(Event), last: v.nullable(Event) });
    const serialize = compileSerializer(Feed, { strict: true });
    expect(
      serialize({
        last: null,
        items: [
          { type: 'Deleted', id: 'a', name: 'x' },
          { type: 'Created', id: 'b', name: 'y' },
        ],
      }),
    ).toBe('{"items":[{"type":"Deleted","id":"a"},{"type":"Created","id":"b","name":"y"}],"last":null}');
  });

  it('does the same for v.variant on a literal key, tagged Structs or plain objects', () => {
    expect(
      compileSerializer(v.variant('type', [Created, Deleted]), { strict: true })({
        type: 'Deleted',
        id: '2',
        x: 1,
      }),
    ).toBe('{"type":"Deleted","id":"2"}');
    const Shape = v.variant('kind', [
      v.object({ kind: v.literal('circle'), r: v.number() }),
      v.object({ kind: v.literal('square'), side: v.number() }),
    ]);
    expect(compileSerializer(Shape, { strict: true })({ side: 2, kind: 'square', r: 9 })).toBe(
      '{"kind":"square","side":2}',
    );
  });

  it('strict: a tag naming no member is a ResponseShapeError at the tag, never quoting the value', () => {
    const serialize = compileSerializer(v.array(Event), { strict: true });
    const error = shapeError(() =>
      serialize([
        { type: 'Created', id: '1', name: 'n' },
        { type: 'Renamed', id: '2' },
      ]),
    );
    expect(error.path).toBe('$[1].type');
    expect(error.message).toBe(
      'the value at `$[1].type` does not match the declared response schema ' +
        '(expected "Created" | "Deleted" (the union\'s members), got another string)',
    );
    expect(shapeError(() => serialize([{ id: '1' }])).message).toContain('at `$[0].type`');
    expect(shapeError(() => serialize([{ id: '1' }])).message).toContain('got nothing)');
    expect(shapeError(() => serialize([{ type: 7 }])).message).toContain('got number)');
    expect(shapeError(() => serialize([null])).message).toBe(
      'the value at `$[0]` does not match the declared response schema (expected object, got null)',
    );
    expect(shapeError(() => serialize([[]])).message).toContain('(expected object, got array)');
  });

  it("strict: a member's own mismatch keeps its path", () => {
    const error = shapeError(() => compileSerializer(Event, { strict: true })({ type: 'Created', id: '1' }));
    expect(error.path).toBe('$.name');
  });

  it('strict: a tagged Struct alone refuses another tag', () => {
    const serialize = compileSerializer(Created, { strict: true });
    expect(serialize({ type: 'Created', id: '1', name: 'n' })).toBe('{"type":"Created","id":"1","name":"n"}');
    expect(shapeError(() => serialize({ type: 'Deleted', id: '1', name: 'n' })).message).toBe(
      'the value at `$.type` does not match the declared response schema (expected "Created", got another string)',
    );
  });

  it('lenient (error bodies): a value naming no member is written as it is', () => {
    const serialize = compileSerializer(Event);
    expect(serialize({ type: 'Created', id: '1', name: 'n', x: 1 })).toBe(
      '{"type":"Created","id":"1","name":"n"}',
    );
    expect(serialize({ type: 'Other', x: 1 })).toBe('{"type":"Other","x":1}');
    expect(serialize(null)).toBe('null');
  });

  it('leaves untagged unions as they were (JSON.stringify): @api/openapi refuses them in responses', () => {
    const A = Struct('A', { a: v.string() });
    const B = Struct('B', { b: v.string() });
    expect(discriminatorOf(v.union([A, B]))).toBeUndefined();
    expect(discriminatorOf(v.union([Created, B]))).toBeUndefined();
    expect(compileSerializer(v.union([A, B]), { strict: true })({ b: 'x', a: 'y' })).toBe(
      '{"b":"x","a":"y"}',
    );
  });
});

describe('discriminatorOf', () => {
  it('maps each tag to its member, decided once per schema', () => {
    const found = discriminatorOf(Event);
    expect(found?.key).toBe('type');
    expect([...(found?.members.keys() ?? [])]).toEqual(['Created', 'Deleted']);
    expect(found?.members.get('Deleted')).toBe(Deleted);
    expect(discriminatorOf(Event)).toBe(found);
    expect(discriminatorOf(Created)).toBeUndefined();
  });

  it('explains a refusal by the member the tag names (the equivalent variant)', () => {
    const variant = discriminatorOf(Event)!.variant;
    const result = v.safeParse(variant, { type: 'Created', id: '1' });
    expect(result.success).toBe(false);
    expect(result.issues?.[0]?.path?.map((p) => p.key)).toEqual(['name']);
    expect(v.safeParse(variant, { type: 'Deleted', id: '1' }).output).toEqual({ type: 'Deleted', id: '1' });
  });
});

describe.each([false, true])(
  'compileSerializer: strict objects (generated per schema; checkedCopy %s)',
  (checkedCopy) => {
    const Row = Struct('Row', {
      id: v.number(),
      name: v.string(),
      ok: v.boolean(),
      note: v.nullable(v.string()),
      kind: v.literal('row'),
      tags: v.array(v.string()),
      inner: Struct('Inner', { n: v.number() }),
    });
    const serialize = compileSerializer(Row, { strict: true, checkedCopy });
    const row = { id: 1, name: 'a', ok: true, note: null, kind: 'row', tags: ['x'], inner: { n: 2 } };

    it('writes exactly what JSON.stringify writes for the declared fields, in declared order', () => {
      const strings = [
        '',
        'plain',
        'q"uote',
        'back\\slash',
        'nl\nand\ttab',
        '\u0000\u001f',
        '\ud83d\ude00',
        'lone \ud800',
        'é ü',
        '</script>',
      ];
      for (const name of strings) {
        const value = { extra: 1, ...row, name, note: name, tags: [name, 'x', name] };
        expect(serialize(value)).toBe(JSON.stringify({ ...row, name, note: name, tags: [name, 'x', name] }));
      }
      expect(serialize({ ...row, tags: [] })).toBe(JSON.stringify({ ...row, tags: [] }));
      expect(serialize({ ...row, id: -0, ok: false })).toBe(JSON.stringify({ ...row, id: 0, ok: false }));
    });

    it('writes random strings (controls, quotes, surrogates) as JSON.stringify does, in fields and lists', () => {
      const Piped = Struct('Piped', {
        s: v.pipe(v.string(), v.maxLength(64)),
        list: v.array(v.pipe(v.string())),
      });
      const piped = compileSerializer(Piped, { strict: true, checkedCopy });
      const random = prng(27);
      const alphabet = [
        'a',
        '"',
        '\\',
        '\n',
        '\u0001',
        '\u001f',
        '\ud800',
        '\udc00',
        '\ud83d\ude00',
        'é',
        ' ',
        '/',
      ];
      const text = (): string =>
        Array.from(
          { length: Math.floor(random() * 8) },
          () => alphabet[Math.floor(random() * alphabet.length)],
        ).join('');
      for (let i = 0; i < 300; i++) {
        const value = { s: text(), list: Array.from({ length: Math.floor(random() * 4) }, text) };
        expect(piped(value)).toBe(JSON.stringify(value));
        expect(serialize({ ...row, name: value.s, tags: value.list })).toBe(
          JSON.stringify({ ...row, name: value.s, tags: value.list }),
        );
      }
      expect(() => piped({ s: 'x', list: ['a', null] })).toThrow('`$.list[1]`');
      expect(() => piped({ s: 'x', list: 'a' })).toThrow('(expected array, got string)');
    });

    it('refuses a wrong or missing field with its path, and a non-object', () => {
      const cases: Array<[unknown, string]> = [
        [
          { ...row, id: '1' },
          'the value at `$.id` does not match the declared response schema (expected a finite number, got string)',
        ],
        [
          { ...row, id: Number.NaN },
          'the value at `$.id` does not match the declared response schema (expected a finite number, got number)',
        ],
        [
          { ...row, name: undefined },
          'the value at `$.name` does not match the declared response ' +
            'schema (expected a value (required field), got undefined)',
        ],
        [
          { ...row, ok: 1 },
          'the value at `$.ok` does not match the declared response schema (expected boolean, got number)',
        ],
        [
          { ...row, note: 3 },
          'the value at `$.note` does not match the declared response schema (expected string, got number)',
        ],
        [
          { ...row, kind: 'other' },
          'the value at `$.kind` does not match the declared response schema (expected "row", got another string)',
        ],
        [
          { ...row, tags: ['x', 2] },
          'the value at `$.tags[1]` does not match the declared response schema (expected string, got number)',
        ],
        [
          { ...row, inner: { n: 'x' } },
          'the value at `$.inner.n` does not match the declared response schema (expected a finite number, got string)',
        ],
        [
          [],
          'the value at `$.id` does not match the declared response ' +
            'schema (expected a value (required field), got undefined)',
        ],
        [null, 'the value at `$` does not match the declared response schema (expected object, got null)'],
      ];
      for (const [value, message] of cases) expect(() => serialize(value)).toThrow(message);
    });

    it('writes lists of objects, nullable objects and keys an object literal would reorder the same way', () => {
      const list = compileSerializer(v.array(Row), { strict: true, checkedCopy });
      expect(list([row, { ...row, id: 2, extra: true }])).toBe(JSON.stringify([row, { ...row, id: 2 }]));
      expect(list([])).toBe('[]');
      expect(() => list([row, { ...row, inner: { n: 'x' } }])).toThrow('`$[1].inner.n`');
      const maybe = compileSerializer(
        Struct('Maybe', { inner: v.nullable(Struct('In', { n: v.number() })) }),
        {
          strict: true,
          checkedCopy,
        },
      );
      expect(maybe({ inner: null })).toBe('{"inner":null}');
      expect(maybe({ inner: { n: 1, m: 2 } })).toBe('{"inner":{"n":1}}');
      // An own "__proto__" field (an object literal would set the prototype instead) and an index key.
      const entries = Object.fromEntries([
        ['b', v.string()],
        ['2', v.number()],
        ['__proto__', v.string()],
        ['a', v.boolean()],
      ]) as Record<string, v.GenericSchema>;
      const odd = compileSerializer(v.object(entries), { strict: true, checkedCopy });
      const value = JSON.parse('{"a":true,"__proto__":"p","2":3,"b":"x","c":0}') as unknown;
      expect(odd(value)).toBe('{"2":3,"b":"x","__proto__":"p","a":true}');
    });
  },
);
