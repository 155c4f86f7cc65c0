import type { Job, JobsOptions, Queue, Worker } from 'bullmq';
import { defineBackend } from '../queue/backend';
import { ABORT_GRACE_MS, settlesWithin, type Engine, type EngineContext } from '../queue/engine';
import { runWithin } from '../queue/context';
import { checkItem, dispatch, Outcome, type RetryPolicy, type Route } from '../queue/route';
import type { TaskBackend, TaskContext } from '../queue/types';
import { bullBackoff, CLOSE_MS, throttled, type BullMQBackendOptions } from './bullmq-options';
import { checkRetry, splitCarried } from './job-checks';

type BullMQModule = typeof import('bullmq');

interface Pending {
  readonly route: Route;
  readonly item: unknown;
  /** Milliseconds (0: none). */
  readonly delay: number;
  readonly resolve: () => void;
  readonly reject: (error: Error) => void;
}

interface Waiter {
  readonly route: Route;
  readonly item: unknown;
  readonly delay: number;
  readonly resolve: (written: Promise<void>) => void;
  readonly reject: (error: Error) => void;
}

class BullMQEngine implements Engine {
  readonly crossesProcesses = true;
  readonly retriesAndDelays = true;
  readonly #ctx: EngineContext;
  readonly #options: BullMQBackendOptions;
  readonly #queueName: string;
  readonly #abort = new AbortController();
  #module: Promise<BullMQModule> | undefined;
  /** The loaded module (set by start(): the worker's processor needs its error classes). */
  #bull: BullMQModule | undefined;
  #queue: Promise<Queue> | undefined;
  #worker: Worker | undefined;
  #starting: Promise<void> | undefined;
  #closed = false;
  #draining = false;
  /** Adds taken and not yet acknowledged by Redis (what `maxsize` bounds). */
  #unacknowledged = 0;
  readonly #batch: Pending[] = [];
  #onWritten: (() => void) | undefined;
  /** The job options of an item without retries or delay (shared by every such add). */
  readonly #jobOptions: JobsOptions;
  /** Job options per retry policy, built once per route. */
  readonly #retryOptions = new WeakMap<RetryPolicy, JobsOptions>();
  readonly #waiters: Waiter[] = [];
  #inFlight = 0;
  #current: Route | undefined;
  /** The in-flight dispatch, while its handlers run (what the deadline's grace waits for). */
  #running: Promise<unknown> | undefined;
  /** Set when the deadline gave up on the in-flight handler: its late outcome is not counted. */
  #abandoned = false;
  /** What the processor did with an interrupted item, for the drain's WARN line. */
  #handedBack: string | undefined;

