import type { Logger } from '@api/core/extension';
import type { Route } from './route';
import type { TaskContextPropagator } from './types';

/** Counters shared by the front and its engine. */
export interface Counters {
  processed: number;
  failed: number;
  interrupted: number;
  dropped: number;
}

/** What a queue gives its engine. */
export interface EngineContext {
  /** `BackgroundTasks`: the prefix of every message. */
  readonly owner: string;
  readonly log: Logger;
  readonly maxsize: number;
  readonly counters: Counters;
  /** The route registered under a `Struct` name (engines whose items cross processes dispatch by name). */
  routeByName(name: string): Route | undefined;
  /** Called when the worker starts: registration closes. */
  markStarted(): void;
  /** The error for an add of `route` the queue refuses because it shut down. */
  closedError(route: Route): Error;
  /** Carries a context with each item (`BackgroundTasksOptions.propagator`), if any. */
  readonly propagator: TaskContextPropagator | undefined;
}

/** A backend's engine: holds items and runs the one worker. Internal interface. */
export interface Engine {
  /** True when items travel as JSON (they are validated in their JSON form at `add`). */
  readonly crossesProcesses: boolean;
  /** True once the drain finished or its deadline passed: adds are refused from then on. */
  readonly closed: boolean;
  /** Whether `register` options (`attempts`, `backoff`) and an add's `delay` are honoured. */
  readonly retriesAndDelays: boolean;
  /** Takes a validated item; resolves once accepted (at once when there is room). `delay` in ms (0: none). */
  add(route: Route, item: unknown, delay?: number): Promise<void>;
  /** Takes a validated item if there is room now. */
  tryAdd(route: Route, item: unknown, delay?: number): boolean;
  /** Starts the worker (idempotent). */
  start(): Promise<void>;
  /**
   * Drains (waits for the queue to be empty and nothing in flight, up to `deadlineMs`; 0 means
   * do not wait), aborts and warns on the deadline, then stops and releases connections.
   */
  shutdown(deadlineMs: number, deadlineLabel: string): Promise<void>;
  /** Items waiting for the worker. */
  queued(): number;
  /** 0 or 1. */
  inFlight(): number;
}

/** How long an aborted in-flight handler gets to return before the queue moves on. */
export const ABORT_GRACE_MS = 100;

/** Resolves `true` when `promise` settles within `ms`, `false` otherwise; never rejects; clears its timer. */
export function settlesWithin(promise: PromiseLike<unknown>, ms: number): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    const done = (): void => {
      clearTimeout(timer);
      resolve(true);
    };
    promise.then(done, done);
  });
}
