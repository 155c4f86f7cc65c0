import { Redis } from 'ioredis';
import * as v from 'valibot';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Struct } from '@api/core';
import { recordingLogger, type BareServer } from '../../test/helpers/bare-server';
import { channelServer, subscribe } from '../../test/helpers/channel-server';
import type { Peer } from '../../test/helpers/peer';
import { startRedis, type RedisHandle } from '../../../../config/test/redis';
import { Channel } from './channel';
import { redisBackplane } from './redis-backplane';

const Note = Struct('Note', { n: v.number(), from: v.string() }, { tag: true });

let redis: RedisHandle;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await redis.stop();
});

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

const tick = (ms = 50): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** One "process": a channel on the Redis backplane, with a server its sockets attach through. */
async function node(prefix = 'test:') {
  const log = recordingLogger();
  const client = new Redis(redis.url, { lazyConnect: false, retryStrategy: () => 50 });
  const channel = new Channel(Note, { backplane: redisBackplane(client, { prefix }), log });
  const server: BareServer = await channelServer(channel, [Note]);
  cleanup.push(async () => {
    await server.close();
    await channel.close();
  });
  await until(() => client.status === 'ready');
  return { channel, server, log, client };
}

async function until(condition: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error('timed out waiting for a condition');
    await tick(10);
  }
}

async function messages(peer: Peer, count: number): Promise<unknown[]> {
  const out: unknown[] = [];
  for (let i = 0; i < count; i++) out.push(await peer.json());
  return out;
}

describe('redisBackplane', () => {
  it('delivers a message published in one process to subscribers of both, exactly once', async () => {
    const a = await node();
    const b = await node();
    const pa = await subscribe(a.server.url, 'room');
    const pb = await subscribe(b.server.url, 'room');
    await tick(100); // SUBSCRIBE reaches Redis asynchronously
    a.channel.publish('room', { type: 'Note', n: 1, from: 'a' });
    b.channel.publish('room', { type: 'Note', n: 2, from: 'b' });
    expect(await messages(pa, 2)).toEqual(
      expect.arrayContaining([
        { type: 'Note', n: 1, from: 'a' },
        { type: 'Note', n: 2, from: 'b' },
      ]),
    );
    expect(await messages(pb, 2)).toEqual(
      expect.arrayContaining([
        { type: 'Note', n: 1, from: 'a' },
        { type: 'Note', n: 2, from: 'b' },
      ]),
    );
    await tick(200);
    // Ready + 2 each: no echo of a process's own message came back from Redis.
    expect(pa.received).toHaveLength(3);
    expect(pb.received).toHaveLength(3);
  });

  it('keeps topics and prefixes apart', async () => {
    const a = await node('one:');
    const b = await node('one:');
    const c = await node('two:');
    const pb = await subscribe(b.server.url, 'other');
    const pc = await subscribe(c.server.url, 'room');
    await tick(100);
    a.channel.publish('room', { type: 'Note', n: 1, from: 'a' });
    await tick(200);
    expect(pb.received).toHaveLength(1);
    expect(pc.received).toHaveLength(1);
  });

  it('keeps local fan-out working while Redis is down, warns once, and recovers', async () => {
    const port = redis.port;
    const a = await node();
    const b = await node();
    const pa = await subscribe(a.server.url, 'room');
    const pb = await subscribe(b.server.url, 'room');
    await tick(100);
    await redis.stop();
    await until(() => a.client.status !== 'ready');
    a.channel.publish('room', { type: 'Note', n: 1, from: 'a' });
    a.channel.publish('room', { type: 'Note', n: 2, from: 'a' });
    expect(await messages(pa, 2)).toEqual([
      { type: 'Note', n: 1, from: 'a' },
      { type: 'Note', n: 2, from: 'a' },
    ]);
    const warnings = a.log.lines.filter((l) => l.startsWith('warn '));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/redis backplane \(test:\): .*delivering to this process's subscribers only/);

    redis = await startRedis(port);
    await until(() => a.client.status === 'ready' && b.client.status === 'ready');
    await tick(300); // ioredis resubscribes after reconnecting
    a.channel.publish('room', { type: 'Note', n: 3, from: 'a' });
    expect(await pb.json()).toEqual({ type: 'Note', n: 3, from: 'a' });
    expect(await pa.json()).toEqual({ type: 'Note', n: 3, from: 'a' });
    expect(
      a.log.lines.some((l) => l.startsWith('info ') && l.includes('fan-out across processes resumed')),
    ).toBe(true);
  });

  it('closes its connections with the channel', async () => {
    const client = new Redis(redis.url);
    const channel = new Channel(Note, { backplane: redisBackplane(client), log: recordingLogger() });
    await until(() => client.status === 'ready');
    await channel.close();
    await until(() => client.status === 'end');
    expect(client.status).toBe('end');
  });
});