  constructor(ctx: EngineContext, options: BullMQBackendOptions) {
    this.#ctx = ctx;
    this.#options = options;
    this.#queueName = options.queueName ?? 'tasks';
    // One attempt unless the schema was registered with more; completed items removed, failed
    // ones (after their last attempt) kept.
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

  add(route: Route, item: unknown, delay = 0): Promise<void> {
    if (this.#unacknowledged < this.#ctx.maxsize && this.#waiters.length === 0)
      return this.#write(route, item, delay);
    return new Promise<Promise<void>>((resolve, reject) => {
      this.#waiters.push({ route, item, delay, resolve, reject });
    }).then((written) => written);
  }

  tryAdd(route: Route, item: unknown, delay = 0): boolean {
    if (this.#unacknowledged >= this.#ctx.maxsize || this.#waiters.length > 0) return false;
    this.#write(route, item, delay).catch((error: unknown) => {
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
  #write(route: Route, item: unknown, delay: number): Promise<void> {
    this.#unacknowledged++;
    return new Promise<void>((resolve, reject) => {
      this.#batch.push({ route, item, delay, resolve, reject });
      if (this.#batch.length === 1) setImmediate(this.#flush);
    });
  }

  readonly #flush = (): void => {
    const batch = this.#batch.splice(0);
    if (batch.length === 0) return;
    const jobs = batch.map((entry) => ({
      name: entry.route.name!,
      data: entry.item,
      opts: this.#optionsOf(entry.route, entry.delay),
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
          next.resolve(this.#write(next.route, next.item, next.delay));
        }
        if (this.#unacknowledged === 0) this.#onWritten?.();
      })
      .catch(() => undefined);
  };

  /** BullMQ's options for an item: the registered retry policy (native `attempts`/`backoff`) and its delay. */
  #optionsOf(route: Route, delay: number): JobsOptions {
    const retry = route.retry;
    let options = this.#jobOptions;
    if (retry !== undefined) {
      let built = this.#retryOptions.get(retry);
      if (built === undefined) {
        const backoff = bullBackoff(retry);
        built = { ...options, attempts: retry.attempts, ...(backoff === undefined ? {} : { backoff }) };
        this.#retryOptions.set(retry, built);
      }
      options = built;
    }
    return delay > 0 ? { ...options, delay } : options;
  }

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
    const bull = (this.#bull = await this.#load());
    const { Worker } = bull;
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
  readonly #process = async (job: Job, token?: string, signal?: AbortSignal): Promise<void> => {
    const ctx = this.#ctx;
    const { UnrecoverableError, WaitingError } = this.#bull!;
    const route = ctx.routeByName(job.name);
    // An item no handler here can take fails at once (UnrecoverableError: its retries would fail too).
    if (route === undefined || route.handlers.length === 0) {
      ctx.counters.dropped++;
      if (!route || !route.unhandledLogged) {
        if (route) route.unhandledLogged = true;
        ctx.log.error(
          `${ctx.owner}: no handler is registered for ${job.name} in this process; the item is dropped (marked failed in Redis). Fix: every process that shares queue "${this.#queueName}" registers the same handlers`,
        );
      }
      throw new UnrecoverableError(`no handler registered for ${job.name}`);
    }
    const [data, carried] = splitCarried({ route, data: job.data, ctx });
    // valibot synchronously; a Standard Schema (zod, ArkType) may answer a promise (awaited).
    const checked = checkItem(route, data);
    const parsed = checked instanceof Promise ? await checked : checked;
    if (!parsed.ok) {
      ctx.counters.dropped++;
      const { reason } = parsed;
      ctx.log.error(
        `${ctx.owner}: a ${route.label} item from Redis fails its schema (${reason}); it is dropped (marked failed in Redis)`,
      );
      throw new UnrecoverableError(`${route.label}: ${reason}`);
    }
    checkRetry({ route, job, ctx, queueName: this.#queueName });
    const attempts = job.opts.attempts ?? 1;
    const run = job.attemptsMade + 1;
    const attempt =
      attempts > 1
        ? ` (attempt ${run} of ${attempts}${run < attempts ? '; BullMQ retries it' : '; the last'})`
        : '';
    const context: TaskContext = { signal: signal ?? this.#abort.signal };
    this.#inFlight = 1;
    this.#current = route;
    let outcome: Outcome;
    try {
      const handlers = (): Outcome | Promise<Outcome> =>
        dispatch(ctx.owner, route, parsed.output, context, ctx.log, attempt);
      const task = { name: route.label, backend: 'bullmq', queue: this.#queueName, attempt: run };
      const running =
        ctx.propagator === undefined
          ? handlers()
          : runWithin(ctx.propagator, carried, task, handlers, ctx.owner, ctx.log);
      if (typeof running !== 'number') this.#running = running;
      outcome = await running;
    } finally {
      this.#running = undefined;
      this.#inFlight = 0;
      this.#current = undefined;
    }
    // Given up on by the deadline (counted then): BullMQ hands it on when its lock expires.
    if (this.#abandoned) throw new WaitingError();
    if (outcome === Outcome.Interrupted) {
      // Stopped by the drain deadline: neither completed nor failed. Back to the head of the wait
      // list (no attempt used), so the next worker runs it; WaitingError tells BullMQ it moved.
      ctx.counters.interrupted++;
      this.#handedBack = await this.#handBack(job, token, route);
      throw new WaitingError();
    }
    if (outcome === Outcome.Ok) ctx.counters.processed++;
    else if (outcome === Outcome.Failed) ctx.counters.failed++;
    else ctx.counters.dropped++;
    // A failed run: BullMQ retries it per the item's attempts/backoff, or keeps it in its failed set.
    if (outcome !== Outcome.Ok) throw new Error(`${route.label}: a handler failed (see the log)`);
  };

  /** Moves an interrupted job back to the wait list; returns what the drain's WARN line says about it. */
  async #handBack(job: Job, token: string | undefined, route: Route): Promise<string> {
    try {
      await job.moveToWait(token);
      return `1 in flight (${route.label}) stopped on its signal and went back to the wait list for the next worker`;
    } catch (error) {
      return `1 in flight (${route.label}) stopped on its signal but could not go back to the wait list (${String(error)}); BullMQ hands it to another worker once its lock expires`;
    }
  }

  async shutdown(deadlineMs: number, deadlineLabel: string): Promise<void> {
    if (this.#draining) throw new Error('shutdown() runs once');
    this.#draining = true;
    const started = performance.now();
    const ctx = this.#ctx;
    // A start() under way finishes first, so that its worker is closed too.
    if (this.#starting) await this.#starting.catch(() => undefined);
    const worker = this.#worker;
    const interruptedBefore = ctx.counters.interrupted;
    /** Set when the deadline found an item in flight: what became of it. */
    let inFlight: string | undefined;
    if (worker) {
      // Graceful: stop taking items, let the one in flight finish, close the connections.
      const closing = worker
        .close()
        .catch((error: unknown) => ctx.log.error(`${ctx.owner}: closing the BullMQ worker failed`, error));
      if (!(deadlineMs > 0 && (await settlesWithin(closing, deadlineMs)))) {
        const label = this.#current?.label;
        const running = this.#running;
        const reason = new Error(`${ctx.owner}: ${deadlineLabel} reached`);
        worker.cancelAllJobs(reason.message);
        this.#abort.abort(reason);
        if (running !== undefined && !(await settlesWithin(running, ABORT_GRACE_MS))) {
          // The handler ignores its signal: the job keeps its lock until it expires, then
          // BullMQ's stalled check hands it to another worker.
          this.#abandoned = true;
          this.#inFlight = 0;
          ctx.counters.interrupted++;
          inFlight = `1 in flight (${label}) did not stop within the grace after its signal fired; BullMQ hands it to another worker once its lock expires`;
          await settlesWithin(worker.disconnect(), ABORT_GRACE_MS);
        } else {
          // Stopped (or nothing ran): the processor hands the item back (one Redis call), then
          // the worker closes; bounded like the queue's own close.
          if (!(await settlesWithin(closing, CLOSE_MS)))
            await settlesWithin(worker.disconnect(), ABORT_GRACE_MS);
          if (label !== undefined)
            inFlight =
              this.#handedBack ??
              `1 in flight (${label}) stopped on its signal; putting it back did not finish in time, so BullMQ hands it to another worker once its lock expires`;
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
      if (queue && !(await settlesWithin(queue.close(), CLOSE_MS)))
        await settlesWithin(queue.disconnect(), ABORT_GRACE_MS);
    }
    if (inFlight !== undefined || unwritten || refused.length > 0) {
      const interrupted = ctx.counters.interrupted - interruptedBefore;
      const extra = `${unwritten ? '; some adds were not acknowledged by Redis' : ''}${refused.length > 0 ? `; ${refused.length} waiting add(s) rejected` : ''}`;
      ctx.log.warn(
        `${ctx.owner}: ${deadlineLabel} reached before the BullMQ worker stopped: queued 0, dropped 0, interrupted ${interrupted} (items not taken stay in Redis; ${inFlight ?? 'none in flight'}${extra})`,
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
