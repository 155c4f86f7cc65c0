// The app's logger: what `logger` accepts, and the one adapter that turns core's call shape
// `(message, error?, fields?)` into the user logger's. Every log call in core and in the packages
// keeps that shape; the structure (fields, `err`) is added here, in one place.
import { inspect } from 'node:util';
import type { LogFields, Logger, StructuredLogger } from '../contract/logger';

export type { LogFields, Logger, StructuredLogger } from '../contract/logger';

/** True for a logger called as `(obj, msg)` (it has `child`, as pino and bunyan loggers do). */
export function isStructuredLogger(logger: Logger | StructuredLogger): logger is StructuredLogger {
  return typeof (logger as { child?: unknown }).child === 'function';
}

/**
 * The logger core writes to, from the app's `logger` option: the console logger when absent, an
 * adapter for a structured (pino) logger, the object itself otherwise.
 */
export function adaptLogger(logger: Logger | StructuredLogger | undefined): Logger {
  if (logger === undefined) return consoleLogger;
  if (!isStructuredLogger(logger)) return logger;
  // Bound once: pino's methods read `this`.
  const info = logger.info.bind(logger);
  const warn = logger.warn.bind(logger);
  const error = logger.error.bind(logger);
  return {
    info: (message, fields) => info(fields ?? {}, message),
    warn: (message, failure, fields) => warn(withError(fields, failure), message),
    error: (message, failure, fields) => error(withError(fields, failure), message),
  };
}

function withError(fields: LogFields | undefined, error: unknown): object {
  if (error === undefined) return fields ?? {};
  return { ...fields, err: error instanceof Error ? error : thrownValue(error) };
}

/**
 * A thrown value that is not an `Error`, shaped for pino's `err` serializer: it reads `type` from
 * the constructor's name, so the value's kind (`string`, `object`, …) names the constructor, and
 * the value itself is the `message`.
 */
function thrownValue(value: unknown): object {
  const type = value === null ? 'null' : typeof value;
  const Thrown = { [type]: class {} }[type]!;
  return Object.assign(new Thrown(), {
    message: typeof value === 'string' ? value : inspect(value, { depth: 2, breakLength: Infinity }),
  });
}

/** `message key=value …`: strings with spaces, quotes or control characters are JSON-quoted. */
export function formatLine(message: string, fields: LogFields | undefined): string {
  if (fields === undefined) return message;
  let line = message;
  for (const key in fields) {
    const value = fields[key];
    if (value === undefined) continue;
    line += ` ${key}=${formatValue(value)}`;
  }
  return line;
}

const BARE = /^[!#-~]+$/;

function formatValue(value: unknown): string {
  if (typeof value === 'string') return BARE.test(value) ? value : JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return `${value}`;
  return inspect(value, { depth: 2, breakLength: Infinity });
}

/**
 * The default logger: one readable line per message (`message key=value …`) — info on stdout,
 * warnings and errors on stderr, an error's stack on the lines after its message.
 */
export const consoleLogger: Logger = {
  info: (message, fields) => console.log(formatLine(message, fields)),
  warn: (message, error, fields) =>
    error === undefined
      ? console.warn(formatLine(message, fields))
      : console.warn(formatLine(message, fields), error),
  error: (message, error, fields) =>
    error === undefined
      ? console.error(formatLine(message, fields))
      : console.error(formatLine(message, fields), error),
};
