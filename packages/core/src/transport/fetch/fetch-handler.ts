import { RequestHeaderFieldsTooLargeError, URITooLongError, type BaseHTTPError } from '../../errors';
import type { Logger } from '../../logging/logger';
import { normalizePercentEncoding } from '../../routing/normalize-path';
import { CoreExchange } from '../../runtime/exchange';
import type { Runtime } from '../../runtime/runtime';
import { FetchRequest } from './fetch-request';
import { FetchResponse } from './fetch-response';

/** The longest request target served (longer: 414), as on node:http. */
const MAX_TARGET = 8 * 1024;

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
  const req = new FetchRequest(request, url.pathname + url.search);
  const method = request.method;
  const res = new FetchResponse(method === 'HEAD');
  const ex = new CoreExchange(runtime, req, res, method, path, url.search.slice(1));
  runtime.dispatch(ex, refuse(req, url, runtime.limits.maxHeaders));
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

/** The checks node:http leaves to the app that a fetch request can fail: header count (431), target length (414). */
function refuse(req: FetchRequest, url: URL, maxHeaders: number): BaseHTTPError | undefined {
  if (req.rawHeaders.length > maxHeaders * 2) return new RequestHeaderFieldsTooLargeError();
  if (url.pathname.length + url.search.length > MAX_TARGET) return new URITooLongError();
  return undefined;
}

/** The answer when the app failed to start: a logged 503 Problem, as node:http's listener gives. */
export function notStarted(log: Logger, appName: string, error: unknown): Response {
  log.error(`${appName} failed to start`, error);
  return new Response('{"type":"service-unavailable","title":"Service unavailable","status":503}', {
    status: 503,
    headers: { 'content-type': 'application/problem+json' },
  });
}
