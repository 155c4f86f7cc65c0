import * as v from 'valibot';
import { describe, expectTypeOf, it } from 'vitest';
import { BaseApp, RawHeadersView, Struct } from '@api/core';
import { bearerAuth, cookieAuth } from '@api/auth';
import { Channel } from '../channel/channel';
import { websocket, type WebSocket } from '../index';
import { WebSocketEndpoint } from './endpoint';

const PingRequest = Struct('PingRequest', { requestId: v.string(), message: v.string() }, { tag: true });
const Subscribe = Struct('Subscribe', { room: v.string() }, { tag: true });
const PingResponse = Struct(
  'PingResponse',
  { requestId: v.string(), clientId: v.string(), count: v.optional(v.number(), 0) },
  { tag: true },
);
const User = Struct('User', { id: v.string() });
const Admin = Struct('Admin', { id: v.string(), admin: v.literal(true) });
const ClientPath = Struct('ClientPath', { client_id: v.string() });
const Session = Struct('Session', { session_id: v.string() });
const Credentials = Struct('Credentials', { authorization: v.string() });

const gating = bearerAuth({ headers: Credentials, user: User, authenticate: () => ({ id: '1' }) });
const anonymous = bearerAuth({ headers: Credentials, user: v.nullable(User), authenticate: () => null });
const admins = bearerAuth({
  headers: Credentials,
  user: Admin,
  authenticate: () => ({ id: '1', admin: true as const }),
});
const session = cookieAuth({ cookies: Session, user: User, authenticate: () => ({ id: '1' }) });

describe('WebSocketEndpoint handler inference', () => {
  it('infers the declared sources, the inbound union and the outbound input type', () => {
    class PingSocket extends WebSocketEndpoint('/websocket/{client_id}', {
      inbound: [PingRequest, Subscribe],
      outbound: PingResponse,
    }) {
      handle = this.handler(
        { path: ClientPath, user: User, cookies: Session, rawHeaders: true },
        async (input) => {
          expectTypeOf(input.path).toEqualTypeOf<{ client_id: string }>();
          expectTypeOf(input.user).toEqualTypeOf<{ id: string }>();
          expectTypeOf(input.cookies).toEqualTypeOf<{ session_id: string }>();
          expectTypeOf(input.rawHeaders).toEqualTypeOf<RawHeadersView>();
          // @ts-expect-error params was not declared
          void input.params;
          for await (const message of input.websocket) {
            expectTypeOf(message).toEqualTypeOf<
              | { type: 'PingRequest'; requestId: string; message: string }
              | { type: 'Subscribe'; room: string }
            >();
            if (message.type === 'PingRequest') {
              // count is optional on the way out (it has a default)
              await input.websocket.send({
                type: 'PingResponse',
                requestId: message.requestId,
                clientId: input.path.client_id,
              });
            }
          }
          // @ts-expect-error not an outbound message
          await input.websocket.send({ type: 'Subscribe', room: 'x' });
        },
      );
    }
    void PingSocket;
  });

  it("types 'string' and 'bytes' framings", () => {
    class Raw extends WebSocketEndpoint('/raw', { inbound: 'bytes', outbound: 'string' }) {
      handle = this.handler({}, async ({ websocket }) => {
        expectTypeOf(websocket).toEqualTypeOf<WebSocket<Buffer, string>>();
        for await (const bytes of websocket) await websocket.send(bytes.toString('hex'));
        // @ts-expect-error a string socket sends strings
        await websocket.send(new Uint8Array(1));
      });
    }
    void Raw;
  });

  it('rejects a body source, a missing slot and an extra path field at compile time', () => {
    class Bad extends WebSocketEndpoint('/rooms/{room_id}', { inbound: Subscribe, outbound: PingResponse }) {
      // @ts-expect-error a handshake has no body
      a = this.handler({ json: Subscribe }, () => undefined);
      // @ts-expect-error the path schema misses {room_id}
      b = this.handler({ path: ClientPath }, () => undefined);
      c = this.handler(
        // @ts-expect-error client_id is not a slot of the path
        { path: Struct('P', { room_id: v.string(), client_id: v.string() }) },
        () => undefined,
      );
    }
    void Bad;
  });
});

describe('websocket() mount options', () => {
  class WithUser extends WebSocketEndpoint('/u', { inbound: 'string', outbound: 'string' }) {
    handle = this.handler({ user: User }, () => undefined);
  }
  class WithNullable extends WebSocketEndpoint('/n', { inbound: 'string', outbound: 'string' }) {
    handle = this.handler({ user: v.nullable(User) }, () => undefined);
  }
  class WithoutUser extends WebSocketEndpoint('/w', { inbound: 'string', outbound: 'string' }) {
    handle = this.handler({}, () => undefined);
  }

  it("accepts the auth table's allowed cells and the mount's own options", () => {
    class App extends BaseApp {
      protected override async wire(): Promise<void> {
        this.include(websocket(new WithUser(), { auth: gating, pingInterval: 10_000 }));
        this.include(websocket(new WithNullable(), { auth: anonymous }));
        this.include(websocket(new WithoutUser(), { auth: gating, maxFrameSize: 8 }));
        this.include(websocket(new WithUser(), { auth: session, allowedOrigins: ['https://app.example'] }));
        this.include(websocket(new WithoutUser()));
      }
    }
    void App;
  });

  it('rejects a user the authenticator does not produce, at compile time', () => {
    class App extends BaseApp {
      protected override async wire(): Promise<void> {
        // @ts-expect-error gating authenticator, handler declares a nullable user
        this.include(websocket(new WithNullable(), { auth: gating }));
        // @ts-expect-error anonymous authenticator, handler declares a non-null user
        this.include(websocket(new WithUser(), { auth: anonymous }));
        // @ts-expect-error anonymous authenticator, handler declares no user
        this.include(websocket(new WithoutUser(), { auth: anonymous }));
        // @ts-expect-error a different user schema than the authenticator's
        this.include(websocket(new WithUser(), { auth: admins }));
        // @ts-expect-error limits are for request bodies; a handshake has none
        this.include(websocket(new WithoutUser(), { limits: {} }));
      }
    }
    void App;
  });
});

describe('Channel types', () => {
  it('publishes the outbound input type of its schema', () => {
    const channel = new Channel(PingResponse);
    channel.publish('t', { type: 'PingResponse', requestId: 'r', clientId: 'c' });
    // @ts-expect-error not a PingResponse
    channel.publish('t', { type: 'PingResponse', requestId: 1, clientId: 'c' });
  });
});
