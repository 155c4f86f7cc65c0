/* eslint-disable @typescript-eslint/no-explicit-any */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import type { Logger } from '@api/core';
import { compileFraming, type Framing } from '../../src/framing/framing';
import { runSession } from '../../src/socket/session';
import { WebSocket } from '../../src/socket/websocket';
import { kInternals } from '../../src/symbols';
import type { SocketSet } from '../../src/liveness/socket-set';

/** A logger that records lines, for asserting what was (not) logged. */
export function recordingLogger(): Logger & { lines: string[]; errors: unknown[] } {
  const lines: string[] = [];
  const errors: unknown[] = [];
  return {
    lines,
    errors,
    info: (m) => void lines.push(`info ${m}`),
    warn: (m, e) => void (lines.push(`warn ${m}`), e !== undefined && errors.push(e)),
    error: (m, e) => void (lines.push(`error ${m}`), errors.push(e)),
  };
}

export interface BareServer {
  readonly url: string;
  readonly server: Server;
  readonly sockets: Set<WebSocket<unknown, unknown>>;
  readonly log: ReturnType<typeof recordingLogger>;
  close(): Promise<void>;
}

/**
 * A typed WebSocket server on a bare `ws` `WebSocketServer` (no app): every connection gets a
 * typed `WebSocket` and runs `handler` through the same session runner the mount uses.
 */
export async function bareServer<TIn = any, TOut = any>(options: {
  inbound: Framing;
  outbound: Framing;
  maxPayload?: number;
  /** Registers every socket here too (liveness and shutdown tests). */
  set?: SocketSet;
  handler: (websocket: WebSocket<TIn, TOut>) => unknown;
}): Promise<BareServer> {
  const inbound = compileFraming('Test inbound', options.inbound, 'inbound');
  const outbound = compileFraming('Test outbound', options.outbound);
  const wss = new WebSocketServer({
    noServer: true,
    perMessageDeflate: false,
    clientTracking: false,
    maxPayload: options.maxPayload ?? 1024 * 1024,
  });
  const log = recordingLogger();
  const sockets = new Set<WebSocket<unknown, unknown>>();
  const server = createServer((_req, res) => res.writeHead(426).end());
  server.on('upgrade', (req, socket, head) => {
    wss.handleUpgrade(req, socket, head, (raw) => {
      const websocket = new WebSocket<TIn, TOut>(raw, socket, inbound, outbound);
      sockets.add(websocket as WebSocket<unknown, unknown>);
      options.set?.add(websocket[kInternals]);
      raw.once('close', () => sockets.delete(websocket as WebSocket<unknown, unknown>));
      void runSession(websocket, options.handler, log, 'Test.handle');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `ws://127.0.0.1:${port}`,
    server,
    sockets,
    log,
    close: async () => {
      for (const s of sockets) s[kInternals].terminate();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
