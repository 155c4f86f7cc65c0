import { DEFAULT_MAX_ANSWER_BYTES, type InvokeAnswer, type InvokeRequest } from '../../contract/invoke';
import { wiringError } from '../../contract/wiring-error';
import { CoreExchange } from '../../responses/core-exchange';
import { normalizePercentEncoding } from '../../routing/normalize-path';
import type { Runtime } from '../../runtime/runtime';
import type { AppHost } from '../host';
import { refuseSize } from '../request-checks';
import { DirectRequest } from './direct-request';
import { DirectResponse } from './direct-response';

/** A method: an HTTP token. */
const METHOD = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/**
 * `wiring.invoke`: a request described in plain fields answered through the started app's runtime,
 * whichever transport started it; before the start has finished it rejects (an invoke from
 * `wire()` would wait on itself).
 *
 * @param host - The app as its transports see it.
 */
export function invokeEntry(host: AppHost): (request: InvokeRequest) => Promise<InvokeAnswer> {
  return (request) => {
    const runtime = host.runtime;
    if (runtime === undefined)
      return Promise.reject(
        wiringError(
          'API_WIRING_APP_STATE',
          'wiring.invoke',
          `${host.name} has not finished starting, so no route can answer yet`,
          'call invoke while answering a request, not from setup or onWired',
        ),
      );
    try {
      return answerDirect(runtime, request);
    } catch (error) {
      // A malformed description (the caller's mistake): the promise rejects, as every other failure does.
      return Promise.reject(error instanceof Error ? error : new TypeError(String(error)));
    }
  };
}

/**
 * Answers one `InvokeRequest` through the app's runtime: the same router, plans, runner and funnel
 * as node:http and `app.fetch`, fed by a `DirectRequest`, answered into a `DirectResponse`. Throws
 * a `TypeError` for a method that is no token or a path not in origin-form.
 *
 * @param runtime - The started app's runtime.
 * @param request - The request.
 */
export function answerDirect(runtime: Runtime, request: InvokeRequest): Promise<InvokeAnswer> {
  const { method, path: target } = request;
  if (typeof method !== 'string' || !METHOD.test(method))
    throw new TypeError(
      `wiring.invoke: method must be an HTTP token such as 'GET', got ${JSON.stringify(method)}`,
    );
  if (typeof target !== 'string' || target.charCodeAt(0) !== 47 /* "/" */ || /[?#\s]/.test(target))
    throw new TypeError(
      'wiring.invoke: path must be in origin-form (\'/notes/n1\': a leading "/", no query, no spaces), ' +
        `got ${JSON.stringify(target)}`,
    );
  const query = request.query ?? '';
  const url = query === '' ? target : `${target}?${query}`;
  // One spelling for routing, binding and assets, as on node:http.
  const path = target.includes('%') ? normalizePercentEncoding(target) : target;
  const req = new DirectRequest(request, url);
  const res = new DirectResponse({
    signal: request.signal,
    parent: request.parent,
    head: method === 'HEAD',
    maxBytes: request.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES,
    label: `${method} ${target}`,
  });
  const ex = new CoreExchange(runtime, req, res, method, path, query);
  const maxHeaders = runtime.limits.maxHeaders;
  runtime.dispatch(
    ex,
    refuseSize(req.headerCount > maxHeaders ? req.rawHeaders : NO_LINES, url.length, maxHeaders),
  );
  return res.answer;
}

const NO_LINES: readonly string[] = [];
