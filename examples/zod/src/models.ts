// The demo's widget models (apps/demo/src/models.ts) in zod 4, as a zod user already has them. The two
// @api-specific touches: `named()` makes a model an OpenAPI component (as `Struct('Widget', …)` does;
// zod's own `.meta({ id })` works too), and query/path fields stay plain `z.number()`: @api turns
// the text "5" into 5 for a field whose JSON Schema type is a number (`z.coerce.number()` works too).
import { z } from 'zod';
import { named } from '@api/core';

/** The fields needed to create (or fully replace) a widget. */
export const WidgetIn = named(
  'WidgetIn',
  z.object({
    name: z.string().min(1).max(200).describe('Human-readable widget name'),
    priceCents: z.number().int().min(0).describe('Price in cents'),
  }),
  { description: 'The fields needed to create a widget.' },
);

/** A partial update: only the fields sent change. */
export const WidgetPatch = named('WidgetPatch', WidgetIn.partial());

/** A stored widget. */
export const Widget = named('Widget', z.object({ id: z.string(), ...WidgetIn.shape }), {
  description: 'A widget in the catalogue.',
});
export type Widget = z.output<typeof Widget>;

/** Path of an item route; slots are snake_case. */
export const WidgetPath = named('WidgetPath', z.object({ widget_id: z.string().min(1) }));

/** Paging for the collection. */
export const Page = named(
  'Page',
  z.object({
    limit: z.number().int().min(1).max(100).default(20),
    offset: z.number().int().min(0).default(0),
  }),
);

/** The answer of DELETE /widgets/{widget_id}. */
export const Deleted = named('Deleted', z.object({ id: z.string(), deleted: z.literal(true) }));

/** GET /widget-count (this example only): the count, and the same number in `X-Total-Count`. */
export const WidgetCount = named('WidgetCount', z.object({ count: z.number().int().min(0) }));
export const CountHeaders = z.object({ x_total_count: z.string() });
