import type { LogFields, Logger } from './logger';
import type { RouteInfo } from '../contract/route-info';

/** What the per-request view reads from its exchange, when (and only when) something is logged. */
export interface LoggedRequest {
  readonly method: string;
  readonly path: string;
  readonly route: RouteInfo | undefined;
  readonly requestId: string;
}

/**
 * The app's logger as one request sees it (`ex.log`): each line carries `method`, `path`, `route`
 * (the template, once routed) and `requestId` (when the app has request ids), then the call's own
 * fields. Call sites keep core's `(message, error?, fields?)` shape; nothing is built until a line
 * is written.
 */
export class RequestLogger implements Logger {
  readonly #log: Logger;
  readonly #request: LoggedRequest;
  readonly #ids: boolean;

  constructor(log: Logger, request: LoggedRequest, ids: boolean) {
    this.#log = log;
    this.#request = request;
    this.#ids = ids;
  }

  info(message: string, fields?: LogFields): void {
    this.#log.info(message, this.#fields(fields));
  }

  warn(message: string, error?: unknown, fields?: LogFields): void {
    this.#log.warn(message, error, this.#fields(fields));
  }

  error(message: string, error?: unknown, fields?: LogFields): void {
    this.#log.error(message, error, this.#fields(fields));
  }

  #fields(extra: LogFields | undefined): LogFields {
    const request = this.#request;
    const fields: Record<string, unknown> = { method: request.method, path: request.path };
    const route = request.route;
    if (route !== undefined) fields.route = route.path;
    if (this.#ids) fields.requestId = request.requestId;
    if (extra !== undefined) Object.assign(fields, extra);
    return fields;
  }
}
