import { wiringError } from '@api/core/extension';
import type { RetryPolicy } from './route';
import type { TaskAddOptions, TaskBackoff, TaskRegistrationOptions } from './types';

const REGISTRATION_KEYS = ['attempts', 'backoff'];
const BACKOFF_KEYS = ['type', 'delay', 'jitter'];
const ADD_KEYS = ['delay'];

/** A value as a message shows it: numbers, strings and booleans as written, anything else by kind. */
function showValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean' || value == null) return String(value);
  return Array.isArray(value) ? 'an array' : `a ${typeof value}`;
}

const isMs = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;

function plainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The first key of `value` not in `known`, if any (a typo would silently drop what it meant to set). */
function unknownKey(value: Record<string, unknown>, known: readonly string[]): string | undefined {
  return Object.keys(value).find((key) => !known.includes(key));
}

/** Checks a backoff value; returns the problem, or undefined when it is valid. */
function backoffProblem(backoff: unknown): string | undefined {
  if (typeof backoff === 'number')
    return isMs(backoff) ? undefined : `backoff ${String(backoff)} is not a whole number of milliseconds ≥ 0`;
  if (!plainObject(backoff)) return `backoff is ${showValue(backoff)}`;
  const extra = unknownKey(backoff, BACKOFF_KEYS);
  if (extra !== undefined) return `backoff has an unknown key "${extra}"`;
  if (backoff.type !== 'fixed' && backoff.type !== 'exponential')
    return `backoff.type ${showValue(backoff.type)} is not 'fixed' or 'exponential'`;
  if (!isMs(backoff.delay)) return `backoff.delay ${showValue(backoff.delay)} is not milliseconds ≥ 0`;
  const jitter = backoff.jitter;
  if (jitter !== undefined && !(typeof jitter === 'number' && jitter >= 0 && jitter <= 1))
    return `backoff.jitter ${showValue(jitter)} is not a share from 0 to 1`;
  return undefined;
}

/**
 * Checks `register`'s options. Returns the retry policy (undefined for one attempt). Every mistake,
 * and any retry on a backend that cannot retry, is a `WiringError` naming the fix.
 */
export function checkRegistrationOptions(
  where: string,
  options: TaskRegistrationOptions | undefined,
  supported: boolean,
  backend: string,
): RetryPolicy | undefined {
  if (options === undefined) return undefined;
  const fix = "e.g. { attempts: 3, backoff: { type: 'exponential', delay: 1_000 } }";
  if (!plainObject(options))
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      where,
      `the options are ${showValue(options)}, not an object`,
      `pass ${fix}, or leave them out`,
    );
  const extra = unknownKey(options, REGISTRATION_KEYS);
  if (extra !== undefined)
    throw wiringError(
      'API_WIRING_UNKNOWN_OPTION',
      where,
      `unknown option "${extra}"`,
      `use only attempts and backoff, ${fix}`,
    );
  const attempts: unknown = options.attempts ?? 1;
  const backoff: unknown = options.backoff;
  if (!(typeof attempts === 'number' && Number.isSafeInteger(attempts) && attempts >= 1))
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      where,
      `attempts ${showValue(attempts)} is not a whole number ≥ 1`,
      'the runs of an item in all, the first included (default 1: no retry)',
    );
  if (backoff !== undefined) {
    const problem = backoffProblem(backoff);
    if (problem !== undefined)
      throw wiringError(
        'API_WIRING_INVALID_ARGUMENT',
        where,
        problem,
        "milliseconds (e.g. 1_000), or { type: 'fixed' | 'exponential', delay, jitter? }",
      );
    if (attempts < 2)
      throw wiringError(
        'API_WIRING_TASKS_RETRY',
        where,
        'a backoff without attempts ≥ 2 would never be used (a failure is final)',
        'add attempts, e.g. { attempts: 3, backoff }',
      );
  }
  if (attempts === 1) return undefined;
  if (!supported)
    throw wiringError(
      'API_WIRING_TASKS_RETRY',
      where,
      `the ${backend} backend does not retry failed items (attempts ${attempts}${backoff === undefined ? '' : ', backoff'})`,
      "retry inside the handler, or use bullmqBackend({ … }), where attempts and backoff are BullMQ's own job options",
    );
  return { attempts, backoff: backoff as TaskBackoff | undefined };
}

/**
 * Checks an add's options and returns the delay in milliseconds (0: none). A mistake, or a delay
 * on a backend that cannot delay, is a `TypeError`: nothing is enqueued.
 */
export function checkAddOptions(
  where: string,
  options: TaskAddOptions | undefined,
  supported: boolean,
  backend: string,
): number {
  if (options === undefined) return 0;
  if (!plainObject(options))
    throw new TypeError(
      `${where}: the options are ${showValue(options)}, not an object; nothing was enqueued. Fix: pass { delay: milliseconds }, or leave them out`,
    );
  const extra = unknownKey(options, ADD_KEYS);
  if (extra !== undefined)
    throw new TypeError(
      `${where}: unknown option "${extra}"; nothing was enqueued. Fix: the only add option is delay (milliseconds)`,
    );
  const { delay = 0 } = options;
  if (!isMs(delay))
    throw new TypeError(
      `${where}: delay ${showValue(delay)} is not a whole number of milliseconds ≥ 0; nothing was enqueued`,
    );
  if (delay > 0 && !supported)
    throw new TypeError(
      `${where}: the ${backend} backend cannot delay an item (delay ${delay} ms); nothing was enqueued. Fix: use bullmqBackend({ … }) for delayed items, or wait before you add`,
    );
  return delay;
}

/** True when two retry policies are the same. */
export function sameRetry(a: RetryPolicy, b: RetryPolicy): boolean {
  return a.attempts === b.attempts && JSON.stringify(a.backoff) === JSON.stringify(b.backoff);
}
