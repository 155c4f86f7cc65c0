// Wire tests through an app: the handshake runs core's pipeline (middleware, auth, binding, the
// error funnel), then `ws` takes the socket. Clients are the `ws` client or raw sockets.
import type { Socket } from 'node:net';
import * as v from 'valibot';
import { afterEach, describe, expect, it } from 'vitest';
import { BaseApp, Struct } from '@api/core';
import { hybridAuth } from '@api/auth';
import { CORS } from '@api/cors';
import { TestClient } from '@api/testing';
import { websocket, WebSocketEndpoint } from '../src/index';
import { Op, frame } from './helpers/frames';
import { handshake } from './helpers/handshake';
import { Peer } from './helpers/peer';
import { EchoSocket, quietLogger, User, WsApp, type TestAppOptions } from './fixtures/app';

const clients: TestClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

async function serve(
  options: TestAppOptions = {},
): Promise<{ client: TestClient; http: string; ws: string; log: ReturnType<typeof quietLogger> }> {
  const log = quietLogger();
  const client = await TestClient.start(new WsApp({ logger: log, ...options }));
  clients.push(client);
  return { client, http: client.url, ws: client.url.replace(/^http/, 'ws'), log };
}

const bearer = { authorization: 'Bearer token' };
const socketOf = (peer: Peer): Socket => (peer.raw as unknown as { _socket: Socket })._socket;
const problem = (type: string, title: string, status: number) => ({ type, title, status });

describe('handshake: accepted', () => {
  it('binds path and user, answers ping-request with ping-response', async () => {
    const { ws } = await serve();
    const peer = await Peer.open(`${ws}/websocket/c1`, { headers: bearer });
    peer.send({ type: 'ping-request', requestId: 'r1', message: 'hello' });
    expect(await peer.json()).toEqual({
      type: 'ping-response',
      requestId: 'r1',
      clientId: 'c1',
      userId: 'user-id',
      message: 'hello',
    });
  });

  it('binds headers, params and raw headers (names as sent, repeats kept)', async () => {
    const { ws } = await serve();
    const peer = await Peer.open(`${ws}/info/abc?room=blue`, {
      headers: { 'X-Trace-Id': 't-1', 'X-Repeat': ['one', 'two'] as unknown as string },
    });
    const info = (await peer.json()) as { names: string[] };
    expect(info).toMatchObject({
      type: 'Info',
      client: 'abc',
      trace: 't-1',
      repeated: ['one', 'two'],
      room: 'blue',
    });
    expect(info.names).toEqual(expect.arrayContaining(['X-Trace-Id', 'X-Repeat', 'Sec-WebSocket-Key']));
  });

  it('puts the route in the catalogue as an upgrade route', async () => {
    const { client } = await serve();
    const app = client.app as unknown as WsApp;
    const routes = app.catalogue.routes
      .filter((r) => r.kind === 'upgrade')
      .map((r) => `${r.method} ${r.path} ${r.owner}.${r.operation}`);
    expect(routes).toEqual([
      'GET /websocket/{client_id} PingSocket.handle',
      'GET /chat ChatSocket.handle',
      'GET /echo EchoSocket.handle',
      'GET /size SizeSocket.handle',
      'GET /info/{client_id} InfoSocket.handle',
      'GET /mixed MixedSocket.handle',
      'GET /guarded GuardedSocket.handle',
      'GET /feed FeedSocket.handle',
    ]);
  });
});

