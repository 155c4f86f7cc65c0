// The 101 answer and subprotocols, over real sockets: the accepted handshake carries the route's
// header block like every refusal does, and only a subprotocol the endpoint declares is selected.
import { afterEach, describe, expect, it } from 'vitest';
import { BaseApp, defineMiddleware, type Middleware } from '@api/core';
import { CORS } from '@api/cors';
import { TestClient } from '@api/testing';
import { websocket, WebSocketEndpoint, type WebSocketMountOptions } from '../src/index';
import { handshake } from './helpers/handshake';
import { quietLogger, WsApp } from './fixtures/app';

const clients: TestClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

/** Says which subprotocol the handshake selected, then echoes. */
class ChatV2 extends WebSocketEndpoint('/v2', {
  inbound: 'string',
  outbound: 'string',
  protocols: ['chat.v2', 'chat.v1'],
}) {
  handle = this.handler({}, async ({ websocket }) => {
    await websocket.send(`protocol=${websocket.protocol}`);
    for await (const text of websocket) await websocket.send(text);
  });
}

/** Declares no subprotocol. */
class Plain extends WebSocketEndpoint('/plain', { inbound: 'string', outbound: 'string' }) {
  handle = this.handler({}, async ({ websocket }) => {
    await websocket.send(`protocol=${websocket.protocol}`);
    for await (const _ of websocket);
  });
}

type Include = (extension: ReturnType<typeof websocket>) => void;

async function serve(
  mount: (include: Include) => void,
): Promise<{ client: TestClient; url: string; log: ReturnType<typeof quietLogger> }> {
  const log = quietLogger();
  class App extends BaseApp {
    protected override async wire(): Promise<void> {
      mount((extension) => this.include(extension));
    }
  }
  const client = await TestClient.start(new App({ logger: log }));
  clients.push(client);
  return { client, url: client.url, log };
}

const mountBoth =
  (options: WebSocketMountOptions & { middleware?: readonly Middleware[]; cors?: CORS } = {}) =>
  (include: Include): void => {
    include(websocket(new ChatV2(), options));
    include(websocket(new Plain(), options));
  };

describe('the 101 carries the route tail', () => {
  it('constant middleware responseHeaders, as on refusals', async () => {
    const log = quietLogger();
    const client = await TestClient.start(new WsApp({ logger: log }));
    clients.push(client);
    const refused = await handshake(client.url, '/guarded', {});
    expect(refused.status).toBe(403);
    expect(refused.headers['x-guard']).toBe('on');
    const accepted = await handshake(client.url, '/guarded', { 'x-allowed': 'yes' });
    expect(accepted.upgraded).toBe(true);
    expect(accepted.status).toBe(101);
    expect(accepted.headers['x-guard']).toBe('on');
    expect(accepted.headers.upgrade).toBe('websocket');
    expect(accepted.headers.connection).toBe('Upgrade');
  });

  it("a CORS policy's headers (allow-list: the echoed origin and vary)", async () => {
    const { url } = await serve(mountBoth({ cors: new CORS({ allowOrigins: ['https://app.example'] }) }));
    const accepted = await handshake(url, '/plain', { origin: 'https://app.example' });
    expect(accepted.status).toBe(101);
    expect(accepted.headers['access-control-allow-origin']).toBe('https://app.example');
    expect(accepted.headers.vary).toBe('Origin');
    const other = await handshake(url, '/plain', { origin: 'https://other.example' });
    expect(other.status).toBe(101);
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
    expect(other.headers.vary).toBe('Origin');
  });

  it('headers computed per response see status 101', async () => {
    const seen: number[] = [];
    const stamp = defineMiddleware({
      responseHeaders: (_request, status) => {
        seen.push(status);
        return { 'x-status-seen': String(status) };
      },
    });
    const { url } = await serve(mountBoth({ middleware: [stamp] }));
    const accepted = await handshake(url, '/plain', {});
    expect(accepted.status).toBe(101);
    expect(accepted.headers['x-status-seen']).toBe('101');
    const refused = await handshake(url, '/plain', {}, { upgrade: false });
    expect(refused.status).toBe(426);
    expect(refused.headers['x-status-seen']).toBe('426');
    expect(seen).toEqual([101, 426]);
  });

  it('a computed header the upgrade owns, or one that cannot be sent, is a logged 500 and no upgrade', async () => {
    const owned = defineMiddleware({ responseHeaders: () => ({ 'sec-websocket-accept': 'x' }) });
    const framing = defineMiddleware({ responseHeaders: () => ({ connection: 'keep-alive' }) });
    const broken = defineMiddleware({
      responseHeaders: (_r, status) => (status === 101 ? { 'x-bad': 'a\r\nset-cookie: x=1' } : undefined),
    });
    const throwing = defineMiddleware({
      responseHeaders: (_r, status) => {
        if (status === 101) throw new Error('hook failure');
        return undefined;
      },
    });
    for (const [mw, message] of [
      [owned, /headers set "sec-websocket-accept", which the WebSocket upgrade writes itself/],
      [framing, /sets "connection", a framing header/],
      [broken, /response header "x-bad" cannot be sent/],
      [throwing, /hook failure/],
    ] as const) {
      const { url, log } = await serve(mountBoth({ middleware: [mw] }));
      const answer = await handshake(url, '/plain', {});
      expect(answer.upgraded).toBe(false);
      expect(answer.status).toBe(500);
      expect(JSON.parse(answer.body)).toEqual({
        type: 'internal-server-error',
        title: 'Internal server error',
        status: 500,
      });
      expect(answer.headers['set-cookie']).toBeUndefined();
      expect(log.lines).toContain('error GET /plain failed with an uncaught exception');
      expect(String(log.errors[0])).toMatch(message);
    }
  });
});

