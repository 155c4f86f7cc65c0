import { randomUUID } from 'node:crypto';
import * as v from 'valibot';
import { defineMiddleware, Struct, type Logger, type Request } from '@api/core';
import { defineExtension, type Extension } from '@api/core/extension';

const RequestIdHeaders = Struct('RequestIdHeaders', { x_request_id: v.optional(v.string()) });
const VALID_ID = /^[\w.-]{1,128}$/;

/** What the extension records per request (exposed for tests). */
export interface RequestLogLine {
  readonly requestId: string;
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly durationMs: number;
}

/**
 * A third-party-style extension written only against core's public API: it compiles one
 * middleware object and contributes it to every route (unrouted answers included). Each
 * response carries `x-request-id` (the caller's, when it sent a valid one, else a fresh UUID),
 * and one log line is written per request.
 */
export function requestLog(options: { logger?: Logger; sink?: RequestLogLine[] } = {}): Extension<void> {
  return defineExtension({
    name: 'request-log',
    setup(wiring) {
      const log = options.logger ?? wiring.log;
      // The request view is built once per request, so it can key the request's id.
      const ids = new WeakMap<Request<unknown>, string>();
      const idOf = (request: Request<{ x_request_id?: string | undefined }>): string => {
        let id = ids.get(request);
        if (id === undefined) {
          const sent = request.headers.x_request_id;
          id = sent !== undefined && VALID_ID.test(sent) ? sent : randomUUID(); // an invalid id is replaced, never echoed
          ids.set(request, id);
        }
        return id;
      };
      const middleware = defineMiddleware({
        headers: RequestIdHeaders,
        responseHeaders: (request) => ({ 'x-request-id': idOf(request) }),
        observe: (request, status, durationMs) => {
          const line: RequestLogLine = {
            requestId: idOf(request),
            method: request.method,
            path: request.path,
            status,
            durationMs,
          };
          options.sink?.push(line);
          log.info(`${line.method} ${line.path} ${status} ${durationMs.toFixed(1)}ms id=${line.requestId}`);
        },
      });
      const contribution = wiring.compileMiddleware('request-log', [middleware], 25);
      wiring.addContributor(() => contribution);
    },
  });
}
