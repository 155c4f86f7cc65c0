import type { IncomingMessage } from 'node:http';
import WebSocket from 'ws';
import { withQuery } from '../client/request-options';
import { pairRawHeaders, ResponseHead, TestResponse } from '../client/test-response';
import { headerPairs, type HeaderInit } from '../multipart/build-multipart';
import type { WebSocketFraming, WebSocketReceive, WebSocketSend } from './framing';
import { WebSocketDenied } from './websocket-denied';
import { checkWebSocketArguments, type WebSocketSessionOptions } from './websocket-options';
import { Session, type WebSocketSession } from './websocket-session';

/** What a handshake needs from the `TestClient` (kept structural, so this folder never imports it). */
export interface HandshakeTarget {
  /** Starts the app if needed; resolves with the origin it is served on (`http://127.0.0.1:<port>`). */
  origin(): Promise<string>;
  /** The `Cookie` header: the jar merged with `cookies` (`undefined` when there is none to send). */
  cookieHeader(
    cookies: Readonly<Record<string, string>> | undefined,
    headers: HeaderInit | undefined,
  ): string | undefined;
  /** Stores the handshake response's `Set-Cookie` lines in the jar. */
  remember(setCookies: readonly string[]): void;
  /** Tracks an open session until it closes. */
  track(session: WebSocketSession<unknown, unknown>): void;
}

/**
 * Handshake headers for `ws`: names as first written, repeated names sent as repeated header
 * lines (node's `http.request` takes a list value for that).
 */
function handshakeHeaders(
  headers: HeaderInit | undefined,
  cookie: string | undefined,
): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  const nameOf = new Map<string, string>();
  for (const [name, value] of headerPairs(headers)) {
    const key = nameOf.get(name.toLowerCase()) ?? name;
    nameOf.set(name.toLowerCase(), key);
    const prior = out[key];
    out[key] = prior === undefined ? value : ([] as string[]).concat(prior, value);
  }
  if (cookie !== undefined) out.cookie = cookie;
  return out;
}

/**
 * Opens a WebSocket to the app a `TestClient` serves (the body of `client.websocket`).
 *
 * @param target - The client's handshake hooks.
 * @param path - The endpoint path.
 * @param options - Framings, params, headers, cookies, protocols.
 */
export async function openWebSocket<TIn extends WebSocketFraming, TOut extends WebSocketFraming>(
  target: HandshakeTarget,
  path: string,
  options: WebSocketSessionOptions<TIn, TOut>,
): Promise<WebSocketSession<WebSocketSend<TIn>, WebSocketReceive<TOut>>> {
  checkWebSocketArguments(path, options);
  const origin = await target.origin();
  const headers = handshakeHeaders(options.headers, target.cookieHeader(options.cookies, options.headers));
  const url = origin.replace(/^http/, 'ws') + withQuery(path, options.params);
  const protocols = options.protocols === undefined ? [] : ([] as string[]).concat(options.protocols);
  // No compression: tests see frames exactly as the server sent them.
  const raw = new WebSocket(url, protocols, { headers, perMessageDeflate: false });
  // Errors after the handshake close the connection, which `closed` reports.
  raw.on('error', () => undefined);
  return new Promise((resolve, reject) => {
    let session: Session<WebSocketSend<TIn>, WebSocketReceive<TOut>> | undefined;
    raw.once('upgrade', (res: IncomingMessage) => {
      const head = new ResponseHead(
        res.statusCode ?? 0,
        res.statusMessage ?? '',
        pairRawHeaders(res.rawHeaders),
      );
      target.remember(head.headers.getSetCookie());
      // Built before `open`, so no message that follows the 101 can be missed.
      session = new Session(raw, head, options.inbound, options.outbound);
    });
    raw.once('open', () => {
      if (!session) return reject(new Error('TestClient.websocket: opened without a 101 response'));
      target.track(session);
      resolve(session);
    });
    raw.once('unexpected-response', (_req, res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        raw.terminate();
        const response = new TestResponse(
          res.statusCode ?? 0,
          res.statusMessage ?? '',
          pairRawHeaders(res.rawHeaders),
          Buffer.concat(chunks),
        );
        target.remember(response.headers.getSetCookie());
        reject(new WebSocketDenied(response));
      });
      res.on('error', reject);
    });
    raw.once('error', reject);
  });
}
