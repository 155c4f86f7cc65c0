import { afterEach, describe, expect, expectTypeOf, it } from 'vitest';
import { quietLogger } from '../../test/apps';
import { Notice, Ping, Pong, WebSocketApp } from '../../test/websocket-app';
import { TestClient } from '../client/test-client';
import { WebSocketDenied } from './websocket-denied';

const clients: TestClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});
async function start(): Promise<{ client: TestClient<true>; app: WebSocketApp }> {
  const app = new WebSocketApp({ logger: quietLogger() });
  const client = await TestClient.start(app, { cookieJar: true });
  clients.push(client);
  return { client, app };
}

async function denied(promise: Promise<unknown>): Promise<WebSocketDenied> {
  const error = await promise.then(
    () => new Error('the handshake was accepted'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WebSocketDenied);
  return error as WebSocketDenied;
}

describe('TestClient.websocket', () => {
  it('sends and receives typed messages, with the jar, cookies and params on the handshake', async () => {
    const { client, app } = await start();
    client.cookieJar.set('session_id', 'jar');
    client.cookieJar.set('theme', 'dark');
    await using ws = await client.websocket('/ws/echo', {
      inbound: Ping,
      outbound: Pong,
      cookies: { session_id: 'explicit' },
      params: { room: 'a b' },
      headers: { origin: 'http://example.test' },
    });
    await ws.send({ type: 'Ping', text: 'hi' });
    const pong = await ws.receive();
    expectTypeOf(pong).toEqualTypeOf<{ type: 'Pong'; text: string; cookie: string; query: string }>();
    expect(pong).toEqual({
      type: 'Pong',
      text: 'hi',
      cookie: 'session_id=explicit; theme=dark',
      query: '?room=a%20b',
    });
    expect(app.requests[0]!.headers.origin).toBe('http://example.test');
    // The per-call cookie did not overwrite the jar.
    expect(client.cookieJar.get('session_id')).toBe('jar');
  });

  it('exposes a refused handshake as status, headers and body', async () => {
    const { client } = await start();
    const error = await denied(client.websocket('/ws/deny', { inbound: Ping, outbound: Pong }));
    expect(error.status).toBe(401);
    expect(error.response.headers.get('www-authenticate')).toBe('Bearer');
    expect(error.response.headers.get('content-type')).toBe('application/problem+json');
    expect(error.response.json()).toEqual({
      type: 'authentication-required',
      title: 'Authentication required',
      status: 401,
    });
    // It reads like the TestResponse it carries.
    expect(error.statusText).toBe('Unauthorized');
    expect(error.headers.get('www-authenticate')).toBe('Bearer');
    expect(error.multiHeaders).toBe(error.response.multiHeaders);
    expect(error.text).toBe(
      '{"type":"authentication-required","title":"Authentication required","status":401}',
    );
    expect(error.body).toEqual(Buffer.from(error.text));
    expect(error.json()).toEqual(error.response.json());
    expect(error.cookies.denied?.value).toBe('1');
    expect(error.message).toBe(`WebSocket handshake refused with 401: ${error.text}`);
  });

  it("renders a route's thrown HTTP error through core's funnel as the refusal", async () => {
    const { client } = await start();
    const error = await denied(client.websocket('/ws/forbidden', { inbound: Ping, outbound: Pong }));
    expect(error.status).toBe(403);
    expect(error.headers.get('content-type')).toBe('application/problem+json');
    expect(error.json()).toEqual({
      type: 'forbidden',
      title: 'The caller is authenticated but not allowed to perform this operation',
      status: 403,
    });
  });

  it('stores Set-Cookie lines of the 101 and of a refusal in the jar, and exposes the 101 head', async () => {
    const { client } = await start();
    await using ws = await client.websocket('/ws/echo', { inbound: Ping, outbound: Pong });
    expect(ws.handshake.status).toBe(101);
    expect(ws.handshake.headers.get('upgrade')).toBe('websocket');
    expect(ws.handshake.cookies.ws_seen?.value).toBe('1');
    expect(client.cookieJar.get('ws_seen')).toBe('1');
    await denied(client.websocket('/ws/deny', { inbound: Ping, outbound: Pong }));
    expect(Object.fromEntries(client.cookieJar)).toEqual({ ws_seen: '1', denied: '1' });
    // …and sends them with the next handshake.
    await using next = await client.websocket('/ws/echo', { inbound: Ping, outbound: Pong });
    await next.send({ type: 'Ping', text: 'x' });
    expect((await next.receive()).cookie).toBe('ws_seen=1; denied=1');
  });

  it('lets an explicit Cookie header suppress the jar, and sends repeated headers as written', async () => {
    const { client, app } = await start();
    client.cookieJar.set('session_id', 'jar');
    await using ws = await client.websocket('/ws/echo', {
      inbound: Ping,
      outbound: Pong,
      headers: [
        ['Cookie', 'only=this'],
        ['X-Trace', 'a'],
        ['x-trace', 'b'],
      ],
    });
    await ws.send({ type: 'Ping', text: 'x' });
    expect((await ws.receive()).cookie).toBe('only=this');
    const raw = app.requests[0]!.rawHeaders;
    const traces = raw.flatMap((name, i) =>
      i % 2 === 0 && name.toLowerCase() === 'x-trace' ? [raw[i + 1]] : [],
    );
    expect(traces).toEqual(['a', 'b']);
  });

  it('appends params to a path that already has a query', async () => {
    const { client } = await start();
    await using ws = await client.websocket('/ws/echo?a=1', {
      inbound: Ping,
      outbound: Pong,
      params: { tag: ['x', 'y'], on: true },
    });
    await ws.send({ type: 'Ping', text: 'q' });
    expect((await ws.receive()).query).toBe('?a=1&tag=x&tag=y&on=true');
  });

  it('validates received messages against the outbound framing', async () => {
    const { client } = await start();
    await using ws = await client.websocket('/ws/echo', { inbound: 'string', outbound: Pong });
    await ws.send('bad');
    await expect(ws.receive()).rejects.toThrow(/does not match the outbound framing/);
    await ws.send('not-json');
    await expect(ws.receive()).rejects.toThrow('a received text frame is not JSON: "not json"');
    // The session goes on after a refused message.
    await ws.sendRaw(JSON.stringify({ type: 'Ping', text: 'still here' }));
    expect((await ws.receive()).text).toBe('still here');
  });

  it('accepts any member of a list framing, typed as their union', async () => {
    const { client } = await start();
    await using ws = await client.websocket('/ws/echo', { inbound: 'string', outbound: [Pong, Notice] });
    await ws.send('other');
    const notice = await ws.receive();
    expectTypeOf(notice).toEqualTypeOf<
      | { type: 'Pong'; text: string; cookie: string; query: string }
      | { type: 'Notice'; level: 'info' | 'warn' }
    >();
    expect(notice).toEqual({ type: 'Notice', level: 'warn' });
  });

  it("types 'string' both ways and refuses a binary frame where text is expected", async () => {
    const { client } = await start();
    await using ws = await client.websocket('/ws/echo', { inbound: 'string', outbound: 'string' });
    await ws.send('say hello');
    const text = await ws.receive();
    expectTypeOf(text).toEqualTypeOf<string>();
    expect(text).toBe('hello');
    await ws.sendRaw(new Uint8Array([1]));
    await expect(ws.receive()).rejects.toThrow('expected a text frame, got a binary one');
  });

  it("types 'bytes' and iterates until the server closes, reporting the close", async () => {
    const { client } = await start();
    const ws = await client.websocket('/ws/echo', { inbound: 'bytes', outbound: 'bytes' });
    await ws.send(new Uint8Array([1, 2]));
    const echoed = await ws.receive();
    expectTypeOf(echoed).toEqualTypeOf<Buffer>();
    expect([...echoed]).toEqual([1, 2]);
    await ws.sendRaw('close');
    const rest: unknown[] = [];
    for await (const message of ws) rest.push(message);
    expect(rest).toEqual([]);
    expect(await ws.closed).toEqual({ code: 4001, reason: 'asked' });
    expect(ws.readyState).toBe(3);
    await expect(ws.receive()).rejects.toThrow(/closed \(4001 asked\)/);
  });

  it('closes with a code and reason, and reports the state', async () => {
    const { client, app } = await start();
    const ws = await client.websocket('/ws/echo', { inbound: Ping, outbound: Pong });
    expect(ws.readyState).toBe(1);
    expect(ws.protocol).toBe('');
    expect(await ws.close(4000, 'bye')).toEqual({ code: 4000, reason: 'bye' });
    expect(ws.readyState).toBe(3);
    await expect.poll(() => app.serverCloses).toEqual([{ code: 4000, reason: 'bye' }]);
    // Closing again only reports the same end.
    expect(await ws.close()).toEqual({ code: 4000, reason: 'bye' });
  });

  it('offers subprotocols and exposes the chosen one', async () => {
    const { client, app } = await start();
    await using ws = await client.websocket('/ws/echo', {
      inbound: Ping,
      outbound: Pong,
      protocols: ['chat.v2', 'chat.v1'],
    });
    expect(ws.protocol).toBe('chat.v2');
    expect(app.requests[0]!.headers['sec-websocket-protocol']).toBe('chat.v2,chat.v1');
  });

  it('terminates without a close frame: 1006 on both ends', async () => {
    const { client, app } = await start();
    const ws = await client.websocket('/ws/echo', { inbound: Ping, outbound: Pong });
    expect(await ws.terminate()).toEqual({ code: 1006, reason: '' });
    await expect.poll(() => app.serverCloses).toEqual([{ code: 1006, reason: '' }]);
  });

  it("sees the server's shutdown close when the client closes, and refuses to open after", async () => {
    const { client } = await start();
    const ws = await client.websocket('/ws/echo', { inbound: Ping, outbound: Pong });
    await client.close();
    expect(await ws.closed).toEqual({ code: 1001, reason: 'shutting down' });
    await expect(client.websocket('/ws/echo', { inbound: Ping, outbound: Pong })).rejects.toThrow(
      'TestClient: closed; build a new client',
    );
  });

  it('starts the app on the first handshake', async () => {
    const app = new WebSocketApp({ logger: quietLogger() });
    const client = new TestClient(app);
    clients.push(client);
    await using ws = await client.websocket('/ws/echo', { inbound: Ping, outbound: Pong });
    await ws.send({ type: 'Ping', text: 'lazy' });
    expect(await ws.receive()).toEqual({ type: 'Pong', text: 'lazy', cookie: '', query: '' });
  });
});
