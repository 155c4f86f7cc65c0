// The demo as it runs in production: its own Node process started from a tsup bundle one level
// below apps/demo (like dist/main.js) and from another working directory. Proves the assets
// directory is resolved from the module, the chat fans out across two processes through one
// Redis (and keeps working locally without it), and SIGTERM drains the background queue.
import { readFileSync } from 'node:fs';
import { Redis } from 'ioredis';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from './helpers/demo';
import {
  buildDemo,
  messagesOf,
  removeBuild,
  startDemoProcess,
  startRedis,
  type DemoProcess,
  type RedisServer,
} from './helpers/process';

const BUILD = '.test-build';
const AUTH = { authorization: 'Bearer token' };
let redis: RedisServer;
let a: DemoProcess;
let b: DemoProcess;
let main: string;

beforeAll(async () => {
  main = await buildDemo(BUILD);
  redis = await startRedis();
  [a, b] = await Promise.all([
    // `a` exports its spans to the console (the standard OTEL_TRACES_EXPORTER); `b` exports none.
    startDemoProcess(main, { DEMO_REDIS_URL: redis.url, OTEL_TRACES_EXPORTER: 'console' }),
    startDemoProcess(main, { DEMO_REDIS_URL: redis.url }),
  ]);
}, 60_000);

afterAll(async () => {
  await Promise.all([a?.kill(), b?.kill()]);
  await redis?.stop();
  removeBuild(BUILD);
});

/** A chat client (no browser: no Origin) with the `token` session; collects what it receives. */
async function chatClient(base: string, session = 'token'): Promise<{ ws: WebSocket; received: unknown[] }> {
  const ws = new WebSocket(`${base.replace(/^http/, 'ws')}/chat`, {
    headers: { cookie: `session_id=${session}` },
  });
  const received: unknown[] = [];
  ws.on('message', (data: Buffer) => received.push(JSON.parse(data.toString('utf8'))));
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  return { ws, received };
}

