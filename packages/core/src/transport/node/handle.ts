// The node:http listeners: a request (or an upgrade request) becomes an exchange the runtime
// dispatches. The only place that turns node's request objects into core's exchange; `app.listener`
// and `app.upgradeListener` are built here.
import type { Socket } from 'node:net';
import { ServerResponse, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { normalizePercentEncoding, toOriginForm } from '../../routing/normalize-path';
import { CoreExchange } from '../../responses/core-exchange';
import type { Runtime } from '../../runtime/runtime';
import {
  MalformedRequestError,
  RequestHeaderFieldsTooLargeError,
  URITooLongError,
  type BaseHTTPError,
} from '../../errors';
import type { AppHost } from '../host';
import { MAX_TARGET, NOT_STARTED_BODY } from '../request-checks';
import { isClosing } from './linger';
import { probeHeaders, probeWhileStarting } from '../../runtime/health';
import type { HealthPaths } from '../../contract/serving-options';

/**
 * The node:http request listener of an app (`app.listener`): starts the app on the first request if
 * nobody did; an app that failed to start answers the not-started 503 (logged).
 *
 * @param host - The app as its transports see it.
 */
export function nodeListener(host: AppHost): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const runtime = host.runtime;
    if (runtime !== undefined) {
      handleRequest(runtime, req, res);
      return;
    }
    // A probe while the app starts: live, not ready. A probe is a request like any other: an app
    // nobody started starts now (its readiness would otherwise wait for traffic a load balancer
    // sends only once it is ready).
    if (answerProbeWhileStarting(host.health, req, res)) {
      if (!host.starting)
        host.start().catch((error: unknown) => host.log.error(`${host.name} failed to start`, error));
      return;
    }
    host.start().then(
      () => handleRequest(host.runtime!, req, res),
      (error: unknown) => {
        host.log.error(`${host.name} failed to start`, error);
        answerNotStarted(res);
      },
    );
  };
}

/**
 * The node:http `upgrade` listener of an app (`app.upgradeListener`): upgrade requests run through
 * the same router and plans; before the app has started the socket is closed.
 *
 * @param host - The app as its transports see it.
 */
export function nodeUpgradeListener(
  host: AppHost,
): (req: IncomingMessage, socket: Duplex, head: Buffer) => void {
  return (req, socket, head) => {
    const runtime = host.runtime;
    if (runtime === undefined) socket.destroy();
    else handleUpgrade(runtime, req, socket, head);
  };
}

/**
 * node:http's `request` event (and `handleUpgrade`'s): builds the exchange from the request
 * target, then `dispatch`es it.
 *
 * @param runtime - The started app's runtime.
 * @param req - node's request.
 * @param res - node's response.
 * @param upgradeHead - The bytes after an upgrade request's head (upgrade requests only).
 */
export function handleRequest(
  runtime: Runtime,
  req: IncomingMessage,
  res: ServerResponse,
  upgradeHead?: Buffer,
): void {
  // A request pipelined behind its connection's last response (node queues its response without
  // a socket) is never answered: that connection closes after the answer already decided.
  if (res.socket === null && isClosing(req.socket)) return;
  const target = req.url ?? '/';
  // Origin-form ("/…") is the common case: one char check. Absolute-form routes like it.
  const url = target.charCodeAt(0) === 47 ? target : toOriginForm(target);
  const q = url === undefined ? -1 : url.indexOf('?');
  let path = url === undefined ? target : q < 0 ? url : url.slice(0, q);
  // Percent-encoded octets compare case-insensitively, an encoded unreserved character equals
  // the plain one: normalized once here, so routing, binding, assets and hooks see one spelling.
  if (path.includes('%')) path = normalizePercentEncoding(path);
  const ex = new CoreExchange(
    runtime,
    req,
    res,
    req.method ?? 'GET',
    path,
    url === undefined || q < 0 ? '' : url.slice(q + 1),
  );
  if (upgradeHead !== undefined) ex.acceptUpgrade({ head: upgradeHead, request: req, response: res });
  runtime.dispatch(
    ex,
    url === undefined ? badRequest(BAD_TARGET) : refuseNodeRequest(req, target, runtime.limits.maxHeaders),
  );
}

