import { Accepted, defineExceptionHandler, Endpoint, ExceptionResponse } from '@api/core';
import type { BackgroundTasks } from '@api/tasks';
import { QueueFullError } from '../errors';
import { QueueFullProblem, ReindexAccepted, ReindexRequested, RetryAfter, WidgetPath } from '../models';
import { widgetsTag } from './widgets';

const QUEUE_FULL_DETAIL = 'The background queue is full. Retry after the number of seconds in retry-after.';

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
        detail: QUEUE_FULL_DETAIL,
      },
      headers: { retryAfter: error.retryAfterSeconds },
    }),
});

/** POST /widgets/{widget_id}/reindex: rebuild a widget's search entry in the background (202), or 503 when the queue is full. */
export class ReindexEndpoint extends Endpoint('/widgets/{widget_id}/reindex', {
  meta: {
    tags: [widgetsTag],
    // The 503 comes from an exception handler, which the route catalogue does not show: documented here.
    responses: {
      503: {
        model: QueueFullProblem,
        contentType: 'application/json',
        description: 'The background queue is full (see retry-after)',
      },
    },
  },
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
      if (!this.tasks.tryAdd(ReindexRequested, { widgetId: path.widget_id })) throw new QueueFullError(1);
      return new Accepted({ json: { widgetId: path.widget_id, queued: true as const } });
    },
  );
}
