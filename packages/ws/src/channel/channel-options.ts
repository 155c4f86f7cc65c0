// The options of `new Channel(schema, options)`, checked where the channel is built: a mistake is
// a WiringError naming the option and the fix (channels are built while the app wires).
import { consoleLogger, type Logger } from '@api/core';
import { checkKnownKeys, describeValue, isPlainObject, wiringError } from '@api/core/extension';
import type { Backplane } from './backplane';
import type { Overflow } from './bounded-writer';
import type { Subscriber } from './subscriber';

/** The defaults of `ChannelOptions`. */
export const CHANNEL_DEFAULTS = { queueSize: 64, maxBufferedBytes: 1024 * 1024, overflow: 'close' } as const;

const KNOWN = ['queueSize', 'overflow', 'maxBufferedBytes', 'backplane', 'log', 'onOverflow'];
const BACKPLANE_METHODS = ['open', 'subscribe', 'unsubscribe', 'publish', 'close'] as const;

/** `ChannelOptions.onOverflow`. */
type OnOverflow = ((subscriber: Subscriber, action: 'closed' | 'dropped') => void) | undefined;

/** The options a channel runs with, every one checked. */
export interface CheckedChannelOptions {
  readonly queueSize: number;
  readonly maxBytes: number;
  readonly overflow: Overflow;
  readonly backplane: Backplane | undefined;
  readonly log: Logger;
  readonly onOverflow: OnOverflow;
}

const WHERE = 'new Channel(schema, options)';

/** A number as written (a bound the app set); anything else by its kind (`describeValue`). */
function given(value: unknown): string {
  return typeof value === 'number' ? String(value) : describeValue(value);
}

function fail(problem: string, fix: string): never {
  throw wiringError('API_WIRING_INVALID_ARGUMENT', WHERE, problem, fix);
}

/**
 * Checks a channel's options: whole positive bounds, a known overflow policy, a `Backplane`, a
 * logger, a callback, and no unknown keys (a misspelt `queuesize` would silently keep the default).
 *
 * @param options - what `new Channel(schema, options)` was given
 */
export function checkChannelOptions(options: unknown): CheckedChannelOptions {
  if (options === undefined) options = {};
  if (!isPlainObject(options))
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      WHERE,
      `options must be an object, got ${given(options)}`,
      'e.g. new Channel(schema, { queueSize: 64 }), or leave options out',
    );
  const o = options;
  checkKnownKeys(WHERE, o, KNOWN, 'names are case-sensitive');
  const queueSize = o.queueSize ?? CHANNEL_DEFAULTS.queueSize;
  if (!Number.isSafeInteger(queueSize) || (queueSize as number) < 1)
    throw wiringError(
      'API_WIRING_LIMIT',
      WHERE,
      `queueSize must be a whole number of frames ≥ 1, got ${given(o.queueSize)}`,
      `e.g. queueSize: 64 (the default), or leave it out`,
    );
  const maxBytes = o.maxBufferedBytes ?? CHANNEL_DEFAULTS.maxBufferedBytes;
  if (!Number.isSafeInteger(maxBytes) || (maxBytes as number) < 1)
    throw wiringError(
      'API_WIRING_LIMIT',
      WHERE,
      `maxBufferedBytes must be a whole number of bytes ≥ 1, got ${given(o.maxBufferedBytes)}`,
      `e.g. maxBufferedBytes: 1024 * 1024 (the default, 1 MiB), or leave it out`,
    );
  const overflow = o.overflow ?? CHANNEL_DEFAULTS.overflow;
  if (overflow !== 'close' && overflow !== 'drop-oldest')
    fail(
      `overflow must be 'close' or 'drop-oldest', got ${given(o.overflow)}`,
      `overflow: 'close' (1013 to a subscriber that falls behind, the default) or 'drop-oldest'`,
    );
  const backplane = o.backplane;
  if (backplane !== undefined) {
    const missing = BACKPLANE_METHODS.filter(
      (m) =>
        typeof backplane !== 'object' ||
        backplane === null ||
        typeof (backplane as Record<string, unknown>)[m] !== 'function',
    );
    if (missing.length > 0)
      fail(
        `backplane must be a Backplane (${BACKPLANE_METHODS.join(', ')}), got ${given(backplane)}${typeof backplane === 'object' && backplane !== null ? ` without ${missing.join(', ')}` : ''}`,
        'pass redisBackplane(redis) from @api/ws, or an object implementing Backplane',
      );
  }
  const log = o.log ?? consoleLogger;
  if (
    typeof log !== 'object' ||
    log === null ||
    !['info', 'warn', 'error'].every((m) => typeof (log as Record<string, unknown>)[m] === 'function')
  )
    fail(
      `log must be a Logger (info, warn, error), got ${given(o.log)}`,
      "pass the app's logger, or leave it out",
    );
  if (o.onOverflow !== undefined && typeof o.onOverflow !== 'function')
    fail(
      `onOverflow must be a function, got ${given(o.onOverflow)}`,
      'onOverflow: (subscriber, action) => log.warn(`subscriber ${action}`), or leave it out',
    );
  return {
    queueSize: queueSize as number,
    maxBytes: maxBytes as number,
    overflow,
    backplane: backplane as Backplane | undefined,
    log: log as Logger,
    onOverflow: o.onOverflow as OnOverflow,
  };
}
