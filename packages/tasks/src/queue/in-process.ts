import { defineBackend } from './backend';
import { ABORT_GRACE_MS, settlesWithin, type Engine, type EngineContext } from './engine';
import { Carried, runWithin } from './context';
import { dispatch, Outcome, type Route } from './route';
import { Ring } from './ring';
import type { TaskBackend, TaskContext } from './types';

interface Waiter {
  readonly item: unknown;
  readonly resolve: () => void;
  readonly reject: (error: Error) => void;
}

// One settled promise for every `add` that finds room: nothing is allocated, and the caller
// resumes in a microtask of the same macrotask.
const ACCEPTED: Promise<void> = Promise.resolve();

// Synchronous handlers run back to back; every so many the worker yields a macrotask so that
// I/O (requests, timers) is not starved by a long run of queued work.
const YIELD_EVERY = 1024;

const yieldMacrotask = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * The in-process engine: a ring buffer and one worker loop, started on a macrotask after the
 * first item so that a request handler that enqueues sends its response before the task runs.
 */
class InProcessEngine implements Engine {
  readonly crossesProcesses = false;
  readonly retriesAndDelays = false;
  readonly #ctx: EngineContext;
  readonly #ring: Ring<Route, unknown>;
  readonly #waiters = new Ring<Route, Waiter>(4);
  readonly #abort = new AbortController();
  readonly #context: TaskContext;
  #closed = false;
  #draining = false;
  #scheduled = false;
  #running = false;
  #inFlight = 0;
  /** The in-flight dispatch when it went async (what the deadline's grace waits for). */
  #current: Promise<unknown> | undefined;
  /** Set when the deadline gave up on the in-flight item: its late outcome is not counted. */
  #abandoned = false;
  #onIdle: (() => void) | undefined;
  readonly #run = (): void => {
    this.#scheduled = false;
    void this.#loop();
  };

  constructor(ctx: EngineContext) {
    this.#ctx = ctx;
    this.#ring = new Ring(Math.min(ctx.maxsize, 1024));
    this.#context = Object.freeze({ signal: this.#abort.signal });
  }

  get closed(): boolean {
    return this.#closed;
  }

  queued(): number {
    return this.#ring.size;
  }

  inFlight(): number {
    return this.#inFlight;
  }

  add(route: Route, item: unknown): Promise<void> {
    if (this.#ring.size < this.#ctx.maxsize && this.#waiters.size === 0) {
      this.#ring.push(route, item);
      if (!this.#scheduled && !this.#running) this.#schedule();
      return ACCEPTED;
    }
    return new Promise<void>((resolve, reject) => {
      this.#waiters.push(route, { item, resolve, reject });
    });
  }

  tryAdd(route: Route, item: unknown): boolean {
    if (this.#ring.size >= this.#ctx.maxsize || this.#waiters.size > 0) return false;
    this.#ring.push(route, item);
    if (!this.#scheduled && !this.#running) this.#schedule();
    return true;
  }

  start(): Promise<void> {
    this.#ctx.markStarted();
    return ACCEPTED;
  }

  #schedule(): void {
    this.#scheduled = true;
    setImmediate(this.#run);
  }

  /** Moves the oldest waiting `add` into the ring (there is room for one) and resolves it. */
  #admit(): void {
    const route = this.#waiters.headRoute();
    const waiter = this.#waiters.headItem();
    this.#waiters.dropHead();
    this.#ring.push(route, waiter.item);
    waiter.resolve();
  }

  /** Runs one item's handlers, inside its carried context when the queue has a propagator. */
  #dispatch(route: Route, item: unknown): Outcome | Promise<Outcome> {
    const { owner, log, propagator } = this.#ctx;
    if (propagator === undefined) return dispatch(owner, route, item, this.#context, log);
    const carried = item instanceof Carried ? item : undefined;
    const value = carried === undefined ? item : carried.item;
    return runWithin(
      propagator,
      carried?.context,
      { name: route.label, backend: 'in-process', queue: undefined, attempt: 1 },
      () => dispatch(owner, route, value, this.#context, log),
      owner,
      log,
    );
  }

  async #loop(): Promise<void> {
    if (this.#running || this.#closed) return;
    this.#running = true;
    this.#ctx.markStarted();
    const ring = this.#ring;
    const counters = this.#ctx.counters;
    let sinceYield = 0;
    try {
      while (ring.size > 0 && !this.#closed) {
        const route = ring.headRoute();
        const item = ring.headItem();
        ring.dropHead();
        if (this.#waiters.size > 0) this.#admit();
        this.#inFlight = 1;
        let outcome = this.#dispatch(route, item);
        if (typeof outcome !== 'number') {
          sinceYield = 0;
          this.#current = outcome;
          outcome = await outcome;
          this.#current = undefined;
          if (this.#abandoned) return; // counted as dropped by the deadline
        }
        this.#inFlight = 0;
        if (outcome === Outcome.Ok) counters.processed++;
        else if (outcome === Outcome.Failed) counters.failed++;
        else if (outcome === Outcome.Interrupted) counters.interrupted++;
        else counters.dropped++;
        if (++sinceYield >= YIELD_EVERY && ring.size > 0) {
          sinceYield = 0;
          await yieldMacrotask();
        }
      }
    } catch (error) {
      // dispatch() never throws; this guards the loop's own invariants.
      this.#ctx.log.error(`${this.#ctx.owner}: the worker loop failed`, error);
    } finally {
      this.#running = false;
      this.#inFlight = 0;
    }
    if (this.#draining) this.#checkIdle();
  }

  #checkIdle(): void {
    if (this.#ring.size === 0 && this.#inFlight === 0 && !this.#running && !this.#scheduled) {
      this.#closed = true;
      this.#onIdle?.();
    }
  }

  async shutdown(deadlineMs: number, deadlineLabel: string): Promise<void> {
    if (this.#draining) throw new Error('shutdown() runs once');
    this.#draining = true;
    this.#checkIdle();
    if (this.#closed) return;
    const idle = new Promise<void>((resolve) => (this.#onIdle = resolve));
    if (deadlineMs > 0 && (await settlesWithin(idle, deadlineMs))) return;
    if (this.#closed) return;
    // The deadline: stop the worker, abort the in-flight handler, give it a short grace.
    this.#closed = true;
    const queued = this.#ring.size;
    this.#ring.clear();
    const refused = this.#waiters.size;
    while (this.#waiters.size > 0) {
      const route = this.#waiters.headRoute();
      const waiter = this.#waiters.headItem();
      this.#waiters.dropHead();
      waiter.reject(this.#ctx.closedError(route));
    }
    const counters = this.#ctx.counters;
    const interruptedBefore = counters.interrupted;
    this.#abort.abort(new Error(`${this.#ctx.owner}: ${deadlineLabel} reached`));
    let abandoned = 0;
    const current = this.#current;
    if (current && !(await settlesWithin(current, ABORT_GRACE_MS)) && this.#current === current) {
      this.#abandoned = true;
      this.#inFlight = 0;
      abandoned = 1;
    }
    counters.dropped += queued + abandoned;
    // The worker loop counted the in-flight item when its handler settled within the grace.
    const interrupted = counters.interrupted - interruptedBefore;
    const inFlight = current
      ? abandoned
        ? '1 in flight did not stop within the grace after its signal fired'
        : '1 in flight stopped on its signal'
      : 'none in flight';
    const waiting = refused > 0 ? `, ${refused} waiting add(s) rejected` : '';
    this.#ctx.log.warn(
      `${this.#ctx.owner}: ${deadlineLabel} reached before the queue drained: queued ${queued}, dropped ${queued + abandoned}, interrupted ${interrupted} (${inFlight}${waiting})`,
    );
  }
}

/**
 * The default backend: items wait in this process (a ring buffer bounded by `maxsize`) and one
 * worker runs them in order. Nothing survives the process; see `bullmqBackend` for that.
 *
 * @example
 * const tasks = new BackgroundTasks({ backend: inProcessBackend() }); // same as the default
 */
export function inProcessBackend(): TaskBackend {
  return defineBackend('in-process', (ctx) => new InProcessEngine(ctx));
}
