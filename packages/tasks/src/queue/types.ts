import type * as v from 'valibot';
import type { Logger } from '@api/core/extension';

/** A schema a task item is validated against: any synchronous valibot schema (usually a `Struct`). */
export type TaskSchema = v.GenericSchema;

/** What a handler gets beside the item. One object per queue: do not keep it past the call. */
export interface TaskContext {
  /**
   * Fires when the drain deadline (`drainTimeout`) passes while this handler is still running:
   * stop, clean up, return. The queue waits a short grace (100 ms) for that, then moves on.
   */
  readonly signal: AbortSignal;
}

/**
 * A handler for one item type: its `item` is the schema's output (validated, transformed).
 * A thrown error or rejected promise is logged with the schema name; the worker goes on.
 */
export type TaskHandler<TItem> = (item: TItem, context: TaskContext) => unknown;

/** Counters of one queue (this process). See `BackgroundTasks.stats()`. */
export interface TaskStats {
  /** Items accepted and waiting for the worker (adds still waiting for room are not counted). */
  readonly queued: number;
  /** Items a handler is working on right now: 0 or 1 (one serial worker). */
  readonly inFlight: number;
  /** Items whose every handler returned (or resolved) without error. */
  readonly processed: number;
  /** Items where at least one handler threw or rejected (the others still ran). */
  readonly failed: number;
  /**
   * Items accepted but never fully handled: left in the queue or abandoned in flight at the drain
   * deadline, or enqueued for a schema nobody registered.
   */
  readonly dropped: number;
}

/**
 * Where items wait and who runs them. The default is in process; `bullmqBackend(...)` puts them
 * on Redis through BullMQ.
 */
export interface TaskBackend {
  /** `in-process` or `bullmq`. */
  readonly kind: string;
}

/** Options of `new BackgroundTasks(options)` and `backgroundTasks(options)`. */
export interface BackgroundTasksOptions {
  /**
   * Most items held at once (default 1024). When full, `add` waits for room and `tryAdd` returns
   * false. With the BullMQ backend it bounds the writes to Redis not yet acknowledged.
   */
  readonly maxsize?: number | undefined;
  /**
   * Seconds the shutdown drain may take (default 30). When it passes, the in-flight handler's
   * `signal` fires and what is left is dropped, with one WARN line. `0` or `null`: do not wait.
   */
  readonly drainTimeout?: number | null | undefined;
  /** Allow several handlers per schema, run in registration order, each isolated (default false). */
  readonly allowOneToMany?: boolean | undefined;
  /** Where failures and the drain warning go (default: the app's logger inside an app, else console). */
  readonly logger?: Logger | undefined;
  /** Where items wait (default in process). */
  readonly backend?: TaskBackend | undefined;
}
