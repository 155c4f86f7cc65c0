import { wiringError } from '../../contract/wiring-error';
import type { Logger } from '../../logging/logger';
import { normalizePercentEncoding } from '../../routing/normalize-path';
import { CoreExchange } from '../../responses/core-exchange';
import type { Runtime } from '../../runtime/runtime';
import { FetchRequest } from './fetch-request';
import { FetchResponse } from './fetch-response';
import { SERVER_HEADER_CAP } from './server-bounds';
import type { AppHost } from '../host';
import { NOT_STARTED_BODY, refuseSize } from '../request-checks';
import { probeHeaders, probeWhileStarting } from '../../runtime/health';

/**
 * The fetch entry of an app (`app.fetch`): an app nobody started is started for the fetch transport
 * on the first call; one already started (e.g. by `serve()`) answers as it is; one that failed to
 * start answers the not-started 503 (logged).
 *
 * An answer decided within the call (every buffered answer of a synchronous route) is returned as
 * the `Response` itself, as Hono's `fetch` does: no promise and no microtask hop per request
 * (~8% of a `GET`'s CPU on Bun, in-process); anything that waits (a body read, an async handler, the
 * start) returns a promise. Every fetch server takes either (`Bun.serve`, `Deno.serve`, workerd).
 *
 * @param host - The app as its transports see it.
 */
export function fetchEntry(host: AppHost): (request: Request) => Response | Promise<Response> {
  return (request) => {
    const runtime = host.runtime;
    if (runtime === undefined) return startThenAnswer(host, request);
    try {
      return answerFetch(runtime, request);
    } catch (error) {
      // Not expected (the dispatch answers its own failures): the caller sees a rejection, as before.
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  };
}

/** The first request(s) of an app not started yet: a probe answered at once, anything else after the start. */
async function startThenAnswer(host: AppHost, request: Request): Promise<Response> {
  const probe = answerProbeWhileStarting(host, request);
  if (probe !== undefined) return probe;
  try {
    await host.start(host.starting ? {} : { transport: 'fetch' });
  } catch (error) {
    return notStarted(host.log, host.name, error);
  }
  return answerFetch(host.runtime!, request);
}

/**
 * A probe before the app has started: answered at once (liveness 200, readiness 503 starting), not
 * after the start; an app nobody started starts now, as for any first request.
 */
function answerProbeWhileStarting(host: AppHost, request: Request): Response | undefined {
  if (host.health === undefined) return undefined;
  const answer = probeWhileStarting(host.health, request.method, new URL(request.url).pathname);
  if (answer === undefined) return undefined;
  if (!host.starting)
    host
      .start({ transport: 'fetch' })
      .catch((error: unknown) => host.log.error(`${host.name} failed to start`, error));
  const headers = probeHeaders();
  const init: [string, string][] = [];
  for (let i = 0; i < headers.length; i += 2) init.push([headers[i]!, headers[i + 1]!]);
  return new Response(request.method === 'HEAD' ? null : answer.body, {
    status: answer.status,
    headers: init,
  });
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
export function answerFetch(runtime: Runtime, request: Request): Response | Promise<Response> {
  const href = request.url;
  const { origin, pathname, search } = partsOf(href);
  let path = pathname;
  // One spelling for routing, binding and assets, as on node:http.
  if (path.includes('%')) path = normalizePercentEncoding(path);
  const req = new FetchRequest(
    request,
    search === '' ? pathname : pathname + search,
    // Read off the serialized URL, not off `origin` (a substring: JavaScriptCore resolves it first).
    href.charCodeAt(4) === 115 /* "https:" */ ? 'https' : 'http',
    origin,
  );
  const method = request.method;
  const res = new FetchResponse(request, method === 'HEAD');
  const ex = new CoreExchange(runtime, req, res, method, path, search.slice(1));
  // The header lines are counted, not copied (read only when something reads a header), and only
  // when the runtime's server does not already refuse more than the limit (server-bounds.ts).
  const maxHeaders = runtime.limits.maxHeaders;
  runtime.dispatch(
    ex,
    refuseSize(
      maxHeaders < SERVER_HEADER_CAP && req.headerCount > maxHeaders ? req.rawHeaders : NO_LINES,
      pathname.length + search.length,
      maxHeaders,
    ),
  );
  // The client leaving is watched only where it matters (see FetchResponse.watchClient): a
  // request's signal or deadline, a stream.
  return res.outcome();
}
const NO_LINES: readonly string[] = [];

interface UrlParts {
  readonly origin: string;
  readonly pathname: string;
  /** `?` and the query, or empty (as `URL.search`). */
  readonly search: string;
}

/**
 * A request's origin, path and query, as `new URL(href)` gives them, without building a `URL`:
 * `request.url` is already a serialized URL (normalized by the runtime's parser), so its parts are
 * where the serializer put them. An `http(s)` URL with no userinfo is split; anything else is parsed.
 */
export function partsOf(href: string): UrlParts {
  const https = href.startsWith('https://');
  if (https || href.startsWith('http://')) {
    const authority = https ? 8 : 7;
    const slash = href.indexOf('/', authority);
    if (slash > authority && href.lastIndexOf('@', slash) < authority) {
      const hash = href.indexOf('#', slash);
      const end = hash < 0 ? href.length : hash;
      const mark = href.indexOf('?', slash);
      const query = mark < 0 || mark > end ? end : mark;
      return {
        origin: href.slice(0, slash),
        pathname: href.slice(slash, query),
        // A lone "?" is an empty query: URL.search is "" for it.
        search: end - query > 1 ? href.slice(query, end) : '',
      };
    }
  }
  const url = new URL(href);
  return { origin: url.origin, pathname: url.pathname, search: url.search };
}

/** The answer when the app failed to start: a logged 503 Problem, as node:http's listener gives. */
function notStarted(log: Logger, appName: string, error: unknown): Response {
  log.error(`${appName} failed to start`, error);
  return new Response(NOT_STARTED_BODY, {
    status: 503,
    headers: { 'content-type': 'application/problem+json' },
  });
}
