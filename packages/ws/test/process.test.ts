// Tests that need the app in its own process: memory under a hostile client, SIGTERM, and two
// processes sharing a Redis backplane.
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startFixture, type FixtureProcess } from './helpers/child';
import { frame, Op } from './helpers/frames';
import { KEY } from './helpers/handshake';
import { Peer } from './helpers/peer';
import { startRedis, type RedisHandle } from '../../../config/test/redis';

const running: FixtureProcess[] = [];
const redises: RedisHandle[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((p) => p.kill()));
  await Promise.all(redises.splice(0).map((r) => r.stop()));
});

async function fixture(env: Record<string, string> = {}): Promise<FixtureProcess> {
  const p = await startFixture(env);
  running.push(p);
  return p;
}

const MiB = 1024 * 1024;

/** Opens a raw WebSocket connection (handshake only) and resolves with the socket after 101. */
function rawSocket(port: number, path: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(
        `GET ${path} HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\nconnection: Upgrade\r\nupgrade: websocket\r\nsec-websocket-version: 13\r\nsec-websocket-key: ${KEY}\r\n\r\n`,
      );
    });
    let head = '';
    const onData = (chunk: Buffer): void => {
      head += chunk.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      socket.off('data', onData);
      if (head.startsWith('HTTP/1.1 101')) resolve(socket);
      else reject(new Error(head.split('\r\n')[0]));
    };
    socket.on('data', onData);
    socket.on('error', reject);
  });
}

describe('a client trying to send 100 MiB', () => {
  it('is refused from the length header; the server RSS grows by less than 8 MiB', async () => {
    const server = await fixture({ FIXTURE_SIGNALS: '0' });
    // Warm up: a few ordinary sockets, so the baseline includes the code paths in use.
    for (let i = 0; i < 3; i++) {
      const warm = await Peer.open(`${server.ws}/size`);
      warm.raw.send(Buffer.alloc(1000));
      await warm.text();
      warm.raw.close();
      await warm.closed;
    }
    await new Promise((r) => setTimeout(r, 200));
    const before = server.rss();
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, server.rss())), 5);

    const socket = await rawSocket(server.port, '/size');
    const closed = new Promise<number>((resolve) => {
      let buf = Buffer.alloc(0);
      socket.on('data', (chunk: Buffer) => {
        buf = Buffer.concat([buf, chunk]);
        // Server frames are unmasked: 0x88, length, code.
        const at = buf.indexOf(0x88);
        if (at >= 0 && buf.length >= at + 4) resolve(buf.readUInt16BE(at + 2));
      });
    });
    // One binary frame announcing 100 MiB, then its payload in 64 KiB chunks until the server hangs up.
    const total = 100 * MiB;
    const header = frame(Op.binary, Buffer.alloc(0), { length: total });
    socket.write(header.subarray(0, header.length));
    const chunk = Buffer.alloc(64 * 1024, 7);
    let sent = 0;
    let broken = false;
    socket.on('error', () => (broken = true));
    socket.on('close', () => (broken = true));
    while (sent < total && !broken) {
      if (!socket.write(chunk)) await new Promise((r) => socket.once('drain', r).once('close', r));
      sent += chunk.length;
    }
    expect(await closed).toBe(1009);
    await new Promise((r) => setTimeout(r, 100));
    clearInterval(sampler);
    socket.destroy();
    expect(peak - before).toBeLessThan(8 * MiB);
  }, 60_000);
});

describe('SIGTERM with 100 open sockets', () => {
  it('closes every socket with 1001 and exits within the shutdown cap', async () => {
    const server = await fixture();
    const peers = await Promise.all(Array.from({ length: 100 }, () => Peer.open(`${server.ws}/echo`)));
    // They are live: each one echoes.
    await Promise.all(
      peers.map(async (peer, i) => {
        peer.send({ type: 'Say', text: String(i) });
        expect(await peer.json()).toEqual({ type: 'Said', text: String(i) });
      }),
    );
    const started = Date.now();
    server.child.kill('SIGTERM');
    const closes = await Promise.all(peers.map((p) => p.closed));
    expect(closes.every((c) => c.code === 1001 && c.reason === 'server shutting down')).toBe(true);
    expect(await server.exited).toBe(0);
    // The cap is 10 s; clients that answer the close let it finish at once.
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(Date.now() - started).toBeLessThan(3_000);
  }, 60_000);

  it('cuts clients that do not answer the close after the grace, still within the cap', async () => {
    const server = await fixture();
    const stuck = await Promise.all(Array.from({ length: 5 }, () => Peer.open(`${server.ws}/echo`)));
    for (const peer of stuck) (peer.raw as unknown as { _socket: Socket })._socket.pause();
    const started = Date.now();
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(900);
    expect(took).toBeLessThan(10_000);
  }, 60_000);
});

describe('two processes on one Redis', () => {
  it('a /chat message sent to one reaches the clients of both, once', async () => {
    const redis = await startRedis();
    redises.push(redis);
    const one = await fixture({ FIXTURE_REDIS_URL: redis.url });
    const two = await fixture({ FIXTURE_REDIS_URL: redis.url });
    const cookie = (token: string) => ({ headers: { cookie: `session_id=${token}` } });
    const a1 = await Peer.open(`${one.ws}/chat`, cookie('token'));
    const a2 = await Peer.open(`${one.ws}/chat`, cookie('other'));
    const b1 = await Peer.open(`${two.ws}/chat`, cookie('other'));
    one.send({ cmd: 'chat-ready', count: 2 });
    two.send({ cmd: 'chat-ready', count: 1 });
    await Promise.all([one.event('chat-ready'), two.event('chat-ready')]);
    await new Promise((r) => setTimeout(r, 200)); // SUBSCRIBE reaches Redis asynchronously

    a1.send({ type: 'send-message', text: 'from one' });
    b1.send({ type: 'send-message', text: 'from two' });
    const expected = [
      { type: 'chat-message', text: 'from one', from: 'user-name' },
      { type: 'chat-message', text: 'from two', from: 'other-name' },
    ];
    for (const peer of [a1, a2, b1]) {
      const got = [await peer.json(), await peer.json()];
      expect(got).toEqual(expect.arrayContaining(expected));
    }
    await new Promise((r) => setTimeout(r, 300));
    for (const peer of [a1, a2, b1]) expect(peer.received).toHaveLength(2);
  }, 60_000);
});
