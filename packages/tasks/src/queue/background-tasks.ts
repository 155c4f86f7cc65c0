import * as v from 'valibot';
import { isStandardSchema, wiringError, type SchemaInput, type SchemaOutput } from '@api/core/extension';
import { createEngine } from './backend';
import type { Counters, Engine, EngineContext } from './engine';
import { TasksClosedError } from './errors';
import { inProcessBackend } from './in-process';
import { checkAddOptions, checkRegistrationOptions, sameRetry } from './retry';
import { carryContext, toWire } from './carry';
import { admitted, checkItem, newRoute, refusal, type Route } from './route';
import { checkOptions, checkPropagator, consoleLog, isSchema, labelOf, OWNER } from './checks';
import type {
  BackgroundTasksOptions,
  TaskAddOptions,
  TaskContextPropagator,
  TaskHandler,
  TaskRegistrationOptions,
  TaskSchema,
  TaskStats,
} from './types';

/**
 * A typed background queue with one serial worker that drains before teardown.
 *
 * Register one handler per item schema, then `add` items from anywhere (request handlers,
 * other tasks). Items are validated against their schema at `add`; the worker dispatches each one
 * by schema identity, in FIFO order; a failing handler is logged and the worker goes on.
 * `close()` drains — waits until nothing is queued or in flight, follow-up items included — up to
 * `drainTimeout`, then stops. Inside an app use `backgroundTasks()`; on its own (a factory, a
 * script) construct it and `close()` it (it is `AsyncDisposable`).
 *
 * @example
 * const WidgetEvent = Struct('WidgetEvent', { action: v.picklist(['created', 'deleted']), widgetId: v.string() });
 * await using tasks = new BackgroundTasks({ drainTimeout: 1 });
 * tasks.register(WidgetEvent, async (event, { signal }) => { await reindex(event.widgetId, { signal }); });
 * await tasks.add(WidgetEvent, { action: 'created', widgetId: 'w1' });
 */
export class BackgroundTasks implements AsyncDisposable {
  readonly #routes = new Map<TaskSchema, Route>();
  readonly #byName = new Map<string, Route>();
  readonly #counters: Counters = { processed: 0, failed: 0, interrupted: 0, dropped: 0 };
  readonly #engine: Engine;
  readonly #allowOneToMany: boolean;
  readonly #drainMs: number;
  readonly #drainLabel: string;
  readonly #backend: string;
  readonly #propagator: TaskContextPropagator | undefined;
  #started = false;
  #closing: Promise<void> | undefined;

  /**
   * @param options - `maxsize` (1024), `drainTimeout` (30 s; 0/null: do not wait),
   *   `allowOneToMany` (false), `logger` (console), `backend` (in process).
   */
  constructor(options: BackgroundTasksOptions = {}) {
    const { maxsize, drainMs } = checkOptions(options);
    this.#allowOneToMany = options.allowOneToMany ?? false;
    this.#drainMs = drainMs;
    this.#drainLabel =
      drainMs > 0
        ? `the task drain deadline (drainTimeout ${drainMs / 1000} s; not the HTTP shutdown cap)`
        : 'drainTimeout 0 (the task drain does not wait)';
    const backend = options.backend ?? inProcessBackend();
    this.#backend = backend.kind;
    const log = options.logger ?? consoleLog;
    this.#propagator = checkPropagator(options.propagator);
    const context: EngineContext = {
      owner: OWNER,
      log,
      maxsize,
      counters: this.#counters,
      routeByName: (name) => this.#byName.get(name),
      markStarted: () => {
        this.#started = true;
      },
      closedError: (route) => this.#closedError(`${OWNER}.add(${route.label})`),
      propagator: this.#propagator,
    };
    this.#engine = createEngine(backend, context);
  }

  /** `in-process` or `bullmq`. */
  get backend(): string {
    return this.#backend;
  }