describe('subprotocols', () => {
  it("selects the client's first preference among the declared ones", async () => {
    const { url } = await serve(mountBoth());
    const answer = await handshake(url, '/v2', { 'sec-websocket-protocol': 'chat.v3, chat.v1, chat.v2' });
    expect(answer.status).toBe(101);
    expect(answer.headers['sec-websocket-protocol']).toBe('chat.v1');
  });

  it('offers nothing: accepted without the header', async () => {
    const { url } = await serve(mountBoth());
    for (const path of ['/v2', '/plain']) {
      const answer = await handshake(url, path, {});
      expect(answer.status).toBe(101);
      expect(answer.headers['sec-websocket-protocol']).toBeUndefined();
    }
  });

  it('refuses a client offering only undeclared subprotocols with 400, naming what is spoken (never what was offered)', async () => {
    const { url } = await serve(mountBoth());
    const answer = await handshake(url, '/v2', { 'sec-websocket-protocol': 'graphql-ws, mqtt' });
    expect(answer.upgraded).toBe(false);
    expect(answer.status).toBe(400);
    expect(answer.headers['content-type']).toBe('application/problem+json');
    const reason =
      'None of the offered subprotocols is spoken here (expected one of: chat.v2, chat.v1) at `header sec-websocket-protocol`';
    expect(JSON.parse(answer.body)).toEqual({
      type: 'malformed-request',
      title: 'Malformed request',
      status: 400,
      detail: reason,
      params: {
        reason,
        issues: [
          {
            path: 'header sec-websocket-protocol',
            message: 'None of the offered subprotocols is spoken here (expected one of: chat.v2, chat.v1)',
          },
        ],
      },
    });
    expect(answer.body).not.toContain('graphql');
  });

  it('refuses any subprotocol on an endpoint that declares none (no claim to speak it)', async () => {
    const { url } = await serve(mountBoth());
    const answer = await handshake(url, '/plain', { 'sec-websocket-protocol': 'chat.v1' });
    expect(answer.upgraded).toBe(false);
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({
      type: 'malformed-request',
      detail:
        'This endpoint speaks no subprotocol; send no Sec-WebSocket-Protocol at `header sec-websocket-protocol`',
    });
  });

  it('works through @api/testing: client.websocket(…, { protocols })', async () => {
    const { client } = await serve(mountBoth());
    await using ws = await client.websocket('/v2', {
      inbound: 'string',
      outbound: 'string',
      protocols: ['chat.v0', 'chat.v1'],
    });
    expect(ws.protocol).toBe('chat.v1');
    expect(ws.handshake.headers.get('sec-websocket-protocol')).toBe('chat.v1');
    expect(await ws.receive()).toBe('protocol=chat.v1');
  });

  it('refuses an unknown endpoint option (a misspelt protocols would silently accept nothing)', () => {
    expect(() =>
      WebSocketEndpoint('/p', { inbound: 'string', outbound: 'string', protocol: ['chat.v1'] } as never),
    ).toThrow(
      'WebSocketEndpoint("/p"): unknown option "protocol" (did you mean "protocols"?). Fix: use only inbound, outbound, protocols, meta, name (mount options such as auth go to websocket(endpoint, options)).',
    );
  });

  it('refuses a bad protocols declaration when the class is declared', () => {
    for (const [protocols, message] of [
      [[], /protocols must be a non-empty list/],
      [['chat v1'], /protocols entry "chat v1" is not a subprotocol name/],
      [['a', 'a'], /protocols lists a subprotocol twice/],
      ['chat', /protocols must be a non-empty list of subprotocol names, got a string/],
    ] as const) {
      expect(() =>
        WebSocketEndpoint('/p', { inbound: 'string', outbound: 'string', protocols: protocols as never }),
      ).toThrow(message);
    }
  });
});
