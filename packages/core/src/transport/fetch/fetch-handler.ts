import { wiringError } from '../../contract/wiring-error';
import type { Logger } from '../../logging/logger';
import { normalizePercentEncoding } from '../../routing/normalize-path';
import { CoreExchange } from '../../responses/core-exchange';
import type { Runtime } from '../../runtime/runtime';
import { FetchRequest } from './fetch-request';
import { FetchResponse } from './fetch-response';
import type { AppHost } from '../host';
import { NOT_STARTED_BODY, refuseSize } from '../request-checks';

/**
 * The fetch entry of an app (`app.fetch`): an app nobody started is started for the fetch transport
 * on the first call; one already started (e.g. by `serve()`) answers as it is; one that failed to
 * start answers the not-started 503 (logged).
 *
 * @param host - The app as its transports see it.
 */
export function fetchEntry(host: AppHost): (request: Request) => Promise<Response> {
  return async (request) => {
    if (host.runtime === undefined)
      try {
        await host.start(host.starting ? {} : { transport: 'fetch' });
      } catch (error) {
        return notStarted(host.log, host.name, error);
      }
    return answerFetch(host.runtime!, request);
  };
}

/**
 * `wiring.dispatch`: a `Request` answered through the started app's runtime, whichever transport
 * started it; before the start has finished it rejects (a dispatch from `wire()` would wait on
 * itself).
 *
 * @param host - The app as its transports see it.
 */
export function dispatchEntry(host: AppHost): (request: Request) => Promise<Response> {
  return async (request) => {
    if (host.runtime === undefined)
      throw wiringError(
        'API_WIRING_APP_STATE',
        'wiring.dispatch',
        `${host.name} has not finished starting, so no route can answer yet`,
        'call dispatch while answering a request, not from setup or onWired',
      );
    return answerFetch(host.runtime, request);
  };
}

/**
 * Answers one WHATWG `Request` through the app's runtime: the same router, plans, runner and
 * funnel as node:http, fed by a `FetchRequest` and answered through a `FetchResponse`.
 *
 * @param runtime - The started app's runtime.
 * @param request - The request.
 */
export function answerFetch(runtime: Runtime, request: Request): Promise<Response> {
  const url = new URL(request.url);
  let path = url.pathname;
  // One spelling for routing, binding and assets, as on node:http.
  if (path.includes('%')) path = normalizePercentEncoding(path);
  const req = new FetchRequest(
    request,
    url.pathname + url.search,
    url.protocol === 'https:' ? 'https' : 'http',
    url.origin,
  );
  const method = request.method;
  const res = new FetchResponse(method === 'HEAD');
  const ex = new CoreExchange(runtime, req, res, method, path, url.search.slice(1));
  runtime.dispatch(
    ex,
    refuseSize(req.rawHeaders, url.pathname.length + url.search.length, runtime.limits.maxHeaders),
  );
  // Answered within dispatch (a synchronous route): no client can have left before it. Otherwise a
  // client that leaves before its answer is complete closes the response (a stream's teardown runs).
  // Read only then: `request.signal` is not free (Bun creates it on first read; @hono/node-server
  // builds a full undici Request for it).
  if (!res.writableEnded) closeWhenClientLeaves(request, res);
  return res.response;
}

function closeWhenClientLeaves(request: Request, res: FetchResponse): void {
  const signal = request.signal as AbortSignal | undefined;
  if (signal === undefined || signal.aborted) return;
  const left = (): void => void res.destroy();
  signal.addEventListener('abort', left, { once: true });
  res.once('close', () => signal.removeEventListener('abort', left));
}

/** The answer when the app failed to start: a logged 503 Problem, as node:http's listener gives. */
function notStarted(log: Logger, appName: string, error: unknown): Response {
  log.error(`${appName} failed to start`, error);
  return new Response(NOT_STARTED_BODY, {
    status: 503,
    headers: { 'content-type': 'application/problem+json' },
  });
}
