// On the fetch transport (app.fetch on a fetch-only runtime) there is no node:http upgrade: a
// WebSocket endpoint fails wiring, saying so, instead of answering 426 to every handshake.
import { describe, expect, it } from 'vitest';
import { BaseApp, WiringError } from '@api/core';
import { websocket, WebSocketEndpoint } from '../src/index';
import { quietLogger } from './fixtures/app';

class Echo extends WebSocketEndpoint('/echo', { inbound: 'string', outbound: 'string' }) {
  handle = this.handler({}, async ({ websocket: ws }) => {
    for await (const text of ws) await ws.send(text);
  });
}

class App extends BaseApp {
  protected override async wire(): Promise<void> {
    this.include(websocket(new Echo()));
  }
}

describe('websocket() on the fetch transport', () => {
  it('fails wiring with a WiringError naming the endpoint and the fix', async () => {
    const started = new App({ logger: quietLogger() }).start({ transport: 'fetch' });
    await expect(started).rejects.toBeInstanceOf(WiringError);
    await expect(started).rejects.toThrow(
      "WebSockets need node:http's upgrade, and App is started for the fetch transport (app.fetch, or start({ transport: 'fetch' })), which has none. Fix: serve the app with serve() (Node, Bun, Deno)",
    );
  });

  it('answers app.fetch with a logged 503 when the app was never started', async () => {
    const lines: string[] = [];
    const logger = { ...quietLogger(), error: (m: string) => void lines.push(m) };
    const res = await new App({ logger }).fetch(new Request('http://x/echo'));
    expect(res.status).toBe(503);
    expect(lines).toEqual(['App failed to start']);
  });
});
