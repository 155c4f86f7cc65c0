// The Redis store against a real redis-server: two processes of one app enforce one limit, and
// an outage (Redis killed, then restarted) follows the mode each process chose.
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startRedis, skipRedis, type RedisHandle } from '../../../config/test/redis';
import { rateOf, redisStore } from '../src/index';
import { startChild, type Child } from './fixtures/child';
import { get, load } from './fixtures/load';
import { Agent } from 'node:http';
import type { RateLimitStats } from '../src/index';

let redis: RedisHandle;
const children: Child[] = [];
const clients: Redis[] = [];

beforeAll(async () => {
  if (!skipRedis) redis = await startRedis();
});
afterAll(async () => {
  await redis?.stop();
});
afterEach(async () => {
  await Promise.all(children.splice(0).map((c) => c.kill()));
  for (const c of clients.splice(0)) c.disconnect();
});

async function child(env: Record<string, string>): Promise<Child> {
  const c = await startChild('./redis-app.ts', { REDIS_URL: redis.url, ...env });
  children.push(c);
  return c;
}

async function until(condition: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > end) throw new Error('timed out waiting for a condition');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe.skipIf(skipRedis)('redisStore', () => {
  it('charges every bucket of a request or none, on the server clock', async () => {
    const client = new Redis(redis.url);
    clients.push(client);
    await until(() => client.status === 'ready');
    const store = redisStore(client, { prefix: 'unit:' });
    const a = { key: 'a', rate: rateOf(2, 60), cost: 1 };
    const b = { key: 'b', rate: rateOf(1, 60), cost: 1 };
    const first = await store.take([a, b]);
    expect(first.allowed).toBe(true);
    expect(first.tats).toEqual([first.now + 30_000_000, first.now + 60_000_000]);
    const second = await store.take([a, b]);
    // b is full: nothing charged, a keeps its TAT.
    expect(second.allowed).toBe(false);
    expect(second.tats[0]).toBe(first.now + 30_000_000);
    expect((await store.take([a])).allowed).toBe(true);
    expect((await store.take([a])).allowed).toBe(false);
    // Keys expire when the bucket is full again (PX), so idle partitions cost nothing.
    const ttl = await client.pttl('unit:b');
    expect(ttl).toBeGreaterThan(50_000);
    expect(ttl).toBeLessThanOrEqual(60_000);
  });

  it('waits for the first connection (not an outage), but never for a reconnection', async () => {
    const client = new Redis(redis.url, { retryStrategy: () => 50 });
    clients.push(client);
    expect(client.status).not.toBe('ready');
    const store = redisStore(client, { prefix: 'first:' });
    const taken = await store.take([{ key: 'k', rate: rateOf(1, 60), cost: 1 }]);
    expect(taken.allowed).toBe(true);
    client.disconnect(true); // reconnects: "reconnecting" now is an outage
    await until(() => client.status !== 'ready');
    await expect(store.take([{ key: 'k', rate: rateOf(1, 60), cost: 1 }])).rejects.toThrow(/^Redis is /);
  });

  it('makes two processes behind one Redis admit exactly the limit in total', async () => {
    const a = await child({ LIMIT: '25', PREFIX: 'two:' });
    const b = await child({ LIMIT: '25', PREFIX: 'two:' });
    const started = Date.now();
    const answers = await load([`${a.url}/notes`, `${b.url}/notes`], 50, 120);
    const elapsed = (Date.now() - started) / 1000;
    const ok = answers.filter((r) => r.status === 200);
    const refused = answers.filter((r) => r.status === 429);
    expect(answers.filter((r) => r.status !== 200 && r.status !== 429)).toEqual([]);
    expect(ok).toHaveLength(25);
    expect(refused).toHaveLength(95);
    // Each process took half the load, and one limit held across them (which process admitted
    // the 25 depends on which reached Redis first).
    const statsA = (await a.ask<{ stats: RateLimitStats }>('stats')).stats;
    const statsB = (await b.ask<{ stats: RateLimitStats }>('stats')).stats;
    expect(statsA.allowed + statsA.limited).toBe(60);
    expect(statsB.allowed + statsB.limited).toBe(60);
    expect(statsA.allowed + statsB.allowed).toBe(25);
    // 25 per 600 s: one unit every 24 s; every refusal says so (minus the time the burst took).
    for (const r of refused) {
      const wait = Number(r.headers['retry-after']);
      expect(wait).toBeLessThanOrEqual(24);
      expect(wait).toBeGreaterThanOrEqual(24 - Math.ceil(elapsed));
      expect(r.headers.ratelimit).toBe(`"shared";r=0;t=${wait}`);
      expect(JSON.parse(r.body)).toEqual({
        type: 'too-many-requests',
        title: 'The caller has exceeded a rate limit',
        status: 429,
      });
    }
    expect(ok.map((r) => r.headers['ratelimit-policy'])).toEqual(new Array(25).fill('"shared";q=25;w=600'));
  });

  it('follows the chosen mode while Redis is down, logs each transition once, and recovers', async () => {
    const open = await child({ LIMIT: '3', MODE: 'allow', PREFIX: 'outage:' });
    const closed = await child({ LIMIT: '3', MODE: 'refuse', PREFIX: 'outage:' });
    const agent = new Agent({ keepAlive: true });
    try {
      expect((await get(`${open.url}/notes`, agent)).status).toBe(200);
      expect((await get(`${closed.url}/notes`, agent)).status).toBe(200);
      const port = redis.port;
      await redis.stop();
      // Until ioredis notices, a command fails or times out (250 ms): down either way.
      for (let i = 0; i < 5; i++) {
        const served = await get(`${open.url}/notes`, agent);
        expect(served.status).toBe(200);
        expect(served.headers.ratelimit).toBeUndefined();
        expect(served.headers['ratelimit-policy']).toBe('"shared";q=3;w=600');
        const refused = await get(`${closed.url}/notes`, agent);
        expect([refused.status, refused.headers['retry-after']]).toEqual([503, '1']);
        expect(JSON.parse(refused.body)).toEqual({
          type: 'service-unavailable',
          title: 'Service unavailable',
          status: 503,
        });
      }
      const down = await open.ask<{ stats: RateLimitStats; lines: string[] }>('stats');
      expect(down.stats).toMatchObject({ failedOpen: 5, outages: 1, storeDown: true });
      expect(down.lines.filter((l) => l.startsWith('warn '))).toEqual([
        'warn rate limit: the redis store is unavailable; limited routes let requests through unlimited until it answers again',
      ]);
      const downClosed = await closed.ask<{ stats: RateLimitStats; lines: string[] }>('stats');
      expect(downClosed.stats).toMatchObject({ failedClosed: 5, outages: 1, storeDown: true });
      expect(downClosed.lines.filter((l) => l.startsWith('warn '))).toEqual([
        'warn rate limit: the redis store is unavailable; limited routes answer 503 until it answers again',
      ]);

      redis = await startRedis(port);
      // Reconnected (and the script reloaded after NOSCRIPT): each process counts again, in one
      // bucket again (both limit 127.0.0.1 under one prefix; Redis restarted empty).
      await until(async () => (await get(`${closed.url}/notes`, agent)).status === 200);
      await until(async () => (await get(`${open.url}/notes`, agent)).headers.ratelimit !== undefined);
      const counted = await get(`${open.url}/notes`, agent);
      expect(counted.headers.ratelimit).toMatch(/^"shared";r=\d;t=\d+$/);
      expect([200, 429]).toContain(counted.status);
      for (const c of [open, closed]) {
        const after = await c.ask<{ stats: RateLimitStats; lines: string[] }>('stats');
        expect(after.stats).toMatchObject({ outages: 1, recoveries: 1, storeDown: false });
        expect(after.lines.filter((l) => l.startsWith('info rate limit'))).toEqual([
          'info rate limit: the redis store answers again; limits apply',
        ]);
      }
    } finally {
      agent.destroy();
    }
  });
});