/**
 * The `upgrade` event: the request gets a real response object on the socket, so it runs through
 * the same router, plans and funnel as any request; the upgrade route accepts with `takeOver()`.
 *
 * @param runtime - The started app's runtime.
 * @param req - node's request.
 * @param socket - The connection.
 * @param head - The bytes after the request's head.
 */
export function handleUpgrade(runtime: Runtime, req: IncomingMessage, socket: Duplex, head: Buffer): void {
  // node:http stops watching an upgraded socket; a reset must not crash the process.
  socket.on('error', () => socket.destroy());
  const res = new ServerResponse(req);
  res.shouldKeepAlive = false;
  res.assignSocket(socket as Socket);
  // Every answer that is not a takeover ends the connection.
  res.once('finish', () => socket.end());
  handleRequest(runtime, req, res, head);
}

/**
 * The answer when the app failed to start, on node:http: the not-started Problem (the listener
 * logged the failure).
 *
 * @param res - node's response.
 */
function answerNotStarted(res: ServerResponse): void {
  if (res.headersSent) return;
  res.writeHead(503, { 'content-type': 'application/problem+json', connection: 'close' });
  res.end(NOT_STARTED_BODY);
}

const BAD_TARGET = 'The request target is not a valid absolute URI (userinfo or an empty host)';

function badRequest(reason: string): MalformedRequestError {
  return new MalformedRequestError({ reason, issues: [{ path: 'request', message: reason }] });
}

/**
 * Wire checks node:http leaves to the app, before routing: the size checks (431, 414), exactly
 * one Host on HTTP/1.1 (400), and a transfer-encoding that is exactly `chunked` (400).
 */
function refuseNodeRequest(req: IncomingMessage, url: string, maxHeaders: number): BaseHTTPError | undefined {
  const raw = req.rawHeaders;
  // The size checks of `refuseSize` (request-checks.ts), inline: this runs on every request.
  if (raw.length > maxHeaders * 2) return new RequestHeaderFieldsTooLargeError();
  if (url.length > MAX_TARGET) return new URITooLongError();
  let hosts = 0;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    // Exact spellings first: lowercasing every 4-letter name costs more than the comparisons.
    if (name.length === 4 && (name === 'Host' || name === 'host' || name.toLowerCase() === 'host')) hosts++;
  }
  if (hosts > 1) return badRequest('The request has more than one Host header');
  if (hosts === 0 && req.httpVersionMajor === 1 && req.httpVersionMinor >= 1)
    return badRequest('The request has no Host header (required by HTTP/1.1)');
  const te = req.headers['transfer-encoding'];
  if (te !== undefined && te.toLowerCase() !== 'chunked')
    return badRequest('transfer-encoding must be exactly "chunked"');
  return undefined;
}

/**
 * A probe that arrives while the app starts (node:http listener): liveness `200`, readiness
 * `503 {"status":"starting"}`. False when `req` is not a probe (it waits for the start).
 *
 * @param health - the app's probe paths, if it answers probes
 * @param req - node's request
 * @param res - node's response
 */
function answerProbeWhileStarting(
  health: HealthPaths | undefined,
  req: IncomingMessage,
  res: ServerResponse,
): boolean {
  if (health === undefined) return false;
  const target = req.url ?? '/';
  const q = target.indexOf('?');
  const answer = probeWhileStarting(health, req.method ?? 'GET', q < 0 ? target : target.slice(0, q));
  if (answer === undefined) return false;
  res.writeHead(answer.status, [...probeHeaders(), 'content-length', String(answer.body.length)]);
  res.end(req.method === 'HEAD' ? undefined : answer.body);
  return true;
}
