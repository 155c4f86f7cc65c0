// The typed client (@api/client) over the zod app's route classes: zod's input types at the call,
// its output types in the answer, the demo's Problems by status.
import { describe, expectTypeOf, it } from 'vitest';
import { createClient, route, type Authenticated } from '@api/client';
import type { WidgetCountEndpoint, WidgetResource } from '../src/app';
import type { InvalidTokenError } from '../src/errors';

type WidgetOut = { id: string; name: string; priceCents: number };

describe('the typed client', () => {
  const api = createClient({
    baseUrl: '',
    routes: {
      widgets: route<Authenticated<WidgetResource, typeof InvalidTokenError>>('/widgets'),
      count: route<WidgetCountEndpoint>('/widget-count'),
    },
  });

  it('sends zod’s input types and reads its output types', async () => {
    const created = await api.widgets.create({ json: { name: 'Gear', priceCents: 5 } });
    if (created.status === 201) expectTypeOf(created.data).toEqualTypeOf<WidgetOut>();
    const list = await api.widgets.readMany({ params: {} }).orThrow();
    expectTypeOf(list).toEqualTypeOf<WidgetOut[]>();
    await api.widgets.readMany({ params: { limit: 5 } });
    const one = await api.widgets.readOne({ path: { widget_id: 'w' } });
    if (one.status === 404) {
      expectTypeOf(one.error.type).toEqualTypeOf<'not-found' | 'widget-not-found'>();
      // The widget-not-found Problem's params come from its zod params schema.
      if (one.error.type === 'widget-not-found')
        expectTypeOf(one.error.params).toEqualTypeOf<{ widgetId: string }>();
    }
    const count = await api.count.get().orThrow();
    expectTypeOf(count).toEqualTypeOf<{ count: number }>();
  });

  it('refuses what the zod models refuse', async () => {
    // @ts-expect-error -- priceCents is a number
    await api.widgets.create({ json: { name: 'x', priceCents: 'many' } });
    // @ts-expect-error -- the path slot is widget_id
    await api.widgets.readOne({ path: { id: 'w' } });
    // @ts-expect-error -- limit is a number
    await api.widgets.readMany({ params: { limit: 'ten' } });
  });
});
