// The queue's options and the schema checks its methods share: what `new BackgroundTasks(options)`
// accepts (coded wiring errors otherwise), the default logger, and how a schema is recognised and named.
import { isStandardSchema, structInfo, wiringError, type Logger } from '@api/core/extension';
import type { BackgroundTasksOptions, TaskContextPropagator, TaskSchema } from './types';

/** The owner named by the queue's wiring errors. */
export const OWNER = 'BackgroundTasks';

/** The logger when the options give none. */
export const consoleLog: Logger = {
  info: (message) => console.log(message),
  warn: (message, error) => (error === undefined ? console.warn(message) : console.warn(message, error)),
  error: (message, error) => (error === undefined ? console.error(message) : console.error(message, error)),
};

/** True for a valibot schema or a Standard Schema v1 such as zod's (what `register` and `add` take). */
export function isSchema(value: unknown): value is TaskSchema {
  return (
    (value !== null &&
      typeof value === 'object' &&
      (value as { kind?: unknown }).kind === 'schema' &&
      typeof (value as { '~run'?: unknown })['~run'] === 'function') ||
    isStandardSchema(value)
  );
}

/** `maxsize` and `drainTimeout`, checked (coded wiring errors), with their defaults. */
export function checkOptions(options: BackgroundTasksOptions): { maxsize: number; drainMs: number } {
  const maxsize = options.maxsize ?? 1024;
  if (!(maxsize === Infinity || (Number.isInteger(maxsize) && maxsize >= 1)))
    throw wiringError(
      'API_WIRING_LIMIT',
      OWNER,
      `maxsize ${String(maxsize)} is not a positive integer`,
      'pass a whole number of items ≥ 1 (default 1024), or Infinity for no bound',
    );
  const drain = options.drainTimeout === undefined ? 30 : options.drainTimeout;
  if (drain !== null && !(typeof drain === 'number' && drain >= 0 && drain !== Infinity))
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      OWNER,
      `drainTimeout ${String(drain)} is not a number of seconds`,
      'pass seconds ≥ 0 (default 30); 0 or null does not wait',
    );
  return { maxsize, drainMs: drain === null ? 0 : Math.round(drain * 1000) };
}

/** The `propagator` option: undefined, or an object with `capture` and `restore` (a `WiringError` otherwise). */
export function checkPropagator(
  propagator: TaskContextPropagator | undefined,
): TaskContextPropagator | undefined {
  if (propagator === undefined) return undefined;
  // Checked at run time too: JavaScript callers, and values typed `any`.
  const given: unknown = propagator;
  const members = (typeof given === 'object' && given !== null ? given : {}) as Record<string, unknown>;
  if (typeof members.capture !== 'function' || typeof members.restore !== 'function')
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      OWNER,
      'the propagator option has no capture() and restore(carried, task, run)',
      'pass a TaskContextPropagator (e.g. taskContext() from @api/otel), or leave it out',
    );
  return propagator;
}

/** A schema as messages name it: its `Struct` name. */
export function labelOf(schema: unknown): string {
  return structInfo(schema)?.name ?? (isSchema(schema) ? 'anonymous schema' : 'not a schema');
}