  /**
   * Registers the handler for items of `schema` (dispatch is by schema identity; with the BullMQ
   * backend by `Struct` name). Register while wiring: once the worker has started, `register`
   * throws, because items already taken would have missed the handler. A second handler for one
   * schema is a `WiringError` unless the queue allows one-to-many (`allowOneToMany: true`); then
   * handlers run in registration order, each isolated.
   *
   * With the BullMQ backend, `options` sets how a failed item is retried (`attempts`, `backoff`:
   * BullMQ's own job options, set on each item when it is added — so register the same options in
   * every process that adds or runs the schema). The in-process backend refuses them.
   *
   * @param schema - The item schema (a `Struct`; any synchronous valibot schema in process), or a
   *   Standard Schema (zod, ArkType; named with `named()` for BullMQ).
   * @param handler - `(item, { signal }) => void | Promise<void>`; `item` is the schema's output.
   * @param options - `attempts` (runs in all, default 1) and `backoff` (the wait before a retry); BullMQ only.
   * @example
   * tasks.register(WidgetEvent, (event) => recorder.record(`${event.action}:${event.widgetId}`));
   * tasks.register(Reindex, reindex, { attempts: 3, backoff: { type: 'exponential', delay: 1_000 } }); // BullMQ
   */
  register<TSchema extends TaskSchema>(
    schema: TSchema,
    handler: TaskHandler<SchemaOutput<TSchema>>,
    options?: TaskRegistrationOptions,
  ): this {
    const label = labelOf(schema);
    const where = `${OWNER}.register(${label})`;
    if (!isSchema(schema))
      throw wiringError(
        'API_WIRING_NOT_A_SCHEMA',
        where,
        'the first argument is not a schema (valibot, or a Standard Schema such as zod or ArkType)',
        "pass the item's Struct (or its zod / ArkType schema)",
      );
    if (!isStandardSchema(schema) && (schema as { async?: unknown }).async === true)
      throw wiringError(
        'API_WIRING_NOT_A_SCHEMA',
        where,
        'the schema is asynchronous',
        'use a synchronous schema (items are validated synchronously at add/tryAdd)',
      );
    if (typeof handler !== 'function')
      throw wiringError(
        'API_WIRING_INVALID_ARGUMENT',
        where,
        'the handler is not a function',
        'pass (item, { signal }) => …',
      );
    if (this.#closing)
      throw wiringError(
        'API_WIRING_APP_STATE',
        where,
        'the queue is shutting down',
        'register handlers while wiring',
      );
    if (this.#started)
      throw wiringError(
        'API_WIRING_APP_STATE',
        where,
        'the worker has already started, so items taken before this call would have missed the handler',
        'register every handler while wiring (in wire(), before the app serves), before the first item is processed',
      );
    const retry = checkRegistrationOptions(where, options, this.#engine.retriesAndDelays, this.#backend);
    let route = this.#routes.get(schema);
    if (route && route.handlers.length > 0 && !this.#allowOneToMany)
      throw wiringError(
        'API_WIRING_DUPLICATE',
        where,
        `${label} already has a handler`,
        'keep one handler per schema, or construct the queue with { allowOneToMany: true } to run several in registration order',
      );
    // The retry policy belongs to the item (one BullMQ job runs every handler): given once.
    if (route?.retry !== undefined && retry !== undefined && !sameRetry(route.retry, retry))
      throw wiringError(
        'API_WIRING_TASKS_RETRY',
        where,
        `${label} is already registered with other retry options (attempts ${route.retry.attempts}); they apply to the item, which runs all its handlers together`,
        `give attempts/backoff on one registration of ${label} only, or the same on each`,
      );
    if (!route) {
      route = newRoute(schema);
      if (this.#engine.crossesProcesses) {
        if (route.name === undefined)
          throw wiringError(
            'API_WIRING_TASKS_SCHEMA_NAME',
            where,
            `the ${this.#backend} backend dispatches by schema name across processes, and this schema has none`,
            "declare the item with Struct('Name', { … }), or name a zod / ArkType schema with named('Name', schema)",
          );
        if (this.#byName.has(route.name))
          throw wiringError(
            'API_WIRING_DUPLICATE',
            where,
            `two different schemas are named ${route.name}; across processes items are dispatched by name`,
            'give each item Struct its own name',
          );
      }
      this.#routes.set(schema, route);
      if (route.name !== undefined && !this.#byName.has(route.name)) this.#byName.set(route.name, route);
    }
    route.handlers.push(handler as TaskHandler<unknown>);
    if (retry !== undefined) route.retry = retry;
    return this;
  }

  /**
   * Validates `item` against `schema` and enqueues it. Resolves at once (same macrotask) when there
   * is room; waits while the queue is full. Rejects with `TaskItemError` naming the field when the
   * schema refuses the item (nothing is enqueued), and with `TasksClosedError` once the queue has
   * shut down. With the BullMQ backend it resolves when Redis has the item. A Standard Schema
   * (zod, ArkType) whose validation is asynchronous (an async refinement) is awaited first.
   *
   * Inside a handler, do not `await add` on the same queue when it may be full: the one worker is
   * busy running that handler, so the room never comes (until the drain deadline rejects the add).
   * Use `tryAdd`, or `add(…).catch(…)` without awaiting.
   *
   * `{ delay }` (milliseconds) holds the item in BullMQ's delayed set until then; the in-process
   * backend rejects a delay with a `TypeError` (nothing is enqueued).
   *
   * @param schema - The item schema it was registered with.
   * @param item - The item (the schema's input type).
   * @param options - `delay` in milliseconds (BullMQ only).
   * @example
   * await this.tasks.add(WidgetEvent, { action: 'created', widgetId: widget.id });
   * await this.tasks.add(Reminder, { userId }, { delay: 60_000 }); // BullMQ: runs in a minute
   */
  add<TSchema extends TaskSchema>(
    schema: TSchema,
    item: SchemaInput<TSchema>,
    options?: TaskAddOptions,
  ): Promise<void> {
    const engine = this.#engine;
    const route = this.#routes.get(schema);
    if (
      options === undefined &&
      route !== undefined &&
      route.standard === undefined &&
      !engine.closed &&
      !engine.crossesProcesses
    ) {
      // The hot path: a registered schema, in process, queue open, no options.
      const result = v.safeParse(schema as v.GenericSchema, item);
      if (!result.success)
        return Promise.reject(refusal(`${OWNER}.add(${route.label})`, route, result.issues));
      if (this.#propagator === undefined) return engine.add(route, result.output);
      try {
        return engine.add(route, this.#carry(result.output, `${OWNER}.add(${route.label})`));
      } catch (error) {
        return Promise.reject(error instanceof Error ? error : new Error(String(error)));
      }
    }
    try {
      const where = `${OWNER}.add(${labelOf(schema)})`;
      const delay = checkAddOptions(where, options, engine.retriesAndDelays, this.#backend);
      const [found, accepted] = this.#admit(schema, item, where, route);
      if (accepted instanceof Promise) return accepted.then((ready) => engine.add(found, ready, delay));
      return engine.add(found, accepted, delay);
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }

  /**
   * Enqueues `item` if there is room now: `true` when taken, `false` when the queue is full (map
   * that to 503 + `retry-after`). Throws `TaskItemError` for an item the schema refuses and
   * `TasksClosedError` once the queue has shut down. An item whose Standard Schema validates
   * asynchronously (an async refinement) cannot be taken synchronously: a `TypeError` (use `add`).
   *
   * @param schema - The item schema.
   * @param item - The item.
   * @param options - `delay` in milliseconds (BullMQ only; in process a `TypeError`).
   * @example
   * if (!this.tasks.tryAdd(Reindex, { widgetId })) throw new ServiceUnavailableError().withHeaders({ 'retry-after': '1' });
   */
  tryAdd<TSchema extends TaskSchema>(
    schema: TSchema,
    item: SchemaInput<TSchema>,
    options?: TaskAddOptions,
  ): boolean {
    const where = `${OWNER}.tryAdd(${labelOf(schema)})`;
    const delay =
      options === undefined
        ? 0
        : checkAddOptions(where, options, this.#engine.retriesAndDelays, this.#backend);
    const [route, accepted] = this.#admit(schema, item, where, this.#routes.get(schema));
    if (accepted instanceof Promise) {
      // Its outcome does not matter: this add is refused either way.
      accepted.catch(() => undefined);
      throw new TypeError(
        `${where}: the schema validates asynchronously, so the item cannot be taken synchronously; nothing was enqueued. Fix: use add(), which awaits the validation`,
      );
    }
    return this.#engine.tryAdd(route, accepted, delay);
  }

  /**
   * Counters of this queue in this process: `queued`, `inFlight`, `processed`, `failed`,
   * `interrupted`, `dropped`.
   */
  stats(): TaskStats {
    const c = this.#counters;
    return {
      queued: this.#engine.queued(),
      inFlight: this.#engine.inFlight(),
      processed: c.processed,
      failed: c.failed,
      interrupted: c.interrupted,
      dropped: c.dropped,
    };
  }

  /**
   * Starts the worker. In process it starts by itself with the first item; the BullMQ backend
   * starts consuming here (the `backgroundTasks()` extension calls it when wiring finishes).
   * Registration closes once the worker has started.
   */
  start(): Promise<void> {
    if (this.#closing) return Promise.reject(this.#closedError(`${OWNER}.start()`));
    return this.#engine.start();
  }

  /**
   * Drains, then stops: waits until nothing is queued or in flight — items handlers add meanwhile
   * included — for at most `drainTimeout` seconds; on the deadline the in-flight handler's `signal`
   * fires, it gets a 100 ms grace, the rest is dropped and one WARN line gives the queued,
   * dropped and interrupted counts. Adds are refused once it finished. Idempotent; never rejects
   * for a handler's failure.
   */
  close(): Promise<void> {
    this.#closing ??= this.#engine.shutdown(this.#drainMs, this.#drainLabel);
    return this.#closing;
  }

  /** `await using tasks = new BackgroundTasks()` closes (drains) at the end of the scope. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  /**
   * The checks before an item enters the engine: open queue, known or new route, valid item (in
   * its JSON form when it crosses processes). Returns the route and what the engine takes: a
   * promise of it only for a Standard Schema that validates asynchronously.
   */
  #admit(schema: TaskSchema, item: unknown, where: string, known: Route | undefined): [Route, unknown] {
    const engine = this.#engine;
    if (engine.closed) throw this.#closedError(where);
    const route = known ?? this.#routeForAdd(schema, where);
    if (route.standard !== undefined) return [route, this.#admitStandard(route, item, where)];
    if (engine.crossesProcesses) {
      const wire = toWire(item, where, route.label);
      const result = v.safeParse(schema as v.GenericSchema, wire);
      if (!result.success) throw refusal(where, route, result.issues);
      return [route, this.#propagator === undefined ? wire : this.#carry(wire, where)];
    }
    const result = v.safeParse(schema as v.GenericSchema, item);
    if (!result.success) throw refusal(where, route, result.issues);
    return [route, this.#propagator === undefined ? result.output : this.#carry(result.output, where)];
  }

  /**
   * A Standard Schema's item (zod, ArkType): validated in its JSON form when it crosses processes
   * (the JSON form is enqueued, as for valibot), else its output is. A promise when `validate`
   * answers one (the propagator's context is captured once it settles).
   */
  #admitStandard(route: Route, item: unknown, where: string): unknown {
    const crosses = this.#engine.crossesProcesses;
    const value = crosses ? toWire(item, where, route.label) : item;
    const finish = (output: unknown): unknown => {
      const ready = crosses ? value : output;
      return this.#propagator === undefined ? ready : this.#carry(ready, where);
    };
    const checked = checkItem(route, value);
    return checked instanceof Promise
      ? checked.then((c) => finish(admitted(where, route, c)))
      : finish(admitted(where, route, checked));
  }

  /** The item with the propagator's context (see `carryContext`). */
  #carry(item: unknown, where: string): unknown {
    return carryContext(item, {
      where,
      propagator: this.#propagator!,
      crosses: this.#engine.crossesProcesses,
    });
  }

  #routeForAdd(schema: TaskSchema, where: string): Route {
    if (!isSchema(schema))
      throw new TypeError(
        `${where}: the first argument is not a schema (valibot, or a Standard Schema such as zod or ArkType). Fix: pass the item's Struct (or its zod / ArkType schema).`,
      );
    const route = newRoute(schema);
    if (this.#engine.crossesProcesses) {
      if (route.name === undefined)
        throw new TypeError(
          `${where}: the ${this.#backend} backend needs a named schema. Fix: declare the item with Struct('Name', { … }), or name a zod / ArkType schema with named('Name', schema).`,
        );
      const named = this.#byName.get(route.name);
      if (named && named.schema !== schema)
        throw new TypeError(
          `${where}: another schema is registered as ${route.name}. Fix: give each item Struct its own name.`,
        );
      // A producer-only process need not register handlers: the route exists for the name.
      if (!named) this.#byName.set(route.name, route);
    }
    this.#routes.set(schema, route);
    return route;
  }

  #closedError(where: string): TasksClosedError {
    return new TasksClosedError(
      `${where}: the queue has shut down (its drain finished or its deadline passed); nothing was enqueued. Fix: enqueue while the app is serving; during shutdown only the drain's own handlers may add follow-ups`,
    );
  }
}
