// Widget models in ArkType 2. `named()` makes each an OpenAPI component; query fields are plain
// `number` types (@api turns the text "5" into 5 for a field whose JSON Schema type is a number).
import { type } from 'arktype';
import { named } from '@api/core';

/** The fields needed to create (or fully replace) a widget. */
export const WidgetIn = named(
  'WidgetIn',
  type({ name: '0 < string <= 200', priceCents: 'number.integer >= 0' }),
);

/** A partial update: only the fields sent change. */
export const WidgetPatch = named('WidgetPatch', WidgetIn.partial());

/** A stored widget. */
export const Widget = named('Widget', type({ id: 'string', name: 'string', priceCents: 'number.integer' }));
export type Widget = typeof Widget.infer;

/** Path of an item route. */
export const WidgetPath = type({ widget_id: 'string > 0' });

/** Paging for the collection. */
export const Page = type({ 'limit?': '1 <= number.integer <= 100', 'offset?': 'number.integer >= 0' });

/** The answer of DELETE /widgets/{widget_id}. */
export const Deleted = named('Deleted', type({ id: 'string', deleted: 'true' }));
