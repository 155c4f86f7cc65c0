// Demo models for the background queue — paste into apps/demo/src/models.ts.
import * as v from 'valibot';
import { Struct } from '@api/core';

/** A change to a widget, handled in the background after the response. */
export const WidgetEvent = Struct(
  'WidgetEvent',
  {
    action: v.picklist(['created', 'updated', 'deleted']),
    widgetId: v.pipe(v.string(), v.minLength(1)),
  },
  { description: 'A widget change, processed by the background queue.' },
);
export type WidgetEvent = v.InferOutput<typeof WidgetEvent>;

/** A request to rebuild one widget's search entry (enqueued by POST /widgets/{widget_id}/reindex). */
export const ReindexRequested = Struct('ReindexRequested', { widgetId: v.pipe(v.string(), v.minLength(1)) });

/** The 202 body of POST /widgets/{widget_id}/reindex. */
export const ReindexAccepted = Struct('ReindexAccepted', { widgetId: v.string(), queued: v.literal(true) });

/** The 503 body when the queue is full: a Problem (`type` service-unavailable). */
export const QueueFullProblem = Struct('QueueFullProblem', {
  type: v.literal('service-unavailable'),
  title: v.string(),
  status: v.literal(503),
  detail: v.string(),
});

/** The typed `retry-after` header (seconds) of the 503. */
export const RetryAfter = Struct('RetryAfter', {
  retryAfter: v.pipe(v.number(), v.integer(), v.minValue(0)),
});