describe('handshake: denied before any upgrade, through the error funnel', () => {
  it('401 with the Problem body when the bearer is missing', async () => {
    const { http } = await serve();
    const answer = await handshake(http, '/websocket/c1', {});
    expect(answer.upgraded).toBe(false);
    expect(answer.status).toBe(401);
    expect(answer.headers['content-type']).toBe('application/problem+json');
    expect(JSON.parse(answer.body)).toEqual(
      problem('authentication-required', 'Authentication required', 401),
    );
  });

  it('404 for an unknown path and for a path value that fails conversion', async () => {
    const { http } = await serve();
    for (const path of ['/nope', '/websocket/x']) {
      const answer = await handshake(http, path, bearer);
      expect(answer.status).toBe(404);
      expect(JSON.parse(answer.body)).toMatchObject({ type: 'not-found', status: 404 });
    }
  });

  it("renders the adapter's body when the app has one", async () => {
    const { http } = await serve({ adapter: true });
    const answer = await handshake(http, '/websocket/c1', {});
    expect(answer.status).toBe(401);
    expect(answer.headers['content-type']).toBe('application/json');
    expect(JSON.parse(answer.body)).toEqual({
      code: 'authentication-required',
      message: 'Authentication required',
      status: 401,
    });
  });

  it('403 from a mount middleware intercept; its absence lets the caller in', async () => {
    const { http, ws } = await serve();
    const answer = await handshake(http, '/guarded', {});
    expect(answer.status).toBe(403);
    expect(answer.headers['x-guard']).toBe('on'); // the route's tail applies to refusals
    expect(JSON.parse(answer.body)).toMatchObject({ type: 'forbidden', status: 403 });
    const peer = await Peer.open(`${ws}/guarded`, { headers: { 'x-allowed': 'yes' } });
    expect(await peer.text()).toBe('welcome');
  });

  it('426 with upgrade: websocket for a plain GET', async () => {
    const { http } = await serve();
    const answer = await handshake(http, '/echo', {}, { upgrade: false });
    expect(answer.status).toBe(426);
    expect(answer.headers.upgrade).toBe('websocket');
    expect(answer.headers['content-type']).toBe('application/problem+json');
    expect(JSON.parse(answer.body)).toEqual(problem('upgrade-required', 'Upgrade required', 426));
  });

  it('400 for a bad Sec-WebSocket-Version (advertising 13) or Key', async () => {
    const { http } = await serve();
    const version = await handshake(http, '/echo', { 'sec-websocket-version': '12' });
    expect(version.status).toBe(400);
    expect(version.headers['sec-websocket-version']).toBe('13');
    expect(JSON.parse(version.body)).toMatchObject({
      type: 'malformed-request',
      status: 400,
      detail: 'Unsupported WebSocket version (expected 13) at `header sec-websocket-version`',
    });
    const key = await handshake(http, '/echo', { 'sec-websocket-key': 'short' });
    expect(key.status).toBe(400);
    expect(key.headers['sec-websocket-version']).toBeUndefined();
    expect(JSON.parse(key.body)).toMatchObject({ type: 'malformed-request', status: 400 });
    expect(key.body).not.toContain('short');
  });
});

describe('Origin on the cookie-authenticated /chat', () => {
  const cookie = { cookie: 'session_id=token' };
  it.each([
    ['a foreign Origin', 403, { origin: 'https://evil.example' }],
    ['an allowed Origin', 101, { origin: 'https://app.example' }],
    ['no Origin', 101, {}],
    ['Origin: null', 403, { origin: 'null' }],
  ])('%s → %i', async (_label, status, headers) => {
    const { http } = await serve({ allowedOrigins: ['https://app.example'] });
    const answer = await handshake(http, '/chat', { ...cookie, ...headers });
    expect(answer.status).toBe(status);
    if (status === 403) expect(JSON.parse(answer.body)).toMatchObject({ type: 'forbidden', status: 403 });
  });

  it('allows the same origin (Origin host:port equals Host)', async () => {
    const { http } = await serve();
    const host = new URL(http).host;
    expect((await handshake(http, '/chat', { ...cookie, origin: `http://${host}` })).status).toBe(101);
    expect(
      (await handshake(http, '/chat', { ...cookie, origin: `http://${host}`, host: 'other:1' })).status,
    ).toBe(403);
  });

  it('checks auth first: no cookie is 401 whatever the Origin', async () => {
    const { http } = await serve();
    expect((await handshake(http, '/chat', { origin: 'https://evil.example' })).status).toBe(401);
  });

  it('does not check Origin on a bearer mount', async () => {
    const { http } = await serve();
    const answer = await handshake(http, '/websocket/c1', { ...bearer, origin: 'https://evil.example' });
    expect(answer.status).toBe(101);
  });
});

