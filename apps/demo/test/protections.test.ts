// The demo's protections: POST /widgets rate-limited per user (memory, or Redis shared by several
// processes with DEMO_REDIS_URL), security headers on every answer, cross-origin protection on the
// cookie session.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TestClient } from '@api/testing';
import { startRedis, skipRedis, type RedisHandle } from '../../../config/test/redis';
import type { RecordedExchange } from './helpers/conformance';
import { checkContract } from './helpers/contract';
import { AUTH, startDemo } from './helpers/demo';

const exchanges: RecordedExchange[] = [];
const clients: TestClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});
afterAll(async () => {
  await checkContract(exchanges);
});

function recorder(): {
  lines: string[];
  info(m: string): void;
  warn(m: string): void;
  error(m: string): void;
} {
  const lines: string[] = [];
  return {
    lines,
    info: (m) => void lines.push(`info ${m}`),
    warn: (m) => void lines.push(`warn ${m}`),
    error: (m) => void lines.push(`error ${m}`),
  };
}

async function demo(options: Parameters<typeof startDemo>[0] = {}): Promise<TestClient> {
  const { client } = await startDemo({ exchanges, ...options });
  clients.push(client);
  return client;
}

const OTHER = { authorization: 'Bearer no-spotlight-token' };
const widget = (i: number) => ({ json: { name: `limited ${i} ${Math.random()}`, priceCents: i } });

describe('POST /widgets rate limit', () => {
  it('admits 30 a minute per user, then 429 with retry-after and the RateLimit fields; says so at startup', async () => {
    const log = recorder();
    const c = await demo({ logger: log });
    expect(log.lines).toContain(
      "info rate limits: POST /widgets 30 per minute per user, in this process's memory (set DEMO_REDIS_URL to share them between processes)",
    );
    for (let i = 0; i < 30; i++) {
      const res = await c.post('/widgets', { ...widget(i), headers: AUTH });
      expect(res.status).toBe(201);
      expect(res.headers.get('ratelimit-policy')).toBe('"widget-writes";q=30;w=60');
      expect(res.headers.get('ratelimit')).toMatch(new RegExp(`^"widget-writes";r=${29 - i};t=[12]$`));
    }
    const refused = await c.post('/widgets', { ...widget(30), headers: AUTH });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('content-type')).toBe('application/problem+json');
    expect(await refused.json()).toEqual({
      type: 'too-many-requests',
      title: 'The caller has exceeded a rate limit',
      status: 429,
    });
    // One unit every 2 s: at most 2 s to wait, RateLimit says the same.
    const wait = refused.headers.get('retry-after');
    expect(['1', '2']).toContain(wait);
    expect(refused.headers.get('ratelimit')).toBe(`"widget-writes";r=0;t=${wait}`);
    // Per user: another token has its own budget; reads are not limited.
    expect((await c.post('/widgets', { ...widget(31), headers: OTHER })).status).toBe(201);
    const list = await c.get('/widgets', { headers: AUTH });
    expect(list.status).toBe(200);
    expect(list.headers.get('ratelimit')).toBeUndefined();
  });

  describe.skipIf(skipRedis)('with DEMO_REDIS_URL', () => {
    let redis: RedisHandle;
    beforeAll(async () => {
      redis = await startRedis();
    });
    afterAll(async () => {
      await redis?.stop();
    });

    it('shares one limit between two demo processes through Redis', async () => {
      const log = recorder();
      const env = { DEMO_REDIS_URL: redis.url };
      const a = await demo({ env, logger: log, widgetWritesPerMinute: 6 });
      const b = await demo({ env, widgetWritesPerMinute: 6 });
      expect(log.lines).toContain(
        'info rate limits: POST /widgets 6 per minute per user, shared through Redis (DEMO_REDIS_URL, fail open)',
      );
      const statuses: number[] = [];
      for (let i = 0; i < 8; i++)
        statuses.push((await (i % 2 ? b : a).post('/widgets', { ...widget(i), headers: AUTH })).status);
      expect(statuses).toEqual([201, 201, 201, 201, 201, 201, 429, 429]);
    });
  });
});

describe('secure headers', () => {
  const PRESET = {
    'strict-transport-security': 'max-age=31536000; includeSubDomains',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
    'x-frame-options': 'DENY',
  };
  it('are on every answer: operations, errors, 404, assets, the docs page (with its own CSP)', async () => {
    const c = await demo();
    for (const [path, status] of [
      ['/healthz', 200],
      ['/me', 401],
      ['/nowhere', 404],
      ['/assets/index.html', 200],
      ['/openapi.json', 200],
      ['/docs', 200],
    ] as const) {
      const res = await c.get(path);
      expect(res.status, path).toBe(status);
      for (const [name, value] of Object.entries(PRESET))
        expect(res.headers.getAll(name), `${path} ${name}`).toEqual([value]);
    }
    const docs = await c.get('/docs');
    expect(docs.headers.getAll('content-security-policy')).toHaveLength(1);
    expect(docs.headers.get('content-security-policy')).toMatch(/^default-src 'self'/);
  });
});

describe('cross-origin protection on the cookie session', () => {
  it('refuses a cross-site POST or DELETE /session (login CSRF), lets same-origin and non-browser calls through', async () => {
    const c = await demo();
    const cross = { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' };
    const login = (headers: Record<string, string>) =>
      c.post('/session', { json: { token: 'token' }, headers });
    const refused = await login(cross);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({
      type: 'cross-origin-request',
      title: 'Cross-origin request refused',
      status: 403,
    });
    expect(refused.headers.get('set-cookie')).toBeUndefined();
    expect((await c.delete('/session', { headers: cross })).status).toBe(403);
    expect((await login({ 'sec-fetch-site': 'same-origin' })).status).toBe(204);
    expect((await login({})).status).toBe(204);
    expect((await login({ origin: c.url })).status).toBe(204);
  });
});
