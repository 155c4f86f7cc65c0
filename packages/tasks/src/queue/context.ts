// Carrying a context with items (`BackgroundTasksOptions.propagator`): the captured map's checks,
// how it rides with an item, and running the handlers inside it.
import type { Logger } from '@api/core/extension';
import { Outcome } from './route';
import type { TaskContextPropagator, TaskOutcome, TaskRun } from './types';

/** The key of the carried map inside a BullMQ job's data (beside the item's own fields). */
export const CONTEXT_KEY = '$context';

const MAX_ENTRIES = 16;
const MAX_VALUE = 8192;
const NAME = /^[A-Za-z0-9_.-]{1,64}$/;
const VALUE = /^[\x20-\x7e]*$/;

/** A carried map as a propagator gave it or a job brought it; a sentence saying why when it is not one. */
export function checkCarried(value: unknown): Readonly<Record<string, string>> | string {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return `the carried context must be an object of strings, got ${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value}`;
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return 'the carried context must be a plain object';
  const entries = Object.entries(value);
  if (entries.length > MAX_ENTRIES)
    return `the carried context has ${entries.length} entries (at most ${MAX_ENTRIES})`;
  for (const [name, text] of entries) {
    if (!NAME.test(name))
      return `the carried context has an entry named ${JSON.stringify(name.slice(0, 80))} (names: 1–64 of A-Z a-z 0-9 - _ .)`;
    if (typeof text !== 'string') return `the carried context's ${name} is a ${typeof text}, not a string`;
    if (text.length > MAX_VALUE)
      return `the carried context's ${name} is ${text.length} characters long (at most ${MAX_VALUE})`;
    if (!VALUE.test(text)) return `the carried context's ${name} has characters other than printable ASCII`;
  }
  return value as Readonly<Record<string, string>>;
}

/** An in-process item with the context captured when it was added. */
export class Carried {
  constructor(
    readonly item: unknown,
    readonly context: Readonly<Record<string, string>>,
  ) {}
}

const NAMES: Record<Outcome, TaskOutcome> = {
  [Outcome.Ok]: 'processed',
  [Outcome.Failed]: 'failed',
  [Outcome.Unhandled]: 'dropped',
  [Outcome.Interrupted]: 'interrupted',
};
function named(outcome: Outcome | Promise<Outcome>): TaskOutcome | Promise<TaskOutcome> {
  return typeof outcome === 'number' ? NAMES[outcome] : outcome.then((o) => NAMES[o]);
}

/**
 * Runs `dispatch` (an item's handlers) inside the propagator's `restore`. The propagator cannot
 * lose the item or change how it is counted: a throw before it called `run`, or a `restore` that
 * never does, is logged and the handlers run without the context; a throw after `run` is logged;
 * the item's own outcome is what counts.
 */
export function runWithin(
  propagator: TaskContextPropagator,
  carried: Readonly<Record<string, string>> | undefined,
  task: TaskRun,
  dispatch: () => Outcome | Promise<Outcome>,
  owner: string,
  log: Logger,
): Outcome | Promise<Outcome> {
  let ran: Outcome | Promise<Outcome> | undefined;
  let result: TaskOutcome | Promise<TaskOutcome>;
  try {
    result = propagator.restore(carried, task, () => named((ran = dispatch())));
  } catch (error) {
    log.error(`${owner}: the context propagator failed while running a ${task.name} item`, error);
    return ran ?? dispatch();
  }
  if (ran === undefined) {
    log.error(
      `${owner}: the context propagator's restore did not run the ${task.name} item; it runs without its context`,
    );
    return dispatch();
  }
  // The counters follow the item's own outcome; a promise from `restore` (a span ending) is awaited.
  if (typeof result === 'string') return ran;
  const own = ran;
  return Promise.resolve(result).then(
    () => own,
    (error: unknown) => {
      log.error(`${owner}: the context propagator failed after a ${task.name} item ran`, error);
      return own;
    },
  );
}
