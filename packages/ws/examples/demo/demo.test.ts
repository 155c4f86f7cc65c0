// The demo's two sockets, mounted the way apps/demo will mount them (tokens and the session
// cookie as in apps/demo/src/auth.ts).
import * as v from 'valibot';
import { afterEach, describe, expect, it } from 'vitest';
import { AuthenticationRequiredError, BaseApp, Struct } from '@api/core';
import { bearerAuth, cookieAuth } from '@api/auth';
import { TestClient } from '@api/testing';
import { websocket } from '@api/ws';
import { openWebSocket, WebSocketDenied } from '../../testing-helper/websocket-session';
import { ChatMessage, PingRequest, PingResponse, SendMessage } from './models';
import { ChatSocket, PingSocket, User } from './sockets';
import { chatChannel, chatOrigins } from './wire';

const USERS = new Map([
  ['token', { id: 'user-id', name: 'user-name', maySeeSpotlight: true }],
  ['no-spotlight-token', { id: 'other-id', name: 'other-name', maySeeSpotlight: false }],
]);
const tokenAuth = bearerAuth({
  headers: Struct('Credentials', { authorization: v.string() }),
  user: User,
  authenticate: ({ headers }) => USERS.get(headers.authorization.replace(/^Bearer /, '')),
});
const sessionAuth = cookieAuth({
  cookies: Struct('SessionCookies', { session_id: v.string() }),
  user: User,
  authenticate: ({ cookies }) => {
    const user = USERS.get(cookies.session_id);
    if (!user) throw new AuthenticationRequiredError();
    return user;
  },
});

class Demo extends BaseApp {
  chat: ReturnType<typeof chatChannel> | undefined;
  protected override async wire(): Promise<void> {
    const chat = await this.aenter(chatChannel(undefined));
    this.chat = chat;
    this.include(websocket(new PingSocket(), { auth: tokenAuth }));
    this.include(
      websocket(new ChatSocket(chat), {
        auth: sessionAuth,
        allowedOrigins: chatOrigins('https://app.example'),
      }),
    );
  }
}

const clients: TestClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});
async function client(): Promise<TestClient<true>> {
  const c = await TestClient.start(new Demo({ logger: { info() {}, warn() {}, error() {} } }), {
    cookieJar: true,
  });
  clients.push(c);
  return c;
}

describe('demo sockets', () => {
  it('WS /websocket/{client_id}: ping-request → ping-response, with the bearer user', async () => {
    const c = await client();
    await using ws = await openWebSocket(c, '/websocket/client-1', {
      inbound: PingRequest,
      outbound: PingResponse,
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
    const denied = (await openWebSocket(c, '/websocket/client-1', {
      inbound: PingRequest,
      outbound: PingResponse,
    }).catch((e: unknown) => e)) as WebSocketDenied;
    expect(denied.status).toBe(401);
  });

  it('WS /chat: session cookie, Origin allow-list, broadcast to every client', async () => {
    const c = await client();
    c.cookieJar.set('session_id', 'token');
    const foreign = (await openWebSocket(c, '/chat', {
      inbound: SendMessage,
      outbound: ChatMessage,
      headers: { origin: 'https://evil.example' },
    }).catch((e: unknown) => e)) as WebSocketDenied;
    expect(foreign.status).toBe(403);
    await using a = await openWebSocket(c, '/chat', {
      inbound: SendMessage,
      outbound: ChatMessage,
      headers: { origin: 'https://app.example' },
    });
    await using b = await openWebSocket(c, '/chat', {
      inbound: SendMessage,
      outbound: ChatMessage,
      cookies: { session_id: 'no-spotlight-token' },
    });
    const chat = (c.app as Demo).chat!;
    while (chat.subscribers('lobby') < 2) await new Promise((r) => setTimeout(r, 5));
    await b.send({ type: 'send-message', text: 'hi' });
    for (const ws of [a, b])
      expect(await ws.receive()).toEqual({ type: 'chat-message', text: 'hi', from: 'other-name' });
  });
});
