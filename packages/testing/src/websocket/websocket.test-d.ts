import * as v from 'valibot';
import { describe, expectTypeOf, it } from 'vitest';
import { BaseApp, Struct } from '@api/core';
import { TestClient } from '../client/test-client';
import type { ResponseHead, ResponseHeaders } from '../client/test-response';
import type { WebSocketReceive, WebSocketSend } from './framing';
import type { WebSocketDenied } from './websocket-denied';
import type { WebSocketClose, WebSocketSession } from './websocket-session';

class App extends BaseApp {
  protected override async wire(): Promise<void> {}
}

const Ping = Struct('Ping', { text: v.string(), count: v.optional(v.number(), 1) }, { tag: true });
const Pong = Struct(
  'Pong',
  {
    text: v.string(),
    at: v.pipe(
      v.string(),
      v.transform((s) => new Date(s)),
    ),
  },
  { tag: true },
);
const Notice = Struct('Notice', { level: v.picklist(['info', 'warn']) }, { tag: true });

type PingIn = { type: 'Ping'; text: string; count?: number | undefined };
type PongOut = { type: 'Pong'; text: string; at: Date };
type NoticeOut = { type: 'Notice'; level: 'info' | 'warn' };

describe('client.websocket types', () => {
  const client = new TestClient(new App());

  it('infers send from inbound (schema input) and receive from outbound (schema output)', async () => {
    const ws = await client.websocket('/x', { inbound: Ping, outbound: Pong });
    expectTypeOf(ws).toEqualTypeOf<WebSocketSession<PingIn, PongOut>>();
    expectTypeOf(ws.send).parameter(0).toEqualTypeOf<PingIn>();
    expectTypeOf(ws.receive()).toEqualTypeOf<Promise<PongOut>>();
    for await (const message of ws) expectTypeOf(message).toEqualTypeOf<PongOut>();
    // @ts-expect-error a Pong is not what this socket sends
    void ws.send({ type: 'Pong', text: 'x', at: '' });
    // @ts-expect-error a missing field
    void ws.send({ type: 'Ping' });
  });

  it('types a list or a variant of tagged schemas as the union of their members', async () => {
    const list = await client.websocket('/x', { inbound: [Ping, Notice], outbound: [Pong, Notice] });
    expectTypeOf(list.send).parameter(0).toEqualTypeOf<PingIn | NoticeOut>();
    expectTypeOf(await list.receive()).toEqualTypeOf<PongOut | NoticeOut>();
    const variant = await client.websocket('/x', {
      inbound: 'string',
      outbound: v.variant('type', [Pong, Notice]),
    });
    expectTypeOf(await variant.receive()).toEqualTypeOf<PongOut | NoticeOut>();
  });

  it("types 'string' and 'bytes'", async () => {
    const text = await client.websocket('/x', { inbound: 'string', outbound: 'string' });
    expectTypeOf(text).toEqualTypeOf<WebSocketSession<string, string>>();
    const bytes = await client.websocket('/x', { inbound: 'bytes', outbound: 'bytes' });
    expectTypeOf(bytes.send).parameter(0).toEqualTypeOf<Uint8Array>();
    expectTypeOf(await bytes.receive()).toEqualTypeOf<Buffer>();
    // @ts-expect-error a text socket sends strings
    void text.send(new Uint8Array());
  });

  it('exposes the session surface without ws types', async () => {
    const ws = await client.websocket('/x', { inbound: Ping, outbound: Pong });
    expectTypeOf(ws.closed).toEqualTypeOf<Promise<WebSocketClose>>();
    expectTypeOf(ws.close(4000, 'bye')).toEqualTypeOf<Promise<WebSocketClose>>();
    expectTypeOf(ws.terminate()).toEqualTypeOf<Promise<WebSocketClose>>();
    expectTypeOf(ws.readyState).toEqualTypeOf<0 | 1 | 2 | 3>();
    expectTypeOf(ws.protocol).toEqualTypeOf<string>();
    expectTypeOf(ws.handshake).toEqualTypeOf<ResponseHead>();
    expectTypeOf(ws.sendRaw('x', { binary: true })).toEqualTypeOf<Promise<void>>();
    expectTypeOf(ws).toMatchTypeOf<AsyncDisposable>();
    expectTypeOf(ws).not.toHaveProperty('raw');
  });

  it('requires inbound and outbound and checks the other options', () => {
    // @ts-expect-error outbound is required
    void client.websocket('/x', { inbound: Ping });
    // @ts-expect-error an unknown marker
    void client.websocket('/x', { inbound: 'text', outbound: Pong });
    // @ts-expect-error a plain object is not a schema
    void client.websocket('/x', { inbound: Ping, outbound: { type: 'Pong' } });
    // @ts-expect-error params values are scalars or lists of scalars
    void client.websocket('/x', { inbound: Ping, outbound: Pong, params: { a: { b: 1 } } });
    // @ts-expect-error cookies are strings
    void client.websocket('/x', { inbound: Ping, outbound: Pong, cookies: { a: 1 } });
    // @ts-expect-error unknown option
    void client.websocket('/x', { inbound: Ping, outbound: Pong, cookie: 'a=1' });
    void client.websocket('/x', {
      inbound: Ping,
      outbound: Pong,
      params: { room: 'a', n: 1, tags: ['x'] },
      headers: [['authorization', 'Bearer t']],
      cookies: { session_id: 's' },
      protocols: ['chat.v1'],
    });
  });

  it('names the send and receive types for a framing', () => {
    expectTypeOf<WebSocketSend<typeof Ping>>().toEqualTypeOf<PingIn>();
    expectTypeOf<WebSocketReceive<typeof Pong>>().toEqualTypeOf<PongOut>();
    expectTypeOf<WebSocketSend<'bytes'>>().toEqualTypeOf<Uint8Array>();
    expectTypeOf<WebSocketReceive<'bytes'>>().toEqualTypeOf<Buffer>();
    expectTypeOf<WebSocketReceive<readonly [typeof Pong, typeof Notice]>>().toEqualTypeOf<
      PongOut | NoticeOut
    >();
  });

  it('types a refusal like a response', () => {
    const denied = {} as WebSocketDenied;
    expectTypeOf(denied.status).toEqualTypeOf<number>();
    expectTypeOf(denied.headers).toEqualTypeOf<ResponseHeaders>();
    expectTypeOf(denied.body).toEqualTypeOf<Buffer>();
    expectTypeOf(denied.json()).toEqualTypeOf<unknown>();
    expectTypeOf(denied.json<{ type: string }>()).toEqualTypeOf<{ type: string }>();
    expectTypeOf(denied).toMatchTypeOf<Error>();
  });
});
