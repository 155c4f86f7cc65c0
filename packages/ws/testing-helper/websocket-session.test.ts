import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as v from 'valibot';
import { WebSocketServer } from 'ws';
import { afterEach, describe, expect, expectTypeOf, it } from 'vitest';
import { Struct } from '@api/core';
import { openWebSocket, WebSocketDenied, type SessionClient } from './websocket-session';

const Ping = Struct('Ping', { text: v.string() }, { tag: true });
const Pong = Struct('Pong', { text: v.string(), cookie: v.string(), query: v.string() }, { tag: true });

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

/**
 * A stand-in for a TestClient's server: `/deny` refuses the handshake with a Problem body;
 * anything else echoes each Ping as a Pong carrying the handshake's cookie and query.
 */
async function fakeClient(
  jar: Record<string, string> = {},
): Promise<SessionClient & { requests: IncomingMessage[] }> {
  const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false });
  const requests: IncomingMessage[] = [];
  server = createServer();
  server.on('upgrade', (req, socket, head) => {
    requests.push(req);
    if (req.url?.startsWith('/deny')) {
      const body = '{"type":"authentication-required","title":"Authentication required","status":401}';
      socket.end(
        `HTTP/1.1 401 Unauthorized\r\ncontent-type: application/problem+json\r\nwww-authenticate: Bearer\r\ncontent-length: ${body.length}\r\n\r\n${body}`,
      );
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      ws.on('message', (data: Buffer, isBinary: boolean) => {
        if (isBinary) {
          ws.send(data);
          return;
        }
        const text = data.toString();
        if (text === 'bad') return void ws.send('{"type":"Pong"}');
        if (text === 'close') return void ws.close(4001, 'asked');
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
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    start: () => Promise.resolve(),
    cookieHeaderFor(cookies, headers) {
      const explicit = headers && Object.keys(headers).some((k) => k.toLowerCase() === 'cookie');
      if (explicit) return undefined;
      const merged = { ...jar, ...cookies };
      const list = Object.entries(merged).map(([k, val]) => `${k}=${val}`);
      return list.length ? list.join('; ') : undefined;
    },
  };
}

describe('openWebSocket', () => {
  it('sends and receives typed messages, with the jar, cookies and params on the handshake', async () => {
    const client = await fakeClient({ session_id: 'jar', theme: 'dark' });
    await using ws = await openWebSocket(client, '/chat', {
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
    expect(client.requests[0]!.headers.origin).toBe('http://example.test');
  });

  it('exposes a refused handshake as status, headers and body', async () => {
    const client = await fakeClient();
    const error = await openWebSocket(client, '/deny', { inbound: Ping, outbound: Pong }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(WebSocketDenied);
    const denied = error as WebSocketDenied;
    expect(denied.status).toBe(401);
    expect(denied.response.headers.get('www-authenticate')).toBe('Bearer');
    expect(denied.response.headers.get('content-type')).toBe('application/problem+json');
    expect(denied.response.json()).toEqual({
      type: 'authentication-required',
      title: 'Authentication required',
      status: 401,
    });
  });

  it('validates received messages against the outbound framing', async () => {
    const client = await fakeClient();
    await using ws = await openWebSocket(client, '/x', { inbound: 'string', outbound: Pong });
    await ws.send('bad');
    await expect(ws.receive()).rejects.toThrow(/does not match the outbound framing/);
  });

  it("types 'bytes' and iterates until the server closes, reporting the close", async () => {
    const client = await fakeClient();
    const ws = await openWebSocket(client, '/x', { inbound: 'bytes', outbound: 'bytes' });
    await ws.send(new Uint8Array([1, 2]));
    const echoed = await ws.receive();
    expectTypeOf(echoed).toEqualTypeOf<Buffer>();
    expect([...echoed]).toEqual([1, 2]);
    await ws.sendRaw('close');
    const rest: unknown[] = [];
    for await (const message of ws) rest.push(message);
    expect(rest).toEqual([]);
    expect(await ws.closed).toEqual({ code: 4001, reason: 'asked' });
    await expect(ws.receive()).rejects.toThrow(/closed \(4001 asked\)/);
  });
});

describe('openWebSocket through a TestClient', () => {
  it('applies the cookie jar to the handshake, and exposes denials from the funnel', async () => {
    const { TestClient } = await import('@api/testing');
    const { WsApp, quietLogger, SendMessage, ChatMessage } = await import('../test/fixtures/app');
    await using client = await TestClient.start(new WsApp({ logger: quietLogger() }), { cookieJar: true });

    const denied = (await openWebSocket(client, '/chat', {
      inbound: SendMessage,
      outbound: ChatMessage,
    }).catch((e: unknown) => e)) as WebSocketDenied;
    expect(denied).toBeInstanceOf(WebSocketDenied);
    expect(denied.status).toBe(401);
    expect(denied.response.json()).toEqual({
      type: 'authentication-required',
      title: 'Authentication required',
      status: 401,
    });

    client.cookieJar.set('session_id', 'token');
    await using ws = await openWebSocket(client, '/chat', { inbound: SendMessage, outbound: ChatMessage });
    const app = client.app as InstanceType<typeof WsApp>;
    while (app.chat!.subscribers('lobby') < 1) await new Promise((r) => setTimeout(r, 5));
    await ws.send({ type: 'send-message', text: 'hello' });
    expect(await ws.receive()).toEqual({ type: 'chat-message', text: 'hello', from: 'user-name' });
  });
});
