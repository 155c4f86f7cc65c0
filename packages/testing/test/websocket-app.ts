// A raw WebSocket route for the package's own tests: `ws`'s WebSocketServer behind core's
// upgrade route (the extension API @api/ws is built on), so @api/testing is tested without
// depending on @api/ws (which depends on @api/testing for its own tests).
import type { IncomingMessage } from 'node:http';
import { WebSocketServer, type WebSocket } from 'ws';
import * as v from 'valibot';
import { BaseApp, ForbiddenError, Struct } from '@api/core';
import { defineExtension } from '@api/core/extension';

/** Client → server on `/ws/echo`. */
export const Ping = Struct('Ping', { text: v.string() }, { tag: true });
/** Server → client on `/ws/echo`: the text, with the handshake's cookie and query. */
export const Pong = Struct(
  'Pong',
  { text: v.string(), cookie: v.string(), query: v.string() },
  { tag: true },
);
/** Another server → client message (`'other'` asks for one). */
export const Notice = Struct('Notice', { level: v.picklist(['info', 'warn']) }, { tag: true });

const DENIED = '{"type":"authentication-required","title":"Authentication required","status":401}';

/**
 * `/ws/echo` echoes each Ping as a Pong carrying the handshake's `cookie` and query; text
 * commands: `bad` (a Pong missing fields), `not-json`, `other` (a Notice), `close` (closes 4001
 * "asked"); binary frames are echoed. The 101 sets `ws_seen=1` and picks the first offered
 * subprotocol. `/ws/deny` answers 401 (written by the route, with `www-authenticate` and a
 * cookie); `/ws/forbidden` throws `ForbiddenError` (rendered by core's funnel). On shutdown the
 * route closes its sockets with 1001.
 */
export class WebSocketApp extends BaseApp {
  /** Every handshake request, in order. */
  readonly requests: IncomingMessage[] = [];
  /** How each server-side socket ended, in order. */
  readonly serverCloses: { code: number; reason: string }[] = [];

  protected override async wire(): Promise<void> {
    const requests = this.requests;
    const serverCloses = this.serverCloses;
    const wss = new WebSocketServer({
      noServer: true,
      perMessageDeflate: false,
      handleProtocols: (offered) => offered.values().next().value ?? false,
    });
    wss.on('headers', (headers) => headers.push('Set-Cookie: ws_seen=1; Path=/'));
    const echo = (ws: WebSocket, req: IncomingMessage): void => {
      ws.on('error', () => undefined);
      ws.on('close', (code, reason) => serverCloses.push({ code, reason: reason.toString() }));
      ws.on('message', (data: Buffer, isBinary: boolean) => {
        if (isBinary) return void ws.send(data);
        const text = data.toString();
        if (text === 'bad') return void ws.send('{"type":"Pong"}');
        if (text === 'not-json') return void ws.send('not json');
        if (text === 'other') return void ws.send('{"type":"Notice","level":"warn"}');
        if (text === 'close') return void ws.close(4001, 'asked');
        if (text.startsWith('say ')) return void ws.send(text.slice(4));
        const ping = JSON.parse(text) as { text: string };
        ws.send(
          JSON.stringify({
            type: 'Pong',
            text: ping.text,
            cookie: req.headers.cookie ?? '',
            query: new URL(req.url ?? '/', 'http://x').search,
          }),
        );
      });
    };
    this.include(
      defineExtension({
        name: 'websocket-test',
        setup: (w) => {
          w.addUpgradeRoute({
            path: '/ws/echo',
            owner: 'websocket-test',
            handle: (ex) => {
              const req = ex.upgrade!.request;
              requests.push(req);
              const { socket, head } = ex.takeOver();
              wss.handleUpgrade(req, socket, head, (ws) => echo(ws, req));
            },
          });
          w.addUpgradeRoute({
            path: '/ws/deny',
            owner: 'websocket-test',
            handle: (ex) => {
              requests.push(ex.upgrade!.request);
              ex.send(
                401,
                [
                  'content-type',
                  'application/problem+json',
                  'www-authenticate',
                  'Bearer',
                  'set-cookie',
                  'denied=1; Path=/',
                ],
                DENIED,
              );
            },
          });
          w.addUpgradeRoute({
            path: '/ws/forbidden',
            owner: 'websocket-test',
            handle: (ex) => {
              requests.push(ex.upgrade!.request);
              throw new ForbiddenError();
            },
          });
          w.onBeforeClose(() => {
            for (const ws of wss.clients) ws.close(1001, 'shutting down');
          });
        },
      }),
    );
  }
}
