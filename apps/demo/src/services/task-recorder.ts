import type { Logger } from '@api/core';
import type { TaskContext } from '@api/tasks';
import type { WidgetEvent } from '../models';

/** How many processed items a recorder without a caller's array keeps. */
const KEEP = 1000;

/**
 * The demo's background handlers: records every processed item as `<action>:<widgetId>` (tests
 * read `events`). In a real service these would call a search index or a webhook; the signal
 * tells them when the shutdown drain deadline has passed.
 */
export class TaskRecorder {
  /**
   * Processed items, in processing order. Pass your own array to read it from a test; without one
   * only the last `KEEP` items are kept, so a long-running demo does not grow without bound.
   */
  readonly events: string[];
  readonly #bounded: boolean;
  readonly #reindexDelayMs: number;
  readonly #log: Logger | undefined;

  /**
   * @param options - `events` (the array to record into), `reindexDelayMs` (simulated work per
   *   reindex, default 0; tests raise it to fill the queue), `log` (one info line per item).
   */
  constructor(
    options: {
      events?: string[] | undefined;
      reindexDelayMs?: number | undefined;
      log?: Logger | undefined;
    } = {},
  ) {
    this.events = options.events ?? [];
    this.#bounded = options.events === undefined;
    this.#reindexDelayMs = options.reindexDelayMs ?? 0;
    this.#log = options.log;
  }

  #record(line: string): void {
    this.events.push(line);
    if (this.#bounded && this.events.length > KEEP) this.events.shift();
    this.#log?.info(`background task done: ${line}`);
  }

  /** Handler for `WidgetEvent`. */
  readonly widgetEvent = (event: WidgetEvent): void => {
    this.#record(`${event.action}:${event.widgetId}`);
  };

  /** Handler for `ReindexRequested`: pretends to rebuild a search entry. */
  readonly reindex = async (request: { widgetId: string }, { signal }: TaskContext): Promise<void> => {
    if (this.#reindexDelayMs > 0) await abortableDelay(this.#reindexDelayMs, signal);
    this.#record(`reindexed:${request.widgetId}`);
  };
}

function abortableDelay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason as Error);
      },
      { once: true },
    );
  });
}
