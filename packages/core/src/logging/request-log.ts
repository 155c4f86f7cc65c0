import type { Exchange } from '../contract/exchange';
import type { Logger } from './logger';
import type { RouteContribution } from '../contract/contribution';

/**
 * The access log (the app's `requestLog: true`): one info line per finished request — `request
 * finished` with method, route template, path, status, duration, bytes out and request id — and,
 * for a connection an upgrade route took over, one `connection closed` line when it ends, with its
 * lifetime and close code (and no byte count: the protocol owns the socket by then). Contributed to
 * every route and to unrouted answers at wiring; an app without it has none of this on its request
 * path.
 *
 * @param log - the app's logger (the line carries its own request fields)
 */
export function requestLogContribution(log: Logger): RouteContribution {
  return {
    observe: (ex, status, durationMs) => {
      // A takeover is logged once, when the connection ends (below).
      if (status === 101 && ex.upgrade !== undefined) return;
      const fields = lineFields(ex, status, durationMs);
      if (!ex.res.writableFinished) fields.aborted = true;
      log.info('request finished', fields);
    },
    observeClose: (ex, closed) => {
      const fields = lineFields(ex, 101, closed.durationMs, false);
      if (closed.code !== undefined) fields.closeCode = closed.code;
      log.info('connection closed', fields);
    },
  };
}

function lineFields(ex: Exchange, status: number, durationMs: number, bytes = true): Record<string, unknown> {
  // One literal, one shape: loggers skip the undefined members (no route on a 404, no byte count
  // for a closed upgraded connection).
  return {
    method: ex.method,
    route: ex.route?.path,
    path: ex.path,
    status,
    durationMs: Math.round(durationMs * 1000) / 1000,
    bytes: bytes ? ex.bytesOut : undefined,
    requestId: ex.requestId,
  };
}
