// A Redis that accepts the connection and never answers (a hung server, a full network path): the
// store's one timeout sweep fails each call within its bound, and the app's onStoreDown decides.
import { createServer, type Server, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { BaseApp } from '@api/core';
import { TestClient } from '@api/testing';
import { RateLimit, rateLimit, redisStore, type StoreDownMode } from '../src/index';
import { Notes } from './fixtures/app';
import { memoryLogger } from './fixtures/logger';

const TIMEOUT_MS = 200;
/** The latest a call fails: the timeout and one sweep period (a quarter of it). */
const BOUND_MS = TIMEOUT_MS * 1.25;

const cleanup: (() => Promise<unknown> | void)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

/**
 * A TCP server speaking just enough Redis for ioredis to connect (HELLO refused: RESP2; CLIENT,
 * INFO answered OK), that never answers a script (EVALSHA, EVAL): a hung server, as the store sees it.
 */
async function hungRedis(): Promise<{ url: string; scripts: () => number }> {
  const sockets = new Set<Socket>();
  let scripts = 0;
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('data', (chunk: Buffer) => {
      for (const [, command] of String(chunk).matchAll(/\*\d+\r\n\$\d+\r\n([A-Za-z]+)\r\n/g)) {
        const name = command!.toLowerCase();
        if (name === 'evalsha' || name === 'eval') scripts++;
        else socket.write(name === 'hello' ? "-ERR unknown command 'hello'\r\n" : '+OK\r\n');
      }
    });
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanup.push(
    () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(resolve);
      }),
  );
  const { port } = server.address() as { port: number };
  return { url: `redis://127.0.0.1:${port}`, scripts: () => scripts };
}

async function start(
  mode: StoreDownMode,
): Promise<{ c: TestClient; lines: string[]; scripts: () => number }> {
  const redis = await hungRedis();
  const client = new Redis(redis.url, { maxRetriesPerRequest: 0 });
  await new Promise((resolve) => client.once('ready', resolve));
  cleanup.push(() => client.disconnect());
  const log = memoryLogger();
  class App extends BaseApp {
    protected override async wire(): Promise<void> {
      this.include(
        rateLimit({
          store: redisStore(client, { timeoutMs: TIMEOUT_MS }),
          onStoreDown: mode,
          policy: new RateLimit({ name: 'api', limit: 5, window: 60 }),
        }),
      );
      this.includeEndpoint(new Notes());
    }
  }
  const c = await TestClient.start(new App({ logger: log }));
  cleanup.push(() => c.close());
  return { c, lines: log.lines, scripts: redis.scripts };
}

describe('a Redis that never answers', () => {
  it('fails closed with 503 once the timeout has passed, within its bound (×2 margin)', async () => {
    const { c, lines, scripts } = await start('refuse');
    const began = performance.now();
    const answers = await Promise.all([c.get('/notes'), c.get('/notes'), c.get('/notes')]);
    const elapsed = performance.now() - began;
    expect(answers.map((r) => [r.status, r.headers.get('retry-after'), r.headers.get('ratelimit')])).toEqual(
      new Array(3).fill([503, '1', undefined]),
    );
    expect(answers[0].headers.get('ratelimit-policy')).toBe('"api";q=5;w=60');
    expect(await answers[0].json()).toEqual({
      type: 'service-unavailable',
      title: 'Service unavailable',
      status: 503,
    });
    // Not before the timeout (a few ms for timers started on the loop's cached clock), and
    // within twice the bound.
    expect(elapsed).toBeGreaterThanOrEqual(TIMEOUT_MS - 10);
    expect(elapsed).toBeLessThan(2 * BOUND_MS);
    expect(scripts()).toBe(3); // each request's script call reached the server
    expect(lines.filter((l) => l.startsWith('warn '))).toEqual([
      'warn rate limit: the redis store is unavailable; limited routes answer 503 until it answers again',
    ]);
  });

  it('fails open: the request is served unlimited after the timeout', async () => {
    const { c } = await start('allow');
    const began = performance.now();
    const res = await c.get('/notes');
    const elapsed = performance.now() - began;
    expect([res.status, res.headers.get('ratelimit')]).toEqual([200, undefined]);
    expect(await res.json()).toEqual({ text: 'hello' });
    expect(elapsed).toBeGreaterThanOrEqual(TIMEOUT_MS - 10);
    expect(elapsed).toBeLessThan(2 * BOUND_MS);
  });
});
