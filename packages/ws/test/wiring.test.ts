// Wiring mistakes fail at start with a WiringError naming the class, the problem and the fix.
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { BaseApp, defineMiddleware, ForbiddenError, Struct, WiringError } from '@api/core';
import { bearerAuth } from '@api/auth';
import { websocket, WebSocketEndpoint, type WebSocketOptions } from '../src/index';
import { quietLogger, sessionAuth, tokenAuth, User } from './fixtures/app';

const Admin = Struct('Admin', { id: v.string() });
const adminAuth = bearerAuth({
  headers: Struct('AdminCredentials', { authorization: v.string() }),
  user: Admin,
  authenticate: () => ({ id: 'a' }),
});
const anonymousAuth = bearerAuth({
  headers: Struct('MaybeCredentials', { authorization: v.optional(v.string()) }),
  user: v.nullable(User),
  authenticate: () => null,
});

async function start(
  mount: (include: (ext: ReturnType<typeof websocket>) => void) => void,
): Promise<unknown> {
  class App extends BaseApp {
    protected override async wire(): Promise<void> {
      mount((ext) => this.include(ext));
    }
  }
  return new App({ logger: quietLogger() }).start().then(
    () => undefined,
    (error: unknown) => error,
  );
}

async function expectWiringError(
  mount: (include: (ext: ReturnType<typeof websocket>) => void) => void,
  message: RegExp,
): Promise<void> {
  const error = await start(mount);
  expect(error).toBeInstanceOf(WiringError);
  expect((error as Error).message).toMatch(message);
  expect((error as Error).message).toMatch(/Fix: /);
  // Coded (docs/errors.md), never the generic API_WIRING; the message starts with `where`.
  expect((error as WiringError).code).toMatch(/^API_WIRING_[A-Z_]+$/);
  expect((error as Error).message.startsWith(`${(error as WiringError).where}: `)).toBe(true);
}

class Plain extends WebSocketEndpoint('/plain', { inbound: 'string', outbound: 'string' }) {
  handle = this.handler({}, () => undefined);
}
class WithUser extends WebSocketEndpoint('/user', { inbound: 'string', outbound: 'string' }) {
  handle = this.handler({ user: User }, () => undefined);
}
class Slots extends WebSocketEndpoint('/rooms/{room_id}', { inbound: 'string', outbound: 'string' }) {
  handle = this.handler({ path: Struct('RoomPath', { room_id: v.string() }) }, () => undefined);
}
const loose = <T extends object>(options: Record<string, unknown>): WebSocketOptions<T> => options;

