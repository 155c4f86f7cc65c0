// The node:http listeners: a request (or an upgrade request) becomes an exchange the runtime
// dispatches. The only place that turns node's request objects into core's exchange.
import type { Socket } from 'node:net';
import { ServerResponse, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { normalizePercentEncoding, toOriginForm } from '../../routing/normalize-path';
import { CoreExchange } from '../../runtime/exchange';
import type { Runtime } from '../../runtime/runtime';
import { BAD_TARGET, NOT_STARTED_BODY, badRequest, refuseNodeRequest } from '../request-checks';
import { isClosing } from './linger';
import { probeHeaders, STARTING } from '../../runtime/health';
import type { HealthPaths } from '../../contract/serving-options';

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
  if (upgradeHead !== undefined) ex.upgrade = { head: upgradeHead, request: req, response: res };
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
 * The answer when the app failed to start, on node:http: the not-started Problem (the app's
 * listener logged the failure).
 *
 * @param res - node's response.
 */
export function answerNotStarted(res: ServerResponse): void {
  if (res.headersSent) return;
  res.writeHead(503, { 'content-type': 'application/problem+json', connection: 'close' });
  res.end(NOT_STARTED_BODY);
}

/**
 * A probe that arrives while the app starts (node:http listener): liveness `200`, readiness
 * `503 {"status":"starting"}`. False when `req` is not a probe (it waits for the start).
 *
 * @param health - the app's probe paths, if it answers probes
 * @param req - node's request
 * @param res - node's response
 */
export function answerProbeWhileStarting(
  health: HealthPaths | undefined,
  req: IncomingMessage,
  res: ServerResponse,
): boolean {
  if (health === undefined || (req.method !== 'GET' && req.method !== 'HEAD')) return false;
  const target = req.url ?? '/';
  const q = target.indexOf('?');
  const path = q < 0 ? target : target.slice(0, q);
  const live = path === health.livePath;
  if (!live && path !== health.readyPath) return false;
  const body = live ? '{"status":"ok"}' : STARTING;
  res.writeHead(live ? 200 : 503, [...probeHeaders(), 'content-length', String(body.length)]);
  res.end(req.method === 'HEAD' ? undefined : body);
  return true;
}
