import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { Struct } from '@api/core';
import { jsonSchemaOf } from './json-schema-of';

const Tag = Struct('Tag', { label: v.string() });
const Widget = Struct('Widget', { id: v.string(), tags: v.array(Tag), made: v.date() });

describe('jsonSchemaOf', () => {
  it('inlines a named root and keeps the models it uses in $defs', () => {
    expect(jsonSchemaOf(Widget)).toEqual({
      type: 'object',
      properties: {
        id: { type: 'string' },
        tags: { type: 'array', items: { $ref: '#/$defs/Tag' } },
        made: { type: 'string', format: 'date-time' },
      },
      required: ['id', 'tags', 'made'],
      $defs: {
        Tag: { type: 'object', properties: { label: { type: 'string' } }, required: ['label'] },
      },
    });
  });

  it('converts a schema that is not a model in place', () => {
    expect(jsonSchemaOf(v.array(Tag))).toEqual({
      type: 'array',
      items: { $ref: '#/$defs/Tag' },
      $defs: {
        Tag: { type: 'object', properties: { label: { type: 'string' } }, required: ['label'] },
      },
    });
    expect(jsonSchemaOf(v.object({ n: v.optional(v.number()) }))).toEqual({
      type: 'object',
      properties: { n: { type: 'number' } },
    });
  });

  it('keeps the root model in $defs when it refers to itself, and drops discriminator', () => {
    type Node = { name: string; children: Node[] };
    const Tree: v.GenericSchema<Node> = Struct('Tree', {
      name: v.string(),
      children: v.array(v.lazy(() => Tree)),
    });
    const out = jsonSchemaOf(Tree);
    expect(out.$defs).toHaveProperty('Tree');
    expect(JSON.stringify(out)).not.toContain('#/components/');
    const A = Struct('A', { a: v.string() }, { tag: true });
    const B = Struct('B', { b: v.string() }, { tag: true });
    const union = jsonSchemaOf(v.union([A, B]));
    expect(JSON.stringify(union)).not.toContain('discriminator');
    expect(union.anyOf).toEqual([{ $ref: '#/$defs/A' }, { $ref: '#/$defs/B' }]);
  });
});