describe('websocket(): wiring errors', () => {
  it('gives each kind of mistake its code', async () => {
    const codeOf = async (mount: Parameters<typeof start>[0]): Promise<unknown> =>
      ((await start(mount)) as WiringError).code;
    expect(await codeOf((include) => include(websocket(new Plain(), loose({ maxFrameSize: 0 }))))).toBe(
      'API_WIRING_LIMIT',
    );
    expect(await codeOf((include) => include(websocket(new WithUser())))).toBe('API_WIRING_SOURCE');
    expect(await codeOf((include) => include(websocket(Plain as never)))).toBe(
      'API_WIRING_MOUNT_WRONG_CLASS',
    );
    expect(
      await codeOf((include) =>
        include(websocket(new Plain(), loose({ allowedOrigins: ['https://a.example'] }))),
      ),
    ).toBe('API_WIRING_WS_ORIGIN');
  });

  it('refuses something that is not a WebSocketEndpoint, saying what was passed', async () => {
    const error = await start((include) => include(websocket({ handle: {} } as never)));
    expect(error).toBeInstanceOf(WiringError);
    expect((error as Error).message).toBe(
      "App.include(websocket(…)): expected an instance of a WebSocketEndpoint class, got a plain object. Fix: declare the class with `class ChatSocket extends WebSocketEndpoint('/path', { inbound, outbound }) { handle = this.handler(…) }` and pass `new ChatSocket(…)`.",
    );
    await expectWiringError(
      (include) => include(websocket(Plain as never)),
      /got the class Plain itself, not an instance\. Fix: pass an instance: websocket\(new Plain\(…\)\)\./,
    );
    class NotASocket {
      handle = {};
    }
    await expectWiringError(
      (include) => include(websocket(new NotASocket() as never)),
      /got an instance of NotASocket, which is not declared with WebSocketEndpoint\(…\)\. Fix: /,
    );
    await expectWiringError((include) => include(websocket(undefined as never)), /got undefined\. Fix: /);
  });

  it('refuses mount middleware whose intercept does not run for GET (the handshake would be unguarded)', async () => {
    const postOnly = defineMiddleware({
      interceptMethods: ['POST', 'DELETE'],
      intercept: () => {
        throw new ForbiddenError();
      },
    });
    const error = await start((include) => include(websocket(new Plain(), { middleware: [postOnly] })));
    expect(error).toBeInstanceOf(WiringError);
    expect((error as Error).message).toBe(
      "Plain.handle: mount middleware[0] intercepts POST, DELETE only, but a WebSocket handshake is a GET, so its intercept would never run and the socket would not be guarded. Fix: add 'GET' to its interceptMethods (e.g. interceptMethods: ['GET']), or leave it off this mount.",
    );
    const headersOnly = defineMiddleware({ responseHeaders: { 'x-a': '1' } });
    const get = defineMiddleware({ interceptMethods: ['GET', 'POST'], intercept: () => undefined });
    expect(
      await start((include) => include(websocket(new Plain(), { middleware: [headersOnly, get] }))),
    ).toBeUndefined();
    await expectWiringError(
      (include) => include(websocket(new Plain(), loose({ middleware: postOnly }))),
      /Plain\.handle: mount option "middleware" must be a list/,
    );
  });

  it('refuses an endpoint without a handle declared by this.handler', async () => {
    class NoHandle extends WebSocketEndpoint('/x', { inbound: 'string', outbound: 'string' }) {}
    class WrongHandle extends WebSocketEndpoint('/y', { inbound: 'string', outbound: 'string' }) {
      handle = (): void => undefined;
    }
    await expectWiringError(
      (include) => include(websocket(new NoHandle() as never)),
      /NoHandle\.handle: is missing/,
    );
    await expectWiringError(
      (include) => include(websocket(new WrongHandle() as never)),
      /WrongHandle\.handle: is not a handler/,
    );
  });

  it('refuses a body source at run time too', async () => {
    class Body extends WebSocketEndpoint('/b', { inbound: 'string', outbound: 'string' }) {
      // @ts-expect-error a handshake has no body
      handle = this.handler({ json: User }, () => undefined);
    }
    await expectWiringError(
      (include) => include(websocket(new Body())),
      /Body\.handle: unknown handshake source "json"/,
    );
  });

  it('checks path schemas against the slots', async () => {
    class Missing extends WebSocketEndpoint('/r/{room_id}', { inbound: 'string', outbound: 'string' }) {
      // @ts-expect-error misses room_id
      handle = this.handler({ path: Struct('Other', { other: v.string() }) }, () => undefined);
    }
    class Defaulted extends WebSocketEndpoint('/d/{room_id}', { inbound: 'string', outbound: 'string' }) {
      handle = this.handler(
        { path: Struct('Opt', { room_id: v.optional(v.string(), 'x') }) },
        () => undefined,
      );
    }
    await expectWiringError(
      (include) => include(websocket(new Missing())),
      /Missing\.handle: path "\/r\/\{room_id\}" has slot "\{room_id\}" but the path schema has no field "room_id"/,
    );
    await expectWiringError(
      (include) => include(websocket(new Defaulted())),
      /Defaulted\.handle: path field "room_id" cannot be optional or defaulted/,
    );
    expect(await start((include) => include(websocket(new Slots())))).toBeUndefined();
  });

  it("checks user against the mount's authenticator (the spec's table)", async () => {
    await expectWiringError(
      (include) => include(websocket(new WithUser())),
      /WithUser\.handle: declares user, but the mount has no auth/,
    );
    await expectWiringError(
      (include) => include(websocket(new WithUser(), loose({ auth: adminAuth }))),
      /declares user: User, but the authenticator returns Admin/,
    );
    await expectWiringError(
      (include) => include(websocket(new WithUser(), loose({ auth: anonymousAuth }))),
      /declares user: User, but the authenticator accepts anonymous callers/,
    );
    await expectWiringError(
      (include) => include(websocket(new Plain(), loose({ auth: anonymousAuth }))),
      /Plain\.handle: the mount's authenticator accepts anonymous callers \(v\.nullable\(User\)\) but the handler declares no user/,
    );
    expect(await start((include) => include(websocket(new WithUser(), { auth: tokenAuth })))).toBeUndefined();
    expect(await start((include) => include(websocket(new Plain(), { auth: tokenAuth })))).toBeUndefined();
  });

  it('refuses allowedOrigins where no Origin check runs, and bad origins where it does', async () => {
    await expectWiringError(
      (include) =>
        include(websocket(new Plain(), { auth: tokenAuth, allowedOrigins: ['https://a.example'] })),
      /Plain\.handle: allowedOrigins has no effect here/,
    );
    await expectWiringError(
      (include) =>
        include(websocket(new WithUser(), { auth: sessionAuth, allowedOrigins: ['https://a.example/'] })),
      /allowedOrigins entry "https:\/\/a\.example\/" is not an origin/,
    );
    await expectWiringError(
      (include) => include(websocket(new WithUser(), { auth: sessionAuth, allowedOrigins: ['null'] })),
      /allowedOrigins cannot hold "null"/,
    );
  });

  it('refuses a bad maxFrameSize or pingInterval', async () => {
    for (const maxFrameSize of [0, -1, 1.5, Number.NaN]) {
      await expectWiringError(
        (include) => include(websocket(new Plain(), { maxFrameSize })),
        /maxFrameSize must be a whole number/,
      );
    }
    await expectWiringError(
      (include) => include(websocket(new Plain(), { pingInterval: -5 })),
      /pingInterval must be whole milliseconds/,
    );
  });

  it('refuses two sockets on one path', async () => {
    const error = await start((include) => {
      include(websocket(new Plain()));
      include(websocket(new Plain()));
    });
    expect(error).toBeInstanceOf(WiringError);
  });

  it('refuses framings when the class is declared', () => {
    expect(() => WebSocketEndpoint('/f', { inbound: User as never, outbound: 'string' })).toThrow(
      WiringError,
    );
    expect(() => WebSocketEndpoint('/f', { inbound: User as never, outbound: 'string' })).toThrow(
      /WebSocketEndpoint\("\/f"\) inbound: Struct User is not tagged/,
    );
    expect(() => WebSocketEndpoint('f', { inbound: 'string', outbound: 'string' })).toThrow(TypeError);
  });
});
