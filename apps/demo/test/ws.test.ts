// The demo's WebSockets, in process: WS /websocket/{client_id} (bearer ping) and WS /chat
// (session cookie, Origin allow-list = same origin plus DEMO_CORS_ORIGINS, broadcast Channel).
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketDenied } from '@api/testing';
import { ChatMessage, PingRequest, PingResponse, SendMessage } from '../src/models';
import { LOBBY } from '../src/operations/sockets';
import { startDemo, until, type Demo } from './helpers/demo';

const ALLOWED = 'https://app.example';
const demos: Demo<true>[] = [];
afterEach(async () => {
  await Promise.all(demos.splice(0).map((d) => d.client.close()));
});
/** A demo whose DEMO_CORS_ORIGINS is `https://app.example` (read from the app's env). */
async function demo(): Promise<Demo<true>> {
  const d = await startDemo({ cookieJar: true, env: { DEMO_CORS_ORIGINS: ALLOWED } });
  demos.push(d);
  return d;
}

const ping = { inbound: PingRequest, outbound: PingResponse } as const;
const chat = { inbound: SendMessage, outbound: ChatMessage } as const;

async function denied(promise: Promise<unknown>): Promise<WebSocketDenied> {
  const error = await promise.then(
    () => new Error('the handshake was accepted'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WebSocketDenied);
  return error as WebSocketDenied;
}

const FORBIDDEN = {
  type: 'forbidden',
  title: 'The caller is authenticated but not allowed to perform this operation',
  status: 403,
};

/** The number of sockets in the chat's lobby. */
function lobby(d: Demo<true>): () => number {
  return () => d.app.chat.subscribers(LOBBY);
}

describe('WS /websocket/{client_id} (bearer)', () => {
  it('answers ping-request with ping-response carrying the client id and the bearer user', async () => {
    const { client } = await demo();
    await using ws = await client.websocket('/websocket/client-1', {
      ...ping,
      headers: { authorization: 'Bearer token' },
    });
    await ws.send({ type: 'ping-request', requestId: 'r1', message: 'hello' });
    expect(await ws.receive()).toEqual({
      type: 'ping-response',
      requestId: 'r1',
      clientId: 'client-1',
      userId: 'user-id',
      message: 'hello',
    });
    await ws.send({ type: 'ping-request', requestId: 'r2', message: 'again' });
    expect(await ws.receive()).toEqual({
      type: 'ping-response',
      requestId: 'r2',
      clientId: 'client-1',
      userId: 'user-id',
      message: 'again',
    });
    expect(await ws.close()).toEqual({ code: 1000, reason: '' });
  });

  it('refuses the handshake without a token (401 authentication-required) or with a bad one (401 invalid-token)', async () => {
    const { client } = await demo();
    const none = await denied(client.websocket('/websocket/client-1', ping));
    expect(none.status).toBe(401);
    expect(none.response.headers.get('content-type')).toBe('application/problem+json');
    expect(none.response.headers.get('www-authenticate')).toBe('Bearer');
    expect(none.response.json()).toEqual({
      type: 'authentication-required',
      title: 'Authentication required',
      status: 401,
    });
    const bad = await denied(
      client.websocket('/websocket/client-1', { ...ping, headers: { authorization: 'Bearer nope' } }),
    );
    expect(bad.status).toBe(401);
    expect(bad.response.json()).toEqual({ type: 'invalid-token', title: 'Invalid token', status: 401 });
  });

  it('does not check Origin on the bearer mount: a foreign Origin is accepted (101)', async () => {
    const { client } = await demo();
    await using ws = await client.websocket('/websocket/c2', {
      ...ping,
      headers: { authorization: 'Bearer token', origin: 'https://evil.example' },
    });
    await ws.send({ type: 'ping-request', requestId: 'x', message: 'from afar' });
    expect(await ws.receive()).toEqual({
      type: 'ping-response',
      requestId: 'x',
      clientId: 'c2',
      userId: 'user-id',
      message: 'from afar',
    });
  });

  it('closes with 1008 on a schema-invalid message, 1007 on malformed JSON', async () => {
    const { client } = await demo();
    const headers = { authorization: 'Bearer token' };
    const invalid = await client.websocket('/websocket/c3', { ...ping, headers });
    await invalid.sendRaw(JSON.stringify({ type: 'ping-request', requestId: 1, message: 'x' }));
    expect(await invalid.closed).toEqual({
      code: 1008,
      reason: 'Expected string, got number at `$.requestId`',
    });
    const malformed = await client.websocket('/websocket/c3', { ...ping, headers });
    await malformed.sendRaw('{"type":');
    expect((await malformed.closed).code).toBe(1007);
  });
});

describe('WS /chat (session cookie)', () => {
  it('broadcasts every send-message to every connected client as chat-message {text, from}', async () => {
    const d = await demo();
    d.client.cookieJar.set('session_id', 'token');
    await using a = await d.client.websocket('/chat', chat);
    await using b = await d.client.websocket('/chat', {
      ...chat,
      cookies: { session_id: 'no-spotlight-token' },
    });
    await until(() => lobby(d)() === 2);
    await b.send({ type: 'send-message', text: 'hi' });
    for (const ws of [a, b])
      expect(await ws.receive()).toEqual({ type: 'chat-message', text: 'hi', from: 'other-name' });
    await a.send({ type: 'send-message', text: 'hello back' });
    for (const ws of [a, b])
      expect(await ws.receive()).toEqual({ type: 'chat-message', text: 'hello back', from: 'user-name' });
  });

  it('refuses the handshake without a session (401) whatever the Origin', async () => {
    const { client } = await demo();
    const error = await denied(
      client.websocket('/chat', { ...chat, headers: { origin: 'https://evil.example' } }),
    );
    expect(error.status).toBe(401);
    expect(error.response.json()).toEqual({
      type: 'authentication-required',
      title: 'Authentication required',
      status: 401,
    });
  });

  it('answers a plain GET (no Upgrade) with 426 + upgrade: websocket', async () => {
    const { client } = await demo();
    const res = await client.get('/chat', { cookies: { session_id: 'token' } });
    expect(res.status).toBe(426);
    expect(res.headers.get('upgrade')).toBe('websocket');
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(res.json()).toEqual({ type: 'upgrade-required', title: 'Upgrade required', status: 426 });
  });
});

describe('WS /chat Origin allow-list: same origin plus DEMO_CORS_ORIGINS', () => {
  it.each([
    ['a foreign Origin', 403, 'https://evil.example'],
    ['an Origin from DEMO_CORS_ORIGINS', 101, ALLOWED],
    ['no Origin (a non-browser client)', 101, undefined],
    ['Origin: null', 403, 'null'],
    ['the same origin (Origin host:port = Host)', 101, 'same'],
    ['the same host on another port', 403, 'other-port'],
  ] as const)('%s → %i', async (_label, status, origin) => {
    const d = await demo();
    const host = new URL(d.client.url).host;
    const value =
      origin === 'same'
        ? `http://${host}`
        : origin === 'other-port'
          ? `http://${host.replace(/:\d+$/, ':1')}`
          : origin;
    const opening = d.client.websocket('/chat', {
      ...chat,
      cookies: { session_id: 'token' },
      ...(value === undefined ? {} : { headers: { origin: value } }),
    });
    if (status === 101) {
      await using ws = await opening;
      await until(() => lobby(d)() === 1);
      await ws.send({ type: 'send-message', text: `via ${String(value)}` });
      expect(await ws.receive()).toEqual({
        type: 'chat-message',
        text: `via ${String(value)}`,
        from: 'user-name',
      });
    } else {
      const error = await denied(opening);
      expect(error.status).toBe(403);
      expect(error.response.headers.get('content-type')).toBe('application/problem+json');
      expect(error.response.json()).toEqual(FORBIDDEN);
      expect(lobby(d)()).toBe(0);
    }
  });

  it('without DEMO_CORS_ORIGINS only the same origin is allowed', async () => {
    const d = await startDemo({ cookieJar: true, env: {} });
    demos.push(d);
    const error = await denied(
      d.client.websocket('/chat', {
        ...chat,
        cookies: { session_id: 'token' },
        headers: { origin: ALLOWED },
      }),
    );
    expect(error.status).toBe(403);
    await using ws = await d.client.websocket('/chat', {
      ...chat,
      cookies: { session_id: 'token' },
      headers: { origin: `http://${new URL(d.client.url).host}` },
    });
    expect(ws.readyState).toBe(1);
  });
});
