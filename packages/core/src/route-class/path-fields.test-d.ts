import { type } from 'arktype';
import * as v from 'valibot';
import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import type { DefaultedPathFields, PathFields, PathSlots } from './path-fields';

describe('PathFields', () => {
  it('names the fields of valibot, zod and ArkType object schemas alike', () => {
    const V = v.object({ shop_id: v.string(), n: v.number() });
    const Z = z.object({ shop_id: z.string(), n: z.coerce.number() });
    const A = type({ shop_id: 'string', n: 'string.integer.parse' });
    expectTypeOf<PathFields<typeof V>>().toEqualTypeOf<'shop_id' | 'n'>();
    expectTypeOf<PathFields<typeof Z>>().toEqualTypeOf<'shop_id' | 'n'>();
    expectTypeOf<PathFields<typeof A>>().toEqualTypeOf<'shop_id' | 'n'>();
  });

  it('reads a Standard Schema’s input keys (an output transform does not rename the fields)', () => {
    const Z = z.object({ id: z.string() }).transform((p) => ({ renamed: p.id }));
    expectTypeOf<PathFields<typeof Z>>().toEqualTypeOf<'id'>();
  });

  it('leaves out an index signature, which names no field', () => {
    const Z = z.looseObject({ id: z.string(), page: z.string().optional() });
    expectTypeOf<PathFields<typeof Z>>().toEqualTypeOf<'id' | 'page'>();
    expectTypeOf<DefaultedPathFields<typeof Z>>().toEqualTypeOf<'page'>();
    const R = z.record(z.string(), z.string());
    expectTypeOf<PathFields<typeof R>>().toEqualTypeOf<never>();
    expectTypeOf<DefaultedPathFields<typeof R>>().toEqualTypeOf<never>();
    expectTypeOf<PathFields<string>>().toEqualTypeOf<never>();
  });
});

describe('DefaultedPathFields', () => {
  it('names optional and defaulted fields, none for required ones', () => {
    const V = v.object({ a: v.string(), b: v.optional(v.string(), 'x'), c: v.nullish(v.string()) });
    const Z = z.object({
      a: z.string(),
      b: z.string().default('x'),
      c: z.string().nullish(),
      d: z.string().nullable(),
    });
    const A = type({ a: 'string', 'b?': 'string', c: 'string = "x"' });
    expectTypeOf<DefaultedPathFields<typeof V>>().toEqualTypeOf<'b' | 'c'>();
    expectTypeOf<DefaultedPathFields<typeof Z>>().toEqualTypeOf<'b' | 'c'>();
    expectTypeOf<DefaultedPathFields<typeof A>>().toEqualTypeOf<'b' | 'c'>();
    const Required = z.object({ a: z.string(), n: z.coerce.number() });
    expectTypeOf<DefaultedPathFields<typeof Required>>().toEqualTypeOf<never>();
  });
});

describe('PathSlots', () => {
  it('names every {slot} of a template', () => {
    expectTypeOf<PathSlots<'/shops/{shop_id}/items/{item_id}'>>().toEqualTypeOf<'shop_id' | 'item_id'>();
    expectTypeOf<PathSlots<'/healthz'>>().toEqualTypeOf<never>();
  });
});
