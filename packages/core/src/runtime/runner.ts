import { AsyncResource } from 'node:async_hooks';
import { performance } from 'node:perf_hooks';
import type { AroundHook, Exchange } from '../contract/exchange';
import type { UrlResolver } from '../responses/location';
import { writeUndeclaredResponse } from '../responses/undeclared';
import { Later, type Waiter } from '../binding/body';
import { CoreExchange } from '../responses/core-exchange';
import type { Plan } from './plan';
import type { RoutePlan } from '../contract/route-plan';

/**
 * Runs one plan: intercepts → pre-handler → bind → handler → write, then observe; inside the
 * route's `around` hooks when it has some.
 */
export function runPlan(plan: Plan, ex: CoreExchange, resolver: UrlResolver): void {
  const aroundRun = plan.aroundRun;
  if (aroundRun !== undefined) aroundRun(ex);
  else runRoute(plan, ex, resolver);
}

/**
 * The route's own run. A plan with nothing before binding and only synchronous binders stays
 * synchronous until the handler returns.
 */
export function runRoute(plan: Plan, ex: CoreExchange, resolver: UrlResolver): void {
  if (plan.timed) ex.stampReceived(true);
  if (plan.observers) observeWhenFinished(plan, ex);
  if (plan.controlled) ex.startControl(plan.deadlineMs);
  if (!plan.sync) {
    runSteps(plan, ex, resolver);
    return;
  }
  try {
    const keys = plan.keys;
    const binders = plan.binders;
    const input: Record<string, unknown> = {};
    for (let i = 0; i < keys.length; i++) input[keys[i]!] = binders[i]!(ex);
    const out = plan.invoke(input, ex);
    const write = plan.write;
    if (out instanceof Promise) {
      out.then(
        write === undefined ? undefined : (value: unknown) => writeSafely(plan, value, ex),
        (error: unknown) => ex.fail(error),
      );
    } else if (write !== undefined) {
      const written = write(out, ex);
      if (written instanceof Promise) written.catch((error: unknown) => ex.fail(error));
    }
  } catch (error) {
    ex.fail(error);
  }
}

function writeSafely(plan: Plan, value: unknown, ex: CoreExchange): void {
  try {
    const written = plan.write!(value, ex);
    if (written instanceof Promise) written.catch((error: unknown) => ex.fail(error));
  } catch (error) {
    ex.fail(error);
  }
}

/**
 * The general path, without an async frame: steps run in order (intercepts, before-steps, binders,
 * the handler, the writer) until one returns a promise (or a body read, a `Later`), whose
 * settlement runs the steps on from the next one. Steps that answer synchronously cost no promise.
 */
function runSteps(plan: Plan, ex: CoreExchange, resolver: UrlResolver): void {
  runStepsFrom(new RunState(plan, ex, resolver), 0);
}

/**
 * The state of one run of the general path (its step positions are the plan's, decided at wiring).
 * It waits on a body read itself (`settled`): no closure per request.
 */
class RunState implements Waiter {
  readonly input: Record<string, unknown> = {};
  /** The handler's value, once it has one. */
  out: unknown = undefined;
  /** The step whose `Later` this run waits on. */
  waitingAt = 0;

  constructor(
    readonly plan: Plan,
    readonly ex: CoreExchange,
    readonly resolver: UrlResolver,
  ) {}

  settled(ok: boolean, value: unknown): void {
    onStepSettled(this, this.waitingAt, ok, value);
  }
}

/** Runs the steps from step `at` on, until one is asynchronous (then its settlement carries on) or the writer. */
function runStepsFrom(run: RunState, at: number): void {
  const { plan, ex } = run;
  try {
    for (; at <= plan.handlerStep; at++) {
      let result: unknown;
      if (at < plan.firstBefore) result = plan.intercepts![at]!(ex);
      else if (at < plan.firstBinder) result = plan.before![at - plan.firstBefore]!(ex);
      else if (at < plan.handlerStep) result = plan.binders[at - plan.firstBinder]!(ex);
      else result = plan.invoke(run.input, ex);
      if (result instanceof Promise) {
        const step = at;
        result.then(
          (value: unknown) => onStepSettled(run, step, true, value),
          (error: unknown) => ex.fail(error),
        );
        return;
      }
      if (result instanceof Later) {
        // Core's body read: carries on from the body's last chunk, no microtask. That chunk arrives in
        // the socket's async context; inside `around` hooks (a trace's active span), the run's own
        // context is restored for the rest of it by one AsyncResource — not `AsyncResource.bind`,
        // whose bound function (defined properties per call) made every body request survive to the
        // old generation: ×2.8 instructions per POST with @api/otel and no SDK (bench/, valgrind).
        run.waitingAt = at;
        if (plan.aroundRun === undefined) result.onSettled(run);
        else {
          const scope = new AsyncResource('api.run');
          result.onSettled((ok, value) =>
            scope.runInAsyncScope(onStepSettled, undefined, run, run.waitingAt, ok, value),
          );
        }
        return;
      }
      if (!storeResult(run, at, result)) return;
    }
    if (plan.write === undefined) return;
    const written = plan.write(run.out, ex);
    if (written instanceof Promise) written.catch((error: unknown) => ex.fail(error));
  } catch (error) {
    ex.fail(error);
  }
}

