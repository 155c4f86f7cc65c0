/** One failing field of a refused item: where, and what was expected (never the value). */
export interface ReasonIssue {
  readonly path: string;
  readonly message: string;
}

/**
 * `add` / `tryAdd` got an item its schema refuses. Nothing was enqueued. The message names the
 * schema and the first failing field (never the submitted value).
 *
 * @example
 * await tasks.add(WidgetEvent, { action: 'created', widgetId: 7 as never });
 * // TaskItemError: BackgroundTasks.add(WidgetEvent): Expected string, got number at `$.widgetId`; nothing was enqueued
 */
export class TaskItemError extends TypeError {
  override readonly name = 'TaskItemError';
  /** The schema's name (`Struct` name, or `anonymous schema`). */
  readonly schema: string;
  /** Every failing field, as `{ path, message }`. */
  readonly issues: readonly ReasonIssue[];

  /**
   * @param where - `BackgroundTasks.add(Name)`.
   * @param schema - The schema's name.
   * @param reason - The first failure, e.g. ``Expected string, got number at `$.widgetId` ``.
   * @param issues - Every failure.
   */
  constructor(where: string, schema: string, reason: string, issues: readonly ReasonIssue[]) {
    super(`${where}: ${reason}; nothing was enqueued`);
    this.schema = schema;
    this.issues = issues;
  }
}

/**
 * `add` / `tryAdd` after the queue shut down (its drain finished or its deadline passed), or an
 * `add` that was still waiting for room when the drain deadline dropped the queue.
 *
 * @example
 * await tasks.close();
 * await tasks.add(WidgetEvent, event); // rejects with TasksClosedError
 */
export class TasksClosedError extends Error {
  override readonly name = 'TasksClosedError';
}
