import type { Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { bareServer, type BareServer } from '../../test/helpers/bare-server';
import { Peer } from '../../test/helpers/peer';
import { SocketSet } from './socket-set';

let server: BareServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const tick = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function start(set: SocketSet): Promise<BareServer> {
  server = await bareServer({
    inbound: 'string',
    outbound: 'string',
    set,
    handler: async (ws) => {
      for await (const _ of ws);
    },
  });
  return server;
}

describe('SocketSet: liveness', () => {
  it('keeps sockets that answer pings, and cuts one that misses a pong', async () => {
    const set = new SocketSet(40);
    const s = await start(set);
    const healthy = await Peer.open(s.url);
    let pings = 0;
    healthy.raw.on('ping', () => pings++);
    const silent = await Peer.open(s.url, { autoPong: false });
    await tick(300);
    expect(pings).toBeGreaterThanOrEqual(3);
    expect(healthy.raw.readyState).toBe(healthy.raw.OPEN);
    // Cut without a close frame: the client sees an abnormal closure.
    expect((await silent.closed).code).toBe(1006);
    expect(set.size).toBe(1);
  });

  it('runs a timer only while sockets are open', async () => {
    const set = new SocketSet(40);
    const s = await start(set);
    expect(set.pinging).toBe(false);
    const peer = await Peer.open(s.url);
    await tick(20);
    expect(set.pinging).toBe(true);
    peer.raw.close();
    await peer.closed;
    await tick(20);
    expect(set.size).toBe(0);
    expect(set.pinging).toBe(false);
  });

  it('pingInterval 0 sends no pings', async () => {
    const set = new SocketSet(0);
    const s = await start(set);
    const peer = await Peer.open(s.url, { autoPong: false });
    let pings = 0;
    peer.raw.on('ping', () => pings++);
    await tick(100);
    expect(set.pinging).toBe(false);
    expect(pings).toBe(0);
    expect(peer.raw.readyState).toBe(peer.raw.OPEN);
  });
});

describe('SocketSet: shutdown', () => {
  it('closes every socket with 1001 and cuts those that do not answer within the grace', async () => {
    const set = new SocketSet(0);
    const s = await start(set);
    const peers = await Promise.all(Array.from({ length: 5 }, () => Peer.open(s.url)));
    const stuck = await Peer.open(s.url);
    (stuck.raw as unknown as { _socket: Socket })._socket.pause();
    const started = Date.now();
    await set.closeAll(300);
    const took = Date.now() - started;
    expect(set.closing).toBe(true);
    expect(took).toBeGreaterThanOrEqual(250);
    expect(took).toBeLessThan(1500);
    for (const peer of peers)
      expect(await peer.closed).toEqual({ code: 1001, reason: 'server shutting down' });
    expect(set.size).toBe(0);
  });
});
