// Handler inputs see ArkType's types (`typeof T.infer`), and a wrong answer is a compile error.
import { describe, expectTypeOf, it } from 'vitest';
import { Endpoint, type SchemaInput, type SchemaOutput } from '@api/core';
import { Page, Widget, WidgetIn, WidgetPath } from '../src/models';

describe('ArkType models', () => {
  it('type the handler’s inputs', () => {
    expectTypeOf<SchemaOutput<typeof Widget>>().toEqualTypeOf<typeof Widget.infer>();
    expectTypeOf<SchemaInput<typeof Page>>().toEqualTypeOf<{ limit?: number; offset?: number }>();
    class Probe extends Endpoint('/probe/{widget_id}') {
      post = this.operation(
        { path: WidgetPath, params: Page, json: WidgetIn, returns: Widget },
        ({ path, params, json }) => {
          expectTypeOf(path).toEqualTypeOf<{ widget_id: string }>();
          expectTypeOf(params).toEqualTypeOf<{ limit?: number; offset?: number }>();
          expectTypeOf(json).toEqualTypeOf<{ name: string; priceCents: number }>();
          return { id: path.widget_id, ...json };
        },
      );
    }
    void Probe;
  });

  it('check the handler’s answer', () => {
    class Wrong extends Endpoint('/wrong') {
      // @ts-expect-error -- priceCents is a number
      get = this.operation({ returns: Widget }, () => ({ id: '1', name: 'x', priceCents: 'many' }));
    }
    void Wrong;
  });
});
