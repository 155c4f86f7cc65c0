import * as v from 'valibot';
import {
  isStandardSchema,
  standardReason,
  structInfo,
  toErrorReason,
  type Logger,
  type StandardSchemaV1,
} from '@api/core/extension';
import { TaskItemError, type ReasonIssue } from './errors';
import type { TaskBackoff, TaskContext, TaskHandler, TaskSchema } from './types';

/** The retry policy registered for a schema (BullMQ job options `attempts`, `backoff`). */
export interface RetryPolicy {
  /** ≥ 2 (a policy with one attempt is no policy). */
  readonly attempts: number;
  readonly backoff: TaskBackoff | undefined;
}

/** Everything the worker needs to dispatch one item type: found by schema identity at `add`. */
export interface Route {
  readonly schema: TaskSchema;
  /**
   * A Standard Schema's (zod, ArkType) `~standard`, whose `validate` may answer a promise;
   * undefined for valibot, which keeps its synchronous path. Decided when the route is made.
   */
  readonly standard: StandardSchemaV1.Props | undefined;
  /** The `Struct` name, or `undefined` for an anonymous schema. */
  readonly name: string | undefined;
  /** For messages: the name, or `anonymous schema`. */
  readonly label: string;
  readonly handlers: TaskHandler<unknown>[];
  /** Set by `register(…, { attempts, backoff })`; undefined: one attempt. */
  retry: RetryPolicy | undefined;
  /** Set once the "no handler" error was logged for this schema (logged once, then counted). */
  unhandledLogged: boolean;
  /** Set once an item whose retry options differ from `retry` was reported (reported once). */
  mismatchLogged: boolean;
  /** Set once an item whose carried context failed its checks was reported (reported once). */
  contextLogged: boolean;
}

/** Builds the route of a schema (no handlers yet). */
export function newRoute(schema: TaskSchema): Route {
  const name = structInfo(schema)?.name;
  return {
    schema,
    standard: isStandardSchema(schema) ? schema['~standard'] : undefined,
    name,
    label: name ?? 'anonymous schema',
    handlers: [],
    retry: undefined,
    unhandledLogged: false,
    mismatchLogged: false,
    contextLogged: false,
  };
}

/** The outcome of dispatching one item. */
export const Outcome = {
  /** Every handler returned without error. */
  Ok: 0,
  /** At least one handler failed (each was logged). */
  Failed: 1,
  /** No handler registered (logged once per schema). */
  Unhandled: 2,
  /**
   * The drain deadline fired the signal while the item ran: a handler settled after it (returned
   * or threw: its failure is not logged), or later handlers of a one-to-many item were skipped.
   */
  Interrupted: 3,
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

function reportFailure(
  owner: string,
  route: Route,
  index: number,
  error: unknown,
  log: Logger,
  attempt: string,
): void {
  log.error(`${owner}: ${handlerLabel(route, index)} failed${attempt}; the worker goes on`, error);
}

/**
 * Runs every handler of `route` on `item`, in registration order, each isolated: a failure is
 * logged and the next handler still runs. Stays synchronous while the handlers are (no promise is
 * created for a synchronous handler); returns a promise only when a handler returned one. Never
 * throws and never rejects. Once the context's signal has fired (the drain deadline), a handler
 * that settles is not judged — its work may be cut short — and the item is `Interrupted`.
 *
 * @param attempt - Appended to a failure's log line, e.g. ` (attempt 1 of 3; BullMQ retries it)`.
 */
export function dispatch(
  owner: string,
  route: Route,
  item: unknown,
  context: TaskContext,
  log: Logger,
  attempt = '',
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
    let result: unknown;
    try {
      result = handlers[i]!(item, context);
    } catch (error) {
      if (context.signal.aborted) return Outcome.Interrupted;
      reportFailure(owner, route, i, error, log, attempt);
      failed = true;
      continue;
    }
    if (isThenable(result)) return finishAsync(owner, route, item, context, log, attempt, i, result, failed);
    if (context.signal.aborted) return Outcome.Interrupted;
  }
  return failed ? Outcome.Failed : Outcome.Ok;
}

async function finishAsync(
  owner: string,
  route: Route,
  item: unknown,
  context: TaskContext,
  log: Logger,
  attempt: string,
  index: number,
  pending: PromiseLike<unknown>,
  failedBefore: boolean,
): Promise<Outcome> {
  let failed = failedBefore;
  const handlers = route.handlers;
  for (let i = index; i < handlers.length; i++) {
    try {
      await (i === index ? pending : handlers[i]!(item, context));
    } catch (error) {
      if (context.signal.aborted) return Outcome.Interrupted;
      reportFailure(owner, route, i, error, log, attempt);
      failed = true;
    }
    if (context.signal.aborted) return Outcome.Interrupted;
  }
  return failed ? Outcome.Failed : Outcome.Ok;
}

/** The error for an item its schema refuses (names the field, never the value). */
export function refusal(where: string, route: Route, issues: readonly v.BaseIssue<unknown>[]): TaskItemError {
  const { reason, issues: list } = toErrorReason('json', issues);
  return new TaskItemError(where, route.label, reason, list);
}

/** How an item fared against its schema: its output, or the reason (first failure) and every issue. */
export type Checked =
  | { readonly ok: true; readonly output: unknown }
  | { readonly ok: false; readonly reason: string; readonly issues: readonly ReasonIssue[] };

function settle(result: StandardSchemaV1.Result<unknown>, value: unknown): Checked {
  if (!result.issues) return { ok: true, output: result.value };
  const { reason, issues } = standardReason('json', result.issues, value);
  return { ok: false, reason, issues };
}

/**
 * Validates an item against its route's schema: valibot synchronously, a Standard Schema by its
 * `validate`, awaited only when it answers a promise (an async refinement). Issues name paths,
 * never values. A schema whose own code throws (or rejects) throws (or rejects) here.
 */
export function checkItem(route: Route, value: unknown): Checked | Promise<Checked> {
  const standard = route.standard;
  if (standard === undefined) {
    const result = v.safeParse(route.schema as v.GenericSchema, value);
    if (result.success) return { ok: true, output: result.output };
    const { reason, issues } = toErrorReason('json', result.issues);
    return { ok: false, reason, issues };
  }
  const result = standard.validate(value);
  return result instanceof Promise ? result.then((r) => settle(r, value)) : settle(result, value);
}

/** The output of a checked item, or the `TaskItemError` of a refused one (names the field, never the value). */
export function admitted(where: string, route: Route, checked: Checked): unknown {
  if (checked.ok) return checked.output;
  throw new TaskItemError(where, route.label, checked.reason, checked.issues);
}
