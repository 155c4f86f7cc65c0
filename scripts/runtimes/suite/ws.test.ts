// WebSockets on the target runtime's node:http upgrade.
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { url } from './http';

describe('websocket', () => {
  it('answers a ping over the bearer-authenticated socket', async () => {
    const ws = new WebSocket(`${url().replace('http', 'ws')}/websocket/c1`, {
      headers: { authorization: 'Bearer token' },
    });
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    const reply = new Promise<unknown>((resolve) =>
      ws.once('message', (data) => resolve(JSON.parse(String(data)))),
    );
    ws.send(JSON.stringify({ type: 'ping-request', requestId: 'r1', message: 'hi' }));
    expect(await reply).toEqual({
      type: 'ping-response',
      requestId: 'r1',
      clientId: 'c1',
      userId: 'user-id',
      message: 'hi',
    });
    const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
    ws.close(1000);
    expect(await closed).toBe(1000);
  });

  it('refuses a handshake without a token: 401 before the upgrade', async () => {
    const ws = new WebSocket(`${url().replace('http', 'ws')}/websocket/c1`);
    const status = await new Promise<number>((resolve) => {
      ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      ws.once('error', () => resolve(-1));
    });
    expect(status).toBe(401);
  });
});
