// The logger's call shape: what core and extensions write to, and what an app's `logger` option
// takes. The adapter that turns it into a pino logger's calls is logging/logger.ts.

/** Structured fields of one log line (`method`, `path`, `route`, `requestId`, a status, …). */
export type LogFields = Readonly<Record<string, unknown>>;

/**
 * The logger core and extensions write to: a message, the error (logged as structured `err`
 * fields by a structured logger, never interpolated), and optional fields. An app's `logger`
 * option takes this shape, or a pino logger as it is (see `AppOptions.logger`).
 */
export interface Logger {
  info(message: string, fields?: LogFields): void;
  warn(message: string, error?: unknown, fields?: LogFields): void;
  error(message: string, error?: unknown, fields?: LogFields): void;
}

/**
 * A logger called as `(obj, msg)`: pino's shape (bunyan's too). Pass one as the app's `logger` as
 * it is: core calls `info(fields, message)`, and `error({ ...fields, err }, message)` with the
 * error itself as `err` (pino's `err` serializer writes its type, message and stack).
 */
export interface StructuredLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
  /** How core tells this shape from `Logger`'s: pino and bunyan loggers have `child`. */
  child(bindings: Record<string, unknown>): unknown;
}