describe('the built demo in its own process', () => {
  it('serves /assets from apps/demo/public although started from another directory', async () => {
    const page = await fetch(`${a.url}/assets/index.html`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(
      Buffer.from(await page.arrayBuffer()).equals(
        readFileSync(new URL('../public/index.html', import.meta.url)),
      ),
    ).toBe(true);
    const docs = await fetch(`${a.url}/docs`);
    expect(docs.status).toBe(200);
    expect((await fetch(`${a.url}/healthz`)).status).toBe(200);
  });

  it('logs the URLs an operator needs at startup (the page first), and each answers', async () => {
    const urls = messagesOf(a.output())
      .map((m) => /^[\w ()-]+: +((?:http|ws):\/\/\S+)$/.exec(m)?.[1])
      .filter((u) => u !== undefined);
    const port = new URL(a.url).port;
    expect(urls).toEqual([
      `http://localhost:${port}/`,
      `http://localhost:${port}/docs`,
      `http://localhost:${port}/openapi.json`,
      `http://localhost:${port}/assets/notifications.html`,
      `http://localhost:${port}/healthz`,
      `http://localhost:${port}/livez`,
      `http://localhost:${port}/readyz`,
      `http://localhost:${port}/metrics`,
      `http://localhost:${port}/api/auth`,
      `http://localhost:${port}/mcp-sdk`,
      `ws://localhost:${port}/chat`,
    ]);
    // The mounted handlers own their prefix; the prefix alone is not a page of theirs.
    const pages = urls.filter((u) => u.startsWith('http:') && !/\/api\/auth$|\/mcp-sdk$/.test(u));
    for (const url of pages) {
      // localhost may resolve to ::1 first; the demo listens on 127.0.0.1.
      const res = await fetch(url.replace('localhost', '127.0.0.1'));
      expect(res.status, url).toBe(200);
      await res.body?.cancel();
    }
  });

  it('logs pino JSON lines (stdout is a pipe) and, with OTEL_TRACES_EXPORTER=console, prints each span', async () => {
    const res = await fetch(`${a.url}/healthz`, {
      headers: {
        traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
        'x-request-id': 'proc-1',
      },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBe('proc-1');
    // The span printed for this request (an earlier /healthz printed one too): its own trace id.
    await until(() => a.output().includes("traceId: '4bf92f3577b34da6a3ce929d0e0e4736'"), 10_000);
    expect(a.output()).toContain("name: 'GET /healthz'");
    await until(() => a.output().includes('"requestId":"proc-1"'), 10_000);
    const line = a
      .output()
      .split('\n')
      .find((l) => l.includes('"requestId":"proc-1"'));
    expect(JSON.parse(line!)).toMatchObject({
      level: 30,
      msg: 'request finished',
      method: 'GET',
      route: '/healthz',
      status: 200,
    });
    // No exporter asked for: nothing printed.
    await fetch(`${b.url}/healthz`);
    expect(b.output()).not.toContain("name: 'GET /healthz'");
  });

  it('answers the probes and serves Prometheus text at /metrics (a scrape, as Prometheus does it)', async () => {
    expect(await (await fetch(`${a.url}/livez`)).text()).toBe('{"status":"ok"}');
    const ready = await fetch(`${a.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(ready.headers.get('cache-control')).toBe('no-store');
    expect((await fetch(`${a.url}/healthz`)).status).toBe(200);
    const scrape = await fetch(`${a.url}/metrics`, { headers: { accept: 'text/plain;version=0.0.4' } });
    expect(scrape.status).toBe(200);
    expect(scrape.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const text = await scrape.text();
    expect(text).toContain('# TYPE http_server_request_duration histogram');
    expect(text).toContain('# UNIT http_server_request_duration s');
    // By route template, method, scheme and status; the semconv buckets (0.005 … 10 s).
    const bucket = text
      .split('\n')
      .find(
        (l) =>
          l.startsWith('http_server_request_duration_bucket{') &&
          l.includes('http_route="/healthz"') &&
          l.includes('le="0.005"'),
      );
    expect(bucket).toMatch(/http_request_method="GET"/);
    expect(bucket).toMatch(/http_response_status_code="200"/);
    expect(bucket).toMatch(/url_scheme="http"/);
    expect(text).toMatch(
      /http_server_request_duration_bucket\{[^}]*http_route="\/healthz"[^}]*le="10"\} \d+/,
    );
    expect(text).toMatch(/# TYPE http_server_active_requests gauge/);
    // Probes are answered before routing: no metrics, no request-log lines for them.
    expect(text).not.toContain('http_route="/livez"');
  });

  it('refuses an OTEL_TRACES_EXPORTER it does not ship: exit 2 before listening, naming the fix', async () => {
    const failure = await startDemoProcess(main, { OTEL_TRACES_EXPORTER: 'zipkin' }).then(
      () => new Error('the demo started'),
      (error: unknown) => error as Error,
    );
    expect(failure.message).toContain('the demo exited with 2 before listening');
    expect(failure.message).toContain('is not an exporter this demo ships (console, none)');
  });

  it('fans chat messages out across two processes through one Redis, each exactly once', async () => {
    const onA = await chatClient(a.url);
    const onB = await chatClient(b.url, 'no-spotlight-token');
    const probe = new Redis(redis.url);
    try {
      // Both processes have subscribed the lobby's Redis channel.
      for (let i = 0; ; i++) {
        const [, count] = (await probe.pubsub('NUMSUB', 'demo:chat:lobby')) as [string, number];
        if (count === 2) break;
        if (i > 200) throw new Error(`only ${count} subscriber(s) on demo:chat:lobby`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      onA.ws.send(JSON.stringify({ type: 'send-message', text: 'from A' }));
      onB.ws.send(JSON.stringify({ type: 'send-message', text: 'from B' }));
      await until(() => onA.received.length >= 2 && onB.received.length >= 2);
      await new Promise((resolve) => setTimeout(resolve, 200)); // room for a duplicate to show up
      for (const { received } of [onA, onB]) {
        expect(received).toHaveLength(2);
        expect(received).toEqual(
          expect.arrayContaining([
            { type: 'chat-message', text: 'from A', from: 'user-name' },
            { type: 'chat-message', text: 'from B', from: 'other-name' },
          ]),
        );
      }
    } finally {
      probe.disconnect();
      onA.ws.close();
      onB.ws.close();
    }
  }, 30_000);

  it('keeps local fan-out working when Redis goes away, and logs a warning', async () => {
    const first = await chatClient(a.url);
    const second = await chatClient(a.url, 'no-spotlight-token');
    try {
      await redis.stop();
      await until(() => a.output().includes('redis backplane (demo:chat:): Redis is unreachable'), 10_000);
      first.ws.send(JSON.stringify({ type: 'send-message', text: 'still here' }));
      await until(() => first.received.length === 1 && second.received.length === 1);
      for (const { received } of [first, second])
        expect(received).toEqual([{ type: 'chat-message', text: 'still here', from: 'user-name' }]);
    } finally {
      first.ws.close();
      second.ws.close();
    }
  }, 30_000);

  it('SIGTERM right after POST /widgets and a reindex: both items are processed, then a clean exit (0)', async () => {
    const created = await fetch(`${b.url}/widgets`, {
      method: 'POST',
      headers: { ...AUTH, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'last one', priceCents: 1 }),
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const reindex = await fetch(`${b.url}/widgets/${id}/reindex`, { method: 'POST', headers: AUTH });
    expect(reindex.status).toBe(202);
    b.child.kill('SIGTERM');
    expect(await b.exited).toBe(0);
    const lines = b.messages();
    const at = (line: string): number => {
      const index = lines.indexOf(line);
      expect(index, line).toBeGreaterThanOrEqual(0);
      return index;
    };
    const stopped = at('DemoApp stopped');
    expect(at('SIGTERM received')).toBeLessThan(
      at('DemoApp shutting down: no new connections, finishing in-flight requests'),
    );
    // Processed before the app finished shutting down (the drain runs before the store closes).
    expect(at(`background task done: created:${id}`)).toBeLessThan(stopped);
    expect(at(`background task done: reindexed:${id}`)).toBeLessThan(stopped);
  }, 30_000);
});
