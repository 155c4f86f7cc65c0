// POST /widgets/{widget_id}/reindex — paste into apps/demo/src/operations/reindex.ts (the error and
// its handler into errors.ts / app.ts).
import { Accepted, defineExceptionHandler, Endpoint, ExceptionResponse } from '@api/core';
import type { BackgroundTasks } from '@api/tasks';
import { QueueFullProblem, ReindexAccepted, ReindexRequested, RetryAfter } from './models';
import { WidgetPath } from './widget-path';

/** Raised when the background queue has no room; rendered as 503 + `retry-after` by `queueFullHandler`. */
export class QueueFullError extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super(`the background queue is full; retry in ${retryAfterSeconds} s`);
  }
}

/**
 * 503 Problem (`service-unavailable`) with `retry-after` for `QueueFullError`. An exception
 * handler rather than an `HTTPError`, because core's HTTP errors carry no response headers.
 */
export const queueFullHandler = defineExceptionHandler({
  exception: QueueFullError,
  returns: [ExceptionResponse.of(QueueFullProblem, { headers: RetryAfter })],
  handleException: (error) =>
    new ExceptionResponse({
      statusCode: 503,
      json: {
        type: 'service-unavailable' as const,
        title: 'Service unavailable',
        status: 503 as const,
        detail: 'The background queue is full. Retry after the number of seconds in retry-after.',
      },
      headers: { retryAfter: error.retryAfterSeconds },
    }),
});

/** Asks for a widget's search entry to be rebuilt in the background: 202, or 503 when the queue is full. */
export class ReindexEndpoint extends Endpoint('/widgets/{widget_id}/reindex') {
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
      if (!this.tasks.tryAdd(ReindexRequested, { widgetId: path.widget_id })) throw new QueueFullError(1);
      return new Accepted({ json: { widgetId: path.widget_id, queued: true as const } });
    },
  );
}
