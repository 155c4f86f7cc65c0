import type * as v from 'valibot';
import type { Logger, StandardSchemaV1 } from '@api/core/extension';

/**
 * A schema a task item is validated against: any synchronous valibot schema (usually a `Struct`),
 * or a Standard Schema v1 (zod 4, ArkType 2; async refinements allowed, named with `named()` for
 * the BullMQ backend).
 */
export type TaskSchema = v.GenericSchema | StandardSchemaV1;

/** What a handler gets beside the item. One object per queue: do not keep it past the call. */
export interface TaskContext {
  /**
   * Fires when the drain deadline (`drainTimeout`) passes while this handler is still running:
   * stop, clean up, return (or throw). The queue waits a short grace (100 ms) for that, then moves
   * on. An item whose signal fired is counted `interrupted`, never `processed` or `failed`: with the
   * BullMQ backend it goes back to the wait list, and the next worker runs it again from the start.
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
  /**
   * Runs where at least one handler threw or rejected (the others still ran). With BullMQ and
   * `attempts`, each failed attempt run here counts once.
   */
  readonly failed: number;
  /**
   * Items in flight when the drain deadline fired their signal, not completed here. In process:
   * the handler stopped within the grace (returned or threw); the item is not run again. With
   * BullMQ: every such item goes back to Redis for the next worker — at once when its handler
   * stopped, once its lock expires when it did not. Logged in the drain's one WARN line, never as
   * a handler failure.
   */
  readonly interrupted: number;
  /**
   * Items accepted but never fully handled: left in the queue, or (in process) abandoned in
   * flight by a handler that ignored its signal, at the drain deadline; or enqueued for a schema
   * nobody registered.
   */
  readonly dropped: number;
}

/**
 * The wait before each retry of a failed item: milliseconds (the same wait every time), or
 * `{ type: 'fixed' | 'exponential', delay, jitter }` (exponential: `delay · 2^(retry − 1)`;
 * `jitter` 0–1 randomises that share of the wait). BullMQ's own backoff.
 */
export type TaskBackoff =
  | number
  | {
      readonly type: 'fixed' | 'exponential';
      /** Milliseconds. */
      readonly delay: number;
      /** 0–1 (default 0). */
      readonly jitter?: number | undefined;
    };

/**
 * Options of `register(schema, handler, options)`: what happens to an item of this schema whose
 * handler fails. BullMQ backend only (its native job options, set on every item when it is
 * added); the in-process backend refuses them with a `WiringError`.
 */
export interface TaskRegistrationOptions {
  /** Runs of an item in all, the first included (default 1: a failure is final). */
  readonly attempts?: number | undefined;
  /** The wait before each retry (default: none, retried at once). Needs `attempts` ≥ 2. */
  readonly backoff?: TaskBackoff | undefined;
}

/** Options of `add(schema, item, options)` and `tryAdd(…)`. */
export interface TaskAddOptions {
  /**
   * Milliseconds before the item may run (BullMQ's delayed set). BullMQ backend only: the
   * in-process backend refuses a delay with a `TypeError`.
   */
  readonly delay?: number | undefined;
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
  /**
   * Carries a context (a trace's, a tenant's, …) from where an item is added to where its
   * handlers run — in this process, or on BullMQ in another one. `@api/otel`'s `taskContext()`
   * is one: the handler's span is linked to the request that enqueued the item.
   */
  readonly propagator?: TaskContextPropagator | undefined;
}

/**
 * A context carried with each item: `capture()` at `add`/`tryAdd` returns a small map of strings
 * (at most 16 entries; names of letters, digits, `-`, `_`, `.`, at most 64 characters; printable
 * ASCII values of at most 8 KiB), which travels with the item (in the job's data on BullMQ) and is
 * validated again by the worker; `restore(carried, task, run)` runs the item's handlers inside it.
 * A map that fails validation at `add` makes the add fail; one that fails in the worker is dropped
 * with one WARN line per schema and the handlers run without it (like a malformed `traceparent`,
 * which starts a new trace).
 */
export interface TaskContextPropagator {
  /** The context to carry with an item added now, or undefined for none. */
  capture(): Readonly<Record<string, string>> | undefined;
  /**
   * Runs `run` (the item's handlers) inside the carried context (`undefined` when none was carried
   * or it was refused) and returns what it returns: how the item ended, at once or as a promise.
   * Call `run` exactly once; a throw before it is logged and the handlers run without the context.
   */
  restore(
    carried: Readonly<Record<string, string>> | undefined,
    task: TaskRun,
    run: () => TaskOutcome | Promise<TaskOutcome>,
  ): TaskOutcome | Promise<TaskOutcome>;
}

/** The item a propagator's `restore` runs. */
export interface TaskRun {
  /** The schema's `Struct` name (or `anonymous schema`). */
  readonly name: string;
  /** `in-process` or `bullmq`. */
  readonly backend: string;
  /** The BullMQ queue name (undefined in process). */
  readonly queue: string | undefined;
  /** This run of the item: 1 for the first (BullMQ retries count up). */
  readonly attempt: number;
}

/**
 * How one run of an item ended: every handler returned (`processed`), at least one failed
 * (`failed`), the drain deadline stopped it (`interrupted`), or no handler took it (`dropped`).
 */
export type TaskOutcome = 'processed' | 'failed' | 'interrupted' | 'dropped';
