import { randomUUID } from 'node:crypto';
import * as v from 'valibot';
import { defineExtension, Struct, type Extension, type Logger } from '@api/core';

const RequestIdHeaders = Struct('RequestIdHeaders', { x_request_id: v.optional(v.pipe(v.string(), v.regex(/^[\w.-]{1,128}$/))) });
const kRequestId = Symbol('requestId');

/** What the extension records per request (exposed for tests). */
export interface RequestLogLine {
  readonly requestId: string;
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly durationMs: number;
}

/**
 * A third-party-style extension written only against core's public extension API: every
 * response carries `x-request-id` (the caller's, when it sent a valid one, else a fresh UUID),
 * and one log line is written per request.
 */
export function requestLog(options: { logger?: Logger; sink?: RequestLogLine[] } = {}): Extension<void> {
  return defineExtension({
    name: 'request-log',
    setup(wiring) {
      const log = options.logger ?? wiring.log;
      const bindHeaders = wiring.headerBinder(RequestIdHeaders, 'request-log');
      const idOf = (ex: { req: Parameters<typeof bindHeaders>[0]; state: Record<string | symbol, unknown> }): string => {
        let id = ex.state[kRequestId] as string | undefined;
        if (id === undefined) {
          let sent: string | undefined;
          try {
            sent = bindHeaders(ex.req).x_request_id;
          } catch {
            sent = undefined; // an invalid id is replaced, never echoed
          }
          id = sent ?? randomUUID();
          ex.state[kRequestId] = id;
        }
        return id;
      };
      wiring.addContributor(() => ({
        order: 25,
        dynamicHeaders: (ex) => [['x-request-id', idOf(ex)]],
        observe: (ex, status, durationMs) => {
          const line: RequestLogLine = { requestId: idOf(ex), method: ex.method, path: ex.path, status, durationMs };
          options.sink?.push(line);
          log.info(`${line.method} ${line.path} ${status} ${durationMs.toFixed(1)}ms id=${line.requestId}`);
        },
      }));
    },
  });
}
