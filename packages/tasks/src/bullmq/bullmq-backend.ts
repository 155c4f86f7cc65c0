import type { Job, Queue, Worker } from 'bullmq';
import * as v from 'valibot';
import { toErrorReason } from '@api/core/extension';
import { defineBackend } from '../queue/backend';
import { ABORT_GRACE_MS, settlesWithin, type Engine, type EngineContext } from '../queue/engine';
import { dispatch, Outcome, type Route } from '../queue/route';
import type { TaskBackend, TaskContext } from '../queue/types';

/** Where Redis is (handed to BullMQ, which connects with ioredis). */
export interface RedisConnection {
  /** Default `127.0.0.1`. */
  readonly host?: string | undefined;
  /** Default 6379. */
  readonly port?: number | undefined;
  readonly username?: string | undefined;
  readonly password?: string | undefined;
  /** Database index (default 0). */
  readonly db?: number | undefined;
  /** TLS options (as for `tls.connect`); set to use TLS. */
  readonly tls?: object | undefined;
}

/** Options of `bullmqBackend(...)`. */
export interface BullMQBackendOptions {
  /** Where Redis is. */
  readonly connection: RedisConnection;
  /** The BullMQ queue name (default `tasks`): processes that share it share the work. */
  readonly queueName?: string | undefined;
  /** Redis key prefix (BullMQ's default `bull`). */
  readonly prefix?: string | undefined;
  /** Take items in this process (default true). `false`: this process only adds. */
  readonly worker?: boolean | undefined;
  /**
   * Milliseconds a worker holds an item without renewing its lock (BullMQ `lockDuration`, default
   * 30 000). The item of a worker that died is handed to another one after this.
   */
  readonly lockDuration?: number | undefined;
  /** Milliseconds between checks for items of workers that died (BullMQ `stalledInterval`, default 30 000). */
  readonly stalledInterval?: number | undefined;
  /** Failed items kept in Redis for inspection (default 1000); completed ones are removed. */
  readonly keepFailed?: number | undefined;
  /** Milliseconds `start()` waits for Redis before it fails (default 10 000). */
  readonly connectTimeout?: number | undefined;
}

type BullMQModule = typeof import('bullmq');

interface Pending {
  readonly route: Route;
  readonly item: unknown;
  readonly resolve: () => void;
  readonly reject: (error: Error) => void;
}

interface Waiter {
  readonly route: Route;
  readonly item: unknown;
  readonly resolve: (written: Promise<void>) => void;
  readonly reject: (error: Error) => void;
}

/** Logs a repeating connection error at most once per 10 s per source. */
function throttled(
  log: (message: string, error: unknown) => void,
): (message: string, error: unknown) => void {
  let last = 0;
  return (message, error) => {
    const now = Date.now();
    if (now - last < 10_000) return;
    last = now;
    log(message, error);
  };
}

class BullMQEngine implements Engine {
  readonly crossesProcesses = true;
  readonly #ctx: EngineContext;
  readonly #options: BullMQBackendOptions;
  readonly #queueName: string;
  readonly #abort = new AbortController();
  #module: Promise<BullMQModule> | undefined;
  #queue: Promise<Queue> | undefined;
  #worker: Worker | undefined;
  #starting: Promise<void> | undefined;
  #closed = false;
  #draining = false;
  /** Adds taken and not yet acknowledged by Redis (what `maxsize` bounds). */
  #unacknowledged = 0;
  readonly #batch: Pending[] = [];
  #onWritten: (() => void) | undefined;
  readonly #jobOptions: { attempts: number; removeOnComplete: boolean; removeOnFail: { count: number } };
  readonly #waiters: Waiter[] = [];
  #inFlight = 0;
  #current: Route | undefined;

  constructor(ctx: EngineContext, options: BullMQBackendOptions) {
    this.#ctx = ctx;
    this.#options = options;
    this.#queueName = options.queueName ?? 'tasks';
    // No retries (a failure was logged and counted); completed items removed, failed ones kept.
    this.#jobOptions = {
      attempts: 1,
      removeOnComplete: true,
      removeOnFail: { count: options.keepFailed ?? 1000 },
    };
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Adds handed to Redis and not yet acknowledged, plus adds waiting for room. */
  queued(): number {
    return this.#unacknowledged + this.#waiters.length;
  }

  inFlight(): number {
    return this.#inFlight;
  }

