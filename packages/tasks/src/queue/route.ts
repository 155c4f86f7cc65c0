import type * as v from 'valibot';
import { structInfo, toErrorReason, type Logger } from '@api/core/extension';
import { TaskItemError } from './errors';
import type { TaskContext, TaskHandler, TaskSchema } from './types';

/** Everything the worker needs to dispatch one item type: found by schema identity at `add`. */
export interface Route {
  readonly schema: TaskSchema;
  /** The `Struct` name, or `undefined` for an anonymous schema. */
  readonly name: string | undefined;
  /** For messages: the name, or `anonymous schema`. */
  readonly label: string;
  readonly handlers: TaskHandler<unknown>[];
  /** Set once the "no handler" error was logged for this schema (logged once, then counted). */
  unhandledLogged: boolean;
}

/** Builds the route of a schema (no handlers yet). */
export function newRoute(schema: TaskSchema): Route {
  const name = structInfo(schema)?.name;
  return { schema, name, label: name ?? 'anonymous schema', handlers: [], unhandledLogged: false };
}

/** The outcome of dispatching one item. */
export const Outcome = {
  /** Every handler returned without error. */
  Ok: 0,
  /** At least one handler failed (each was logged). */
  Failed: 1,
  /** No handler registered (logged once per schema). */
  Unhandled: 2,
  /** The drain deadline fired between two handlers of a one-to-many item; the rest did not run. */
  Cut: 3,
} as const;
export type Outcome = (typeof Outcome)[keyof typeof Outcome];

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    value !== null &&
    (typeof value === 'object' || typeof value === 'function') &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

function handlerLabel(route: Route, index: number): string {
  const count = route.handlers.length;
  const fn = route.handlers[index]!.name;
  const which = fn ? `handler ${fn}` : 'handler';
  return count > 1 ? `${which} (${index + 1} of ${count}) for ${route.label}` : `${which} for ${route.label}`;
}

function reportFailure(owner: string, route: Route, index: number, error: unknown, log: Logger): void {
  log.error(`${owner}: ${handlerLabel(route, index)} failed; the worker goes on`, error);
}

/**
 * Runs every handler of `route` on `item`, in registration order, each isolated: a failure is
 * logged and the next handler still runs. Stays synchronous while the handlers are (no promise is
 * created for a synchronous handler); returns a promise only when a handler returned one. Never
 * throws and never rejects.
 */
export function dispatch(
  owner: string,
  route: Route,
  item: unknown,
  context: TaskContext,
  log: Logger,
): Outcome | Promise<Outcome> {
  const handlers = route.handlers;
  if (handlers.length === 0) {
    if (!route.unhandledLogged) {
      route.unhandledLogged = true;
      log.error(
        `${owner}: no handler is registered for ${route.label}; the item is dropped (further ones are counted in stats().dropped). Fix: tasks.register(${route.label}, handler) while wiring`,
      );
    }
    return Outcome.Unhandled;
  }
  let failed = false;
  for (let i = 0; i < handlers.length; i++) {
    if (i > 0 && context.signal.aborted) return Outcome.Cut;
    let result: unknown;
    try {
      result = handlers[i]!(item, context);
    } catch (error) {
      reportFailure(owner, route, i, error, log);
      failed = true;
      continue;
    }
    if (isThenable(result)) return finishAsync(owner, route, item, context, log, i, result, failed);
  }
  return failed ? Outcome.Failed : Outcome.Ok;
}

async function finishAsync(
  owner: string,
  route: Route,
  item: unknown,
  context: TaskContext,
  log: Logger,
  index: number,
  pending: PromiseLike<unknown>,
  failedBefore: boolean,
): Promise<Outcome> {
  let failed = failedBefore;
  try {
    await pending;
  } catch (error) {
    reportFailure(owner, route, index, error, log);
    failed = true;
  }
  const handlers = route.handlers;
  for (let i = index + 1; i < handlers.length; i++) {
    if (context.signal.aborted) return Outcome.Cut;
    try {
      await handlers[i]!(item, context);
    } catch (error) {
      reportFailure(owner, route, i, error, log);
      failed = true;
    }
  }
  return failed ? Outcome.Failed : Outcome.Ok;
}

/** The error for an item its schema refuses (names the field, never the value). */
export function refusal(where: string, route: Route, issues: readonly v.BaseIssue<unknown>[]): TaskItemError {
  const { reason, issues: list } = toErrorReason('json', issues);
  return new TaskItemError(where, route.label, reason, list);
}