/**
 * Step `at` settled: stores its value and runs the next steps; never throws (it runs from a promise
 * or a stream event).
 */
function onStepSettled(run: RunState, at: number, ok: boolean, value: unknown): void {
  if (!ok) {
    run.ex.fail(value);
    return;
  }
  try {
    if (storeResult(run, at, value)) runStepsFrom(run, at + 1);
  } catch (error) {
    run.ex.fail(error);
  }
}

/** Stores step `at`'s value. False when the run ends there: an intercept answered (written here). */
function storeResult(run: RunState, at: number, value: unknown): boolean {
  const plan = run.plan;
  if (at < plan.firstBefore) {
    if (value === undefined) return true;
    writeUndeclaredResponse(value, run.ex, run.resolver);
    return false;
  }
  if (at < plan.firstBinder) return true;
  if (at < plan.handlerStep) {
    run.input[plan.keys[at - plan.firstBinder]!] = value;
    return true;
  }
  run.out = value;
  return true;
}

/**
 * Calls the plan's observers once: when the response has closed — after it completed, or when the
 * connection closed before it did (a client gone mid-stream; the status is what was sent, 0 before
 * the head; `res.writableFinished` tells which) — or at a takeover.
 */
export function observeWhenFinished(plan: RoutePlan, ex: CoreExchange): void {
  const observers = plan.observers!;
  ex.stampReceived(false);
  ex.countBytes();
  const finished = (): void => {
    if (!ex.disarmFinished(finished)) return;
    const duration = performance.now() - ex.receivedAt;
    for (const observe of observers) {
      try {
        observe(ex, ex.status, duration);
      } catch (error) {
        ex.log.warn(`${ex.method} ${ex.path}: an observe hook failed (ignored)`, error);
      }
    }
  };
  ex.onFinished(finished);
}

/**
 * Composes `around` hooks (the first outermost) over `inner`. The outermost checks the contract:
 * a hook that throws before the run started makes the request's error (a logged 500); one that
 * returns without calling `next` too; a throw after the run started is logged. The hooks see the
 * public `Exchange`; the exchange they pass on is core's own again (`instanceof`, no cast): a hook
 * passing `next` anything else is the request's error too.
 */
export function composeAround(
  hooks: readonly AroundHook[],
  inner: (ex: CoreExchange) => void,
): (ex: Exchange) => void {
  let next = (ex: Exchange): void => {
    if (!(ex instanceof CoreExchange)) throw notCoreExchange();
    ex.reachAround();
    inner(ex);
  };
  for (let i = hooks.length - 1; i >= 0; i--) {
    const hook = hooks[i]!;
    const then = next;
    next = (ex) => hook(ex, then);
  }
  const chain = next;
  return (ex) => {
    // Only core calls the chain (the runner, the runtime's unrouted answers), with its own exchange.
    if (!(ex instanceof CoreExchange)) throw new TypeError("composeAround: not core's exchange");
    try {
      chain(ex);
    } catch (error) {
      if (ex.aroundReached)
        ex.log.warn(`${ex.method} ${ex.path}: an around hook failed after the run began`, error);
      else ex.fail(error);
      return;
    }
    if (!ex.aroundReached)
      ex.fail(new TypeError(`${ex.method} ${ex.path}: an around hook returned without calling next(ex)`));
  };
}

/** An around hook passed `next` something other than the exchange it was given. */
function notCoreExchange(): TypeError {
  return new TypeError('an around hook called next() with another object than the exchange it was given');
}
