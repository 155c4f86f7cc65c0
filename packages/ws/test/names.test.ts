// A WebSocketEndpoint's `name` is what the catalogue and WiringErrors call it, whatever a bundler
// named the class (esbuild: `var ChatSocket = class _ChatSocket …` for a class that refers to itself).
import { describe, expect, it } from 'vitest';
import { BaseApp, WiringError } from '@api/core';
import { routeClassName } from '@api/core/extension';
import { websocket, WebSocketEndpoint } from '../src/index';
import { quietLogger } from './fixtures/app';

const ChatSocket = class _ChatSocket extends WebSocketEndpoint('/chat', {
  inbound: 'string',
  outbound: 'string',
  name: 'ChatSocket',
}) {
  handle = this.handler({}, () => undefined);
};
const Unnamed = class _Unnamed extends WebSocketEndpoint('/unnamed', {
  inbound: 'string',
  outbound: 'string',
}) {
  handle = this.handler({}, () => undefined);
};

describe('WebSocketEndpoint name', () => {
  it('is the catalogue owner of the upgrade route (the class name without it)', async () => {
    class App extends BaseApp {
      protected override async wire(): Promise<void> {
        this.include(websocket(new ChatSocket()));
        this.include(websocket(new Unnamed()));
      }
    }
    const app = new App({ logger: quietLogger() });
    await app.start();
    try {
      expect(
        app.catalogue.routes
          .filter((r) => r.kind === 'upgrade')
          .map((r) => `${r.method} ${r.path} ${r.owner}.${r.operation}`),
      ).toEqual(['GET /chat ChatSocket.handle', 'GET /unnamed _Unnamed.handle']);
      expect(routeClassName(ChatSocket)).toBe('ChatSocket');
    } finally {
      await app.close();
    }
  });

  it('names the class in WiringErrors', async () => {
    const Broken = class _Broken extends WebSocketEndpoint('/broken', {
      inbound: 'string',
      outbound: 'string',
      name: 'Broken',
    }) {};
    class App extends BaseApp {
      protected override async wire(): Promise<void> {
        this.include(websocket(new Broken() as never));
      }
    }
    const error = await new App({ logger: quietLogger() }).start().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(WiringError);
    expect((error as Error).message).toBe(
      'Broken.handle: is missing. Fix: declare `handle = this.handler({ … }, async ({ websocket }) => { … })`.',
    );
  });

  it('must be an identifier', () => {
    expect(() =>
      WebSocketEndpoint('/chat', { inbound: 'string', outbound: 'string', name: 'chat socket' }),
    ).toThrow(
      new WiringError(
        `WebSocketEndpoint("/chat", { name }): name must be an identifier (letters, digits and _, not starting with a digit), got "chat socket". Fix: name the class as in its declaration, e.g. name: 'WidgetResource'.`,
      ),
    );
  });
});