describe('close codes and reasons', () => {
  it.each([
    ['the handler returns', 1000, '', { type: 'Control', action: 'return' }],
    ['the handler throws', 1011, 'internal error', { type: 'Control', action: 'throw' }],
    [
      'close() with an application code',
      4321,
      'bye now',
      { type: 'Control', action: 'close', code: 4321, reason: 'bye now' },
    ],
    ['close() with no code', 1000, '', { type: 'Control', action: 'close' }],
    ['close() with 1008', 1008, 'policy', { type: 'Control', action: 'close', code: 1008, reason: 'policy' }],
    ['an unknown message type', 1008, 'expected type "Say" | "Control"', { type: 'Nope' }],
    ['a schema-invalid message', 1008, 'Expected string, got number at `$.text`', { type: 'Say', text: 7 }],
    ['malformed JSON', 1007, 'malformed JSON', '{"type": "Say", '],
  ])('%s → %i %j', async (_label, code, reason, message) => {
    const { ws, log } = await serve();
    const peer = await Peer.open(`${ws}/echo`);
    peer.send(message);
    expect(await peer.closed).toEqual({ code, reason });
    if (code === 1011) {
      expect(log.lines).toContain(
        'error GET /echo: WebSocket handler EchoSocket.handle failed; closing the WebSocket with 1011',
      );
      expect(String(log.errors[0])).toBe('Error: handler failure');
    }
  });

  it('1003 for a binary frame on a text socket and a text frame on a bytes socket', async () => {
    const { ws } = await serve();
    const text = await Peer.open(`${ws}/echo`);
    text.raw.send(Buffer.from('{}'));
    expect(await text.closed).toEqual({ code: 1003, reason: 'expected text frames' });
    const bytes = await Peer.open(`${ws}/size`);
    bytes.raw.send('text');
    expect(await bytes.closed).toEqual({ code: 1003, reason: 'expected binary frames' });
  });

  it('keeps frame kinds per direction: bytes in, tagged JSON out', async () => {
    const { ws } = await serve();
    const peer = await Peer.open(`${ws}/mixed`);
    peer.raw.send(Buffer.from([0, 1, 2]));
    const reply = await peer.next();
    expect(reply.isBinary).toBe(false);
    expect(JSON.parse(reply.data.toString())).toEqual({ type: 'Said', text: 'AAEC' });
  });

  it('an invalid close code from the handler fails locally (RangeError → 1011), not on the wire', async () => {
    const { ws, log } = await serve();
    const peer = await Peer.open(`${ws}/echo`);
    peer.send({ type: 'Control', action: 'close', code: 1001 });
    expect(await peer.closed).toEqual({ code: 1011, reason: 'internal error' });
    expect(log.errors[0]).toBeInstanceOf(RangeError);
  });

  it('a reason over 123 bytes fails locally', async () => {
    const { ws, log } = await serve();
    const peer = await Peer.open(`${ws}/echo`);
    peer.send({ type: 'Control', action: 'close', code: 4000, reason: 'x'.repeat(124) });
    expect((await peer.closed).code).toBe(1011);
    expect(String(log.errors[0])).toMatch(/at most 123 UTF-8 bytes/);
  });
});

describe('maxFrameSize', () => {
  it('8 bytes: 8 are echoed, 9 close with 1009', async () => {
    const { ws } = await serve({ size: { maxFrameSize: 8 } });
    const peer = await Peer.open(`${ws}/size`);
    peer.raw.send(Buffer.alloc(8));
    expect(await peer.text()).toBe('8');
    peer.raw.send(Buffer.alloc(9));
    expect((await peer.closed).code).toBe(1009);
  });

  it('default 1 MiB: 1,048,576 bytes echoed, 1,048,577 close with 1009', async () => {
    const { ws } = await serve();
    const peer = await Peer.open(`${ws}/size`);
    peer.raw.send(Buffer.alloc(1_048_576));
    expect(await peer.text()).toBe('1048576');
    peer.raw.send(Buffer.alloc(1_048_577));
    expect((await peer.closed).code).toBe(1009);
  });

  it('counts a fragmented message as a whole: two 600 KiB fragments close with 1009', async () => {
    const { ws } = await serve();
    const peer = await Peer.open(`${ws}/size`);
    peer.raw.send(Buffer.alloc(600 * 1024), { fin: false, binary: true });
    peer.raw.send(Buffer.alloc(600 * 1024), { fin: true, binary: true });
    expect((await peer.closed).code).toBe(1009);
  });

  it('refuses an oversized frame from its length header, before its payload arrives', async () => {
    const { ws } = await serve({ size: { maxFrameSize: 1024 } });
    const peer = await Peer.open(`${ws}/size`);
    // Announce 100 MiB and send only the header.
    socketOf(peer).write(frame(Op.binary, Buffer.alloc(0), { length: 100 * 1024 * 1024 }).subarray(0, 14));
    expect((await peer.closed).code).toBe(1009);
  });
});

describe('robustness: protocol errors end one connection, the process keeps serving', () => {
  it.each([
    ['invalid UTF-8 in a text frame', 1007, frame(Op.text, Buffer.from([0xc3, 0x28]))],
    ['an unmasked client frame', 1002, frame(Op.text, Buffer.from('hi'), { mask: false })],
    ['a 126-byte ping', 1002, frame(Op.ping, Buffer.alloc(126))],
  ])('%s → %i', async (_label, code, bytes) => {
    const { ws } = await serve();
    const healthy = await Peer.open(`${ws}/echo`);
    const bad = await Peer.open(`${ws}/echo`);
    socketOf(bad).write(bytes);
    expect((await bad.closed).code).toBe(code);
    healthy.send({ type: 'Say', text: 'still serving' });
    expect(await healthy.json()).toEqual({ type: 'Said', text: 'still serving' });
    const fresh = await Peer.open(`${ws}/echo`);
    fresh.send({ type: 'Say', text: 'new one' });
    expect(await fresh.json()).toEqual({ type: 'Said', text: 'new one' });
  });
});

