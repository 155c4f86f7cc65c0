import * as v from 'valibot';
import { Struct } from '@api/core';
import { compileSerializer } from '@api/core/extension';
import { describe, expect, it } from 'vitest';
import { compileItemEncoder } from './item-codec';

const Created = Struct('Created', { id: v.string(), name: v.string() }, { tag: true });
const Deleted = Struct('Deleted', { id: v.string() }, { tag: true });
const Plain = Struct('Plain', { n: v.number() });
const Other = Struct('Other', { s: v.string() });

describe('compileItemEncoder', () => {
  it('validates, then writes only the declared fields in declared order', () => {
    const encode = compileItemEncoder(Struct('W', { id: v.string(), n: v.number() }), 'item');
    expect(encode({ n: 2, id: 'a', secret: 'x' })).toBe('{"id":"a","n":2}');
  });

  it('refuses an item that does not match, naming the path but never the value', () => {
    const encode = compileItemEncoder(Plain, 'NDJSON item');
    expect(() => encode({ n: 'top-secret' })).toThrow(
      new TypeError('NDJSON item does not match its schema: Expected number, got string at `$.n`'),
    );
  });

  it('dispatches a union of tagged Structs on "type", writing the tag first', () => {
    const encode = compileItemEncoder(v.union([Created, Deleted]), 'item');
    expect(encode({ name: 'w', id: '1', type: 'Created' })).toBe('{"type":"Created","id":"1","name":"w"}');
    expect(encode({ id: '2', type: 'Deleted', name: 'dropped' })).toBe('{"type":"Deleted","id":"2"}');
  });

  it('does the same for v.variant', () => {
    const encode = compileItemEncoder(v.variant('type', [Created, Deleted]), 'item');
    expect(encode({ type: 'Deleted', id: '2' })).toBe('{"type":"Deleted","id":"2"}');
  });

  it('refuses an unknown tag and a member mismatch, explained by the member the tag names', () => {
    const encode = compileItemEncoder(v.union([Created, Deleted]), 'item');
    expect(() => encode({ type: 'Renamed', id: '1' })).toThrow(
      new TypeError(
        'item does not match its schema: Expected ("Created" | "Deleted"), got string at `$.type`',
      ),
    );
    expect(() => encode({ type: 'Created', id: '1' })).toThrow(
      new TypeError('item does not match its schema: Missing required field at `$.name`'),
    );
    expect(() => encode({ type: 'Deleted', id: 2 })).toThrow(
      new TypeError('item does not match its schema: Expected string, got number at `$.id`'),
    );
    expect(() => encode(null)).toThrow(
      new TypeError('item does not match its schema: Expected Object, got null at `$`'),
    );
  });

  it("uses core's dispatch: the same text as core's serializer for a JSONResponse of the union", () => {
    const union = v.union([Created, Deleted]);
    const item = { id: '2', type: 'Deleted', name: 'dropped' };
    expect(compileItemEncoder(union, 'item')(item)).toBe(compileSerializer(union, { strict: true })(item));
  });

  it('writes an untagged union item with the first member it matches', () => {
    const encode = compileItemEncoder(v.union([Plain, Other]), 'item');
    expect(encode({ s: 'x', n: undefined, extra: 1 })).toBe('{"s":"x"}');
    expect(encode({ n: 1, s: 'y' })).toBe('{"n":1}');
    expect(() => encode({})).toThrow(/does not match its schema/);
  });

  it('validates scalars and arrays too', () => {
    expect(compileItemEncoder(v.string(), 'item')('a"b')).toBe('"a\\"b"');
    expect(compileItemEncoder(v.array(Plain), 'item')([{ n: 1, x: 2 }])).toBe('[{"n":1}]');
    expect(() => compileItemEncoder(v.string(), 'item')(1)).toThrow(/Expected string, got number/);
  });
});
