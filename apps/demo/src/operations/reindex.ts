import { Accepted, Endpoint, ServiceUnavailableError } from '@api/core';
import type { BackgroundTasks } from '@api/tasks';
import { ReindexAccepted, ReindexRequested, WidgetPath } from '../models';
import { widgetsTag } from './widgets';

/** Seconds a client waits before it tries a full queue again (the 503's `retry-after`). */
const RETRY_AFTER_SECONDS = 1;

/** POST /widgets/{widget_id}/reindex: rebuild a widget's search entry in the background (202), or 503 when the queue is full. */
export class ReindexEndpoint extends Endpoint('/widgets/{widget_id}/reindex', {
  meta: { tags: [widgetsTag], exceptions: [ServiceUnavailableError] },
}) {
  constructor(private readonly tasks: BackgroundTasks) {
    super();
  }

  post = this.operation(
    {
      path: WidgetPath,
      returns: Accepted.of(ReindexAccepted),
      meta: { summary: 'Rebuild a widget’s search entry in the background.' },
    },
    ({ path }) => {
      // tryAdd never waits: a full queue is answered at once instead of holding the request.
      if (!this.tasks.tryAdd(ReindexRequested, { widgetId: path.widget_id }))
        throw new ServiceUnavailableError().withHeaders({ 'retry-after': String(RETRY_AFTER_SECONDS) });
      return new Accepted({ json: { widgetId: path.widget_id, queued: true as const } });
    },
  );
}