describe('/chat through a Channel', () => {
  it('broadcasts a message to every connected client, with the sender from the session', async () => {
    const { ws, client } = await serve();
    const a = await Peer.open(`${ws}/chat`, { headers: { cookie: 'session_id=token' } });
    const b = await Peer.open(`${ws}/chat`, { headers: { cookie: 'session_id=other' } });
    const chat = (client.app as unknown as WsApp).chat!;
    while (chat.subscribers('lobby') < 2) await new Promise((r) => setTimeout(r, 5));
    a.send({ type: 'send-message', text: 'hi all' });
    for (const peer of [a, b])
      expect(await peer.json()).toEqual({ type: 'chat-message', text: 'hi all', from: 'user-name' });
    b.raw.close();
    await b.closed;
    while (chat.size > 1) await new Promise((r) => setTimeout(r, 5));
    expect(chat.subscribers('lobby')).toBe(1);
  });
});

describe('shutdown', () => {
  it('closes every socket with 1001 when the app closes', async () => {
    const log = quietLogger();
    const client = await TestClient.start(new WsApp({ logger: log }));
    const ws = client.url.replace(/^http/, 'ws');
    const peers = await Promise.all(Array.from({ length: 10 }, () => Peer.open(`${ws}/echo`)));
    const started = Date.now();
    await client.close();
    for (const peer of peers)
      expect(await peer.closed).toEqual({ code: 1001, reason: 'server shutting down' });
    expect(Date.now() - started).toBeLessThan(3000);
  });
});

describe('mount options through the pipeline', () => {
  it('checks Origin on a hybrid-authenticated mount, which also takes a bearer without a cookie', async () => {
    const hybrid = hybridAuth({
      headers: Struct('MaybeBearer', { authorization: v.optional(v.string()) }),
      cookies: Struct('MaybeSession', { session_id: v.optional(v.string()) }),
      user: User,
      authenticate: ({ headers, cookies }) =>
        headers.authorization === 'Bearer token' || cookies.session_id === 'token'
          ? { id: 'user-id', name: 'user-name' }
          : null,
    });
    class Who extends WebSocketEndpoint('/who', { inbound: 'string', outbound: 'string' }) {
      handle = this.handler({ user: User }, async ({ websocket, user }) => {
        await websocket.send(user.name);
      });
    }
    class App extends BaseApp {
      protected override async wire(): Promise<void> {
        this.include(websocket(new Who(), { auth: hybrid }));
      }
    }
    const client = await TestClient.start(new App({ logger: quietLogger() }));
    clients.push(client);
    const cookie = { cookie: 'session_id=token' };
    expect((await handshake(client.url, '/who', { ...cookie, origin: 'https://evil.example' })).status).toBe(
      403,
    );
    expect((await handshake(client.url, '/who', { ...bearer, origin: 'https://evil.example' })).status).toBe(
      403,
    );
    expect((await handshake(client.url, '/who', { ...cookie })).status).toBe(101);
    expect((await handshake(client.url, '/who', {})).status).toBe(401);
  });

  it('applies a CORS policy given as the mount option to the route (refusals included)', async () => {
    class App extends BaseApp {
      protected override async wire(): Promise<void> {
        this.include(
          websocket(new EchoSocket(), { cors: new CORS({ allowOrigins: ['https://app.example'] }) }),
        );
      }
    }
    const client = await TestClient.start(new App({ logger: quietLogger() }));
    clients.push(client);
    const answer = await handshake(
      client.url,
      '/echo',
      { origin: 'https://app.example' },
      { upgrade: false },
    );
    expect(answer.status).toBe(426);
    expect(answer.headers['access-control-allow-origin']).toBe('https://app.example');
    expect(answer.headers.vary).toBe('Origin');
  });

  it('pings through the mount and cuts a client that stops answering', async () => {
    const { ws } = await serve({ pingInterval: 50 });
    const live = await Peer.open(`${ws}/echo`);
    const silent = await Peer.open(`${ws}/echo`, { autoPong: false });
    expect((await silent.closed).code).toBe(1006);
    live.send({ type: 'Say', text: 'alive' });
    expect(await live.json()).toEqual({ type: 'Said', text: 'alive' });
  });
});
