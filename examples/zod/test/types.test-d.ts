// Handler inputs see the zod models' types: zod's output (defaults applied); a handler's answer is
// checked against the response model. The typed client: client.test-d.ts.
import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { Endpoint, type SchemaInput, type SchemaOutput } from '@api/core';
import { Page, Widget, WidgetIn, WidgetPatch } from '../src/models';

type WidgetOut = { id: string; name: string; priceCents: number };

describe('schema types', () => {
  it('are zod’s own: output with defaults applied, input with them optional', () => {
    expectTypeOf<SchemaOutput<typeof Widget>>().toEqualTypeOf<z.output<typeof Widget>>();
    expectTypeOf<SchemaOutput<typeof Page>>().toEqualTypeOf<{ limit: number; offset: number }>();
    expectTypeOf<SchemaInput<typeof Page>>().toEqualTypeOf<{
      limit?: number | undefined;
      offset?: number | undefined;
    }>();
    expectTypeOf<SchemaOutput<typeof WidgetPatch>>().toEqualTypeOf<{
      name?: string | undefined;
      priceCents?: number | undefined;
    }>();
  });
});

describe('handler inputs', () => {
  it('receive zod’s output types (path, query with defaults, JSON body)', () => {
    class Probe extends Endpoint('/probe/{widget_id}') {
      post = this.operation(
        { path: z.object({ widget_id: z.string() }), params: Page, json: WidgetIn, returns: Widget },
        ({ path, params, json }) => {
          expectTypeOf(path).toEqualTypeOf<{ widget_id: string }>();
          expectTypeOf(params).toEqualTypeOf<{ limit: number; offset: number }>();
          expectTypeOf(json).toEqualTypeOf<{ name: string; priceCents: number }>();
          return { id: path.widget_id, ...json };
        },
      );
    }
    void Probe;
  });

  it('refuses a handler that returns what the zod response model does not take', () => {
    class Wrong extends Endpoint('/wrong') {
      // @ts-expect-error -- priceCents is a number in Widget
      get = this.operation({ returns: Widget }, () => ({ id: '1', name: 'x', priceCents: 'many' }));
    }
    void Wrong;
  });
});
