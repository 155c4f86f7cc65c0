// A WebSocket session reports how it ended to the route's observeClose hooks: with the app's
// request log on, one `connection closed` line per socket, with its lifetime and close code.
import { afterEach, describe, expect, it } from 'vitest';
import { BaseApp, type LogFields } from '@api/core';
import { TestClient } from '@api/testing';
import { websocket } from '../src/index';
import { EchoSocket } from './fixtures/app';
import { Peer } from './helpers/peer';

const lines: { message: string; fields: LogFields | undefined }[] = [];
const logger = {
  info: (message: string, fields?: LogFields) => void lines.push({ message, fields }),
  warn: () => undefined,
  error: () => undefined,
};
class App extends BaseApp {
  protected override async wire(): Promise<void> {
    this.include(websocket(new EchoSocket(), { pingInterval: 0 }));
  }
}

const clients: TestClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  lines.length = 0;
});

describe('the close of a WebSocket, in the request log', () => {
  it('logs one line per socket with the close code it ended with', async () => {
    const client = await TestClient.start(new App({ logger, requestLog: true }));
    clients.push(client);
    const url = `${client.url.replace(/^http/, 'ws')}/echo`;
    for (const [control, code] of [
      [{ action: 'close', code: 4001, reason: 'done' }, 4001],
      [{ action: 'return' }, 1000],
      [{ action: 'throw' }, 1011],
    ] as const) {
      const peer = await Peer.open(url, { headers: { 'x-request-id': `ws-${code}` } });
      peer.send({ type: 'Control', ...control });
      expect((await peer.closed).code).toBe(code);
      for (let i = 0; i < 200 && !lines.some((l) => l.fields?.requestId === `ws-${code}`); i++)
        await new Promise((resolve) => setTimeout(resolve, 5));
      expect(lines.find((l) => l.fields?.requestId === `ws-${code}`)).toEqual({
        message: 'connection closed',
        fields: {
          method: 'GET',
          route: '/echo',
          path: '/echo',
          status: 101,
          durationMs: expect.any(Number),
          requestId: `ws-${code}`,
          closeCode: code,
        },
      });
    }
    expect(lines.map((l) => l.message)).toEqual([
      'connection closed',
      'connection closed',
      'connection closed',
    ]);
  });
});
