// @api/ws's guarantees on the target runtime's `serve()`: hostile frames get a close frame, a
// client that leaves is seen at once (its handler ends, the mount's liveness timer with it), and
// a drop-oldest Channel subscriber that stalled gets up to the latest frame once it reads again,
// and a handler that awaits its sends stops while its client reads nothing.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { call, url, until } from './http';
import { Op, frame, rawWebSocket } from './ws-raw';

interface WsState {
  opened: number;
  closed: number;
  closedAt: number;
  closeCode: number;
  dropped: number;
  sent: number;
  subscribers: number;
}
const wsState = async (): Promise<WsState> => (await call('/_runtime/ws-state')).json() as Promise<WsState>;
const reset = async (): Promise<void> => void (await call('/_runtime/ws-state', { method: 'DELETE' }));

beforeEach(reset);
afterEach(reset);

describe('hostile frames get a close frame within 10 s (the connection alone ends)', () => {
  it.each([
    ['a reserved opcode (3)', frame(Op.reserved, Buffer.from('x'))],
    ['an unmasked client frame', frame(Op.text, Buffer.from('hi'), { mask: false })],
    ['a 126-byte ping (control frames carry ≤ 125)', frame(Op.ping, Buffer.alloc(126))],
  ])('%s → 1002', async (_label, bytes) => {
    const bad = await rawWebSocket('/_runtime/ws/echo');
    await until(async () => (await wsState()).opened === 1);
    bad.socket.write(bytes);
    expect(await bad.closeFrame(10_000)).toBe(1002);
    bad.socket.destroy();
    // The server keeps serving.
    const fresh = await rawWebSocket('/_runtime/ws/echo');
    fresh.socket.write(frame(Op.text, Buffer.from('still here')));
    await until(() => fresh.frames.some((f) => f.opcode === Op.text), 5_000);
    expect(fresh.frames.find((f) => f.opcode === Op.text)!.payload.toString()).toBe('still here');
    fresh.socket.destroy();
  });
});

describe('a client that leaves', () => {
  it('is seen closed within a second (1006): its handler ends, the mount stops pinging it', async () => {
    const ws = new WebSocket(`${url().replace('http', 'ws')}/_runtime/ws/echo`);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    await until(async () => (await wsState()).opened === 1);
    const left = Date.now();
    (ws as unknown as { _socket: { destroy(): void } })._socket.destroy();
    await until(async () => (await wsState()).closed === 1, 5_000);
    const seen = await wsState();
    expect(seen.closeCode).toBe(1006);
    // Node sees the FIN at once (a few ms); the liveness ping (every 30 s) must not be what finds it.
    expect(seen.closedAt - left).toBeLessThan(1_000);
  });
});

describe('Channel drop-oldest behind a stalled subscriber', () => {
  it('delivers up to the latest frame once the subscriber reads again, having dropped the oldest', async () => {
    const ws = new WebSocket(`${url().replace('http', 'ws')}/_runtime/ws/feed`);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    await until(async () => (await wsState()).subscribers === 1);
    const socket = (ws as unknown as { _socket: { pause(): void; resume(): void } })._socket;
    socket.pause();
    let last = -1;
    let received = 0;
    ws.on('message', (data) => {
      received++;
      last = Number(String(data).split(':', 1)[0]);
    });
    // 16 MiB in 1 KiB frames, in bursts: far past the kernel's buffers and the 256 KiB bound.
    const total = 16 * 1024;
    for (let from = 0; from < total; from += 1024) {
      const res = await call('/_runtime/ws-state', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ from, count: 1024, size: 1024 }),
      });
      expect(res.status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    socket.resume();
    await until(() => last === total - 1, 10_000);
    expect(received).toBeLessThan(total); // some were dropped…
    expect(last).toBe(total - 1); // …never the newest
    ws.close();
    await until(async () => (await wsState()).dropped > 0, 5_000);
  });
});

describe('awaited sends to a client that reads nothing', () => {
  it('stop (bounded memory)', async () => {
    const ws = new WebSocket(`${url().replace('http', 'ws')}/_runtime/ws/flood`);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => {
        (ws as unknown as { _socket: { pause(): void } })._socket.pause();
        resolve();
      });
      ws.once('error', reject);
    });
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const first = (await wsState()).sent;
    await new Promise((resolve) => setTimeout(resolve, 500));
    const second = (await wsState()).sent;
    // 16 KiB per send: what the socket buffers hold (a few MiB), never the endless loop (under 64 MiB).
    expect(second).toBeLessThan(4096);
    expect(second).toBe(first);
    ws.terminate();
  });
});