  add(route: Route, item: unknown): Promise<void> {
    if (this.#unacknowledged < this.#ctx.maxsize && this.#waiters.length === 0)
      return this.#write(route, item);
    return new Promise<Promise<void>>((resolve, reject) => {
      this.#waiters.push({ route, item, resolve, reject });
    }).then((written) => written);
  }

  tryAdd(route: Route, item: unknown): boolean {
    if (this.#unacknowledged >= this.#ctx.maxsize || this.#waiters.length > 0) return false;
    this.#write(route, item).catch((error: unknown) => {
      this.#ctx.counters.dropped++;
      this.#ctx.log.error(
        `${this.#ctx.owner}: a ${route.label} item taken by tryAdd could not be written to Redis; it is lost`,
        error,
      );
    });
    return true;
  }

  /**
   * Queues one item for the next batch. Adds made in the same macrotask go to Redis together in
   * one `addBulk` (one transaction, one round trip); each add resolves when its batch is stored.
   */
  #write(route: Route, item: unknown): Promise<void> {
    this.#unacknowledged++;
    return new Promise<void>((resolve, reject) => {
      this.#batch.push({ route, item, resolve, reject });
      if (this.#batch.length === 1) setImmediate(this.#flush);
    });
  }

  readonly #flush = (): void => {
    const batch = this.#batch.splice(0);
    if (batch.length === 0) return;
    const jobs = batch.map((entry) => ({
      name: entry.route.name!,
      data: entry.item,
      opts: this.#jobOptions,
    }));
    this.#producer()
      .then((queue) => queue.addBulk(jobs))
      .then(
        () => {
          for (const entry of batch) entry.resolve();
        },
        (error: unknown) => {
          const failure = error instanceof Error ? error : new Error(String(error));
          for (const entry of batch) entry.reject(failure);
        },
      )
      .finally(() => {
        this.#unacknowledged -= batch.length;
        while (this.#waiters.length > 0 && this.#unacknowledged < this.#ctx.maxsize) {
          const next = this.#waiters.shift()!;
          next.resolve(this.#write(next.route, next.item));
        }
        if (this.#unacknowledged === 0) this.#onWritten?.();
      })
      .catch(() => undefined);
  };

  /** Resolves once every add handed to this process is acknowledged by Redis (or failed). */
  #allWritten(): Promise<void> {
    if (this.#unacknowledged === 0) return Promise.resolve();
    return new Promise((resolve) => (this.#onWritten = resolve));
  }

  #load(): Promise<BullMQModule> {
    this.#module ??= import('bullmq').catch((error: unknown) => {
      throw new Error(
        `${this.#ctx.owner}: the BullMQ backend needs the "bullmq" package (an optional peer dependency). Fix: pnpm add bullmq`,
        { cause: error },
      );
    });
    return this.#module;
  }

  #connection(): Record<string, unknown> {
    const c = this.#options.connection;
    return Object.fromEntries(Object.entries(c).filter(([, value]) => value !== undefined));
  }

  #producer(): Promise<Queue> {
    this.#queue ??= this.#load().then(({ Queue }) => {
      const queue = new Queue(this.#queueName, {
        connection: this.#connection(),
        ...(this.#options.prefix === undefined ? {} : { prefix: this.#options.prefix }),
      });
      const report = throttled((m, e) => this.#ctx.log.error(m, e));
      queue.on('error', (error: Error) =>
        report(`${this.#ctx.owner}: BullMQ queue "${this.#queueName}" error`, error),
      );
      return queue;
    });
    return this.#queue;
  }

  start(): Promise<void> {
    this.#starting ??= this.#start();
    return this.#starting;
  }

  async #start(): Promise<void> {
    this.#ctx.markStarted();
    if (this.#options.worker === false) return;
    const { Worker } = await this.#load();
    if (this.#closed) return;
    const worker = new Worker(this.#queueName, this.#process, {
      connection: this.#connection(),
      ...(this.#options.prefix === undefined ? {} : { prefix: this.#options.prefix }),
      concurrency: 1,
      ...(this.#options.lockDuration === undefined ? {} : { lockDuration: this.#options.lockDuration }),
      ...(this.#options.stalledInterval === undefined
        ? {}
        : { stalledInterval: this.#options.stalledInterval }),
    });
    const report = throttled((m, e) => this.#ctx.log.error(m, e));
    worker.on('error', (error: Error) =>
      report(`${this.#ctx.owner}: BullMQ worker "${this.#queueName}" error`, error),
    );
    this.#worker = worker;
    const timeout = this.#options.connectTimeout ?? 10_000;
    if (!(await settlesWithin(worker.waitUntilReady(), timeout))) {
      await worker.close(true).catch(() => undefined);
      throw new Error(
        `${this.#ctx.owner}: Redis did not answer within ${timeout} ms (queue "${this.#queueName}"). Fix: check the connection options and that Redis runs`,
      );
    }
    await worker.waitUntilReady();
  }

  // Three declared parameters: BullMQ passes the job's AbortSignal only to processors that take one.
  readonly #process = async (job: Job, _token?: string, signal?: AbortSignal): Promise<void> => {
    const ctx = this.#ctx;
    const route = ctx.routeByName(job.name);
    if (route === undefined || route.handlers.length === 0) {
      ctx.counters.dropped++;
      if (!route || !route.unhandledLogged) {
        if (route) route.unhandledLogged = true;
        ctx.log.error(
          `${ctx.owner}: no handler is registered for ${job.name} in this process; the item is dropped (marked failed in Redis). Fix: every process that shares queue "${this.#queueName}" registers the same handlers`,
        );
      }
      throw new Error(`no handler registered for ${job.name}`);
    }
    const parsed = v.safeParse(route.schema, job.data);
    if (!parsed.success) {
      ctx.counters.dropped++;
      const { reason } = toErrorReason('json', parsed.issues);
      ctx.log.error(
        `${ctx.owner}: a ${route.label} item from Redis fails its schema (${reason}); it is dropped (marked failed in Redis)`,
      );
      throw new Error(`${route.label}: ${reason}`);
    }
    const context: TaskContext = { signal: signal ?? this.#abort.signal };
    this.#inFlight = 1;
    this.#current = route;
    try {
      const outcome = await dispatch(ctx.owner, route, parsed.output, context, ctx.log);
      if (outcome === Outcome.Ok) ctx.counters.processed++;
      else if (outcome === Outcome.Failed) ctx.counters.failed++;
      else ctx.counters.dropped++;
      // A failed item is marked failed in Redis (kept for inspection); the failure was logged.
      if (outcome !== Outcome.Ok) throw new Error(`${route.label}: a handler failed (see the log)`);
    } finally {
      this.#inFlight = 0;
      this.#current = undefined;
    }
  };

  async shutdown(deadlineMs: number, deadlineLabel: string): Promise<void> {
    if (this.#draining) throw new Error('shutdown() runs once');
    this.#draining = true;
    const started = performance.now();
    const ctx = this.#ctx;
    // A start() under way finishes first, so that its worker is closed too.
    if (this.#starting) await this.#starting.catch(() => undefined);
    const worker = this.#worker;
    let aborted: string | undefined;
    let abandoned = false;
    if (worker) {
      // Graceful: stop taking items, let the one in flight finish, close the connections.
      const closing = worker
        .close()
        .catch((error: unknown) => ctx.log.error(`${ctx.owner}: closing the BullMQ worker failed`, error));
      if (!(deadlineMs > 0 && (await settlesWithin(closing, deadlineMs)))) {
        aborted = this.#current?.label;
        const reason = new Error(`${ctx.owner}: ${deadlineLabel} reached`);
        worker.cancelAllJobs(reason.message);
        this.#abort.abort(reason);
        if (!(await settlesWithin(closing, ABORT_GRACE_MS))) {
          abandoned = this.#inFlight > 0;
          await settlesWithin(worker.disconnect(), ABORT_GRACE_MS);
        }
      }
    }
    // Adds already handed to Redis get what is left of the deadline (at least the grace).
    const left = Math.max(ABORT_GRACE_MS, deadlineMs - (performance.now() - started));
    const unwritten = !(await settlesWithin(this.#allWritten(), left));
    this.#closed = true;
    const refused = this.#waiters.splice(0);
    for (const waiter of refused) waiter.reject(ctx.closedError(waiter.route));
    if (this.#queue) {
      const queue = await this.#queue.catch(() => undefined);
      if (queue && !(await settlesWithin(queue.close(), 2_000)))
        await settlesWithin(queue.disconnect(), ABORT_GRACE_MS);
    }
    if (aborted !== undefined || unwritten || refused.length > 0) {
      const inFlight =
        aborted === undefined
          ? 'none in flight'
          : abandoned
            ? `1 in flight (${aborted}) did not stop within the grace after its signal fired; BullMQ hands it to another worker once its lock expires`
            : `1 in flight (${aborted}) was aborted and returned`;
      const extra = `${unwritten ? '; some adds were not acknowledged by Redis' : ''}${refused.length > 0 ? `; ${refused.length} waiting add(s) rejected` : ''}`;
      ctx.log.warn(
        `${ctx.owner}: ${deadlineLabel} reached before the BullMQ worker stopped: queued 0, dropped 0 (items not taken stay in Redis; ${inFlight}${extra})`,
      );
    }
  }
}

/**
 * The BullMQ backend: items wait in Redis, so they survive a restart, and every process that uses
 * the same queue name shares the work; each item is taken by one worker. Each process runs one
 * serial worker (concurrency 1). `bullmq` is imported only when this backend starts, so users of the
 * in-process queue never need it. Items travel as JSON and are validated again by the worker;
 * schemas are matched by `Struct` name. If a worker dies mid-item, BullMQ hands the item to another
 * worker once its lock expires (at least once, not exactly once, in that case).
 *
 * @param options - `connection` (required), `queueName` (`tasks`), `prefix`, `worker` (true),
 *   `lockDuration`, `stalledInterval`, `keepFailed` (1000), `connectTimeout` (10 s).
 * @example
 * const tasks = new BackgroundTasks({ backend: bullmqBackend({ connection: { host: 'redis', port: 6379 } }) });
 */
export function bullmqBackend(options: BullMQBackendOptions): TaskBackend {
  return defineBackend('bullmq', (ctx) => new BullMQEngine(ctx, options));
}
