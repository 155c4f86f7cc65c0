// Over a real socket: 429 Problems with retry-after, the draft's fields on every limited answer,
// limits per app, mount and operation, partitions by address and by user, what is never counted.
import { afterEach, describe, expect, it } from 'vitest';
import { TestClient } from '@api/testing';
import { cors } from '@api/cors';
import { LimitedApp } from './fixtures/app';
import { memoryLogger } from './fixtures/logger';

const clients: TestClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

async function start(
  app = new LimitedApp({ logger: memoryLogger() }),
): Promise<{ c: TestClient; app: LimitedApp }> {
  const c = await TestClient.start(app);
  clients.push(c);
  return { c, app };
}

const PROBLEM_429 = {
  type: 'too-many-requests',
  title: 'The caller has exceeded a rate limit',
  status: 429,
};

describe('the app default policy', () => {
  it('admits `limit` requests, then answers a 429 Problem with retry-after and the fields', async () => {
    const { c, app } = await start();
    const seen: [number, string | undefined, string | undefined][] = [];
    for (let i = 0; i < 4; i++) {
      const res = await c.get('/notes');
      seen.push([res.status, res.headers.get('ratelimit'), res.headers.get('retry-after')]);
      expect(res.headers.get('ratelimit-policy')).toBe('"api";q=3;w=60');
    }
    expect(seen).toEqual([
      [200, '"api";r=2;t=20', undefined],
      [200, '"api";r=1;t=20', undefined],
      [200, '"api";r=0;t=20', undefined],
      [429, '"api";r=0;t=20', '20'],
    ]);
    const refused = await c.get('/notes');
    expect(refused.headers.get('content-type')).toBe('application/problem+json');
    expect(await refused.json()).toEqual(PROBLEM_429);
    // 5 s later: 15 s to wait; 20 s later one unit is back.
    app.clock += 5_000;
    const later = await c.get('/notes');
    expect([later.status, later.headers.get('retry-after'), later.headers.get('ratelimit')]).toEqual([
      429,
      '15',
      '"api";r=0;t=15',
    ]);
    app.clock += 15_000;
    const again = await c.get('/notes');
    expect([again.status, again.headers.get('ratelimit')]).toEqual([200, '"api";r=0;t=20']);
    expect(app.limiter!.stats()).toMatchObject({ allowed: 4, limited: 3, outages: 0, storeDown: false });
  });

  it('counts a policy across the routes it covers (one budget per partition)', async () => {
    const { c } = await start();
    expect((await c.get('/notes')).status).toBe(200);
    expect((await c.post('/notes', { json: { text: 'a' } })).status).toBe(200);
    // A refused body still counts: the limit runs before the body is read.
    expect((await c.post('/notes', { json: { text: 1 } })).status).toBe(422);
    const res = await c.post('/notes', { json: { text: 'b' } });
    expect(res.status).toBe(429);
  });

  it('never counts health probes, automatic OPTIONS answers (preflights) or unrouted answers', async () => {
    const { c } = await start();
    for (let i = 0; i < 5; i++) {
      const health = await c.get('/healthz');
      expect(health.status).toBe(200);
      expect(health.headers.get('ratelimit')).toBeUndefined();
      const preflight = await c.options('/notes', {
        headers: { origin: 'https://a.example', 'access-control-request-method': 'POST' },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('ratelimit')).toBeUndefined();
      expect(preflight.headers.get('ratelimit-policy')).toBeUndefined();
      expect((await c.get('/nowhere')).status).toBe(404);
    }
    expect((await c.get('/notes')).headers.get('ratelimit')).toBe('"api";r=2;t=20');
  });

  it('is off on a mount with rateLimit: false', async () => {
    const { c } = await start();
    for (let i = 0; i < 5; i++) {
      const res = await c.get('/open');
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit-policy')).toBeUndefined();
    }
  });

  it("partitions by client address, from X-Forwarded-For only behind the app's trusted proxy", async () => {
    // trustProxy: 1 — the one proxy appended what it saw; what the client wrote (9.9.9.9) is ignored.
    const trusting = new LimitedApp({ logger: memoryLogger(), trustProxy: 1 });
    const { c } = await start(trusting);
    const from = (address: string) =>
      c.get('/notes', { headers: { 'x-forwarded-for': `9.9.9.9, ${address}` } });
    for (let i = 0; i < 3; i++) expect((await from('203.0.113.1')).status).toBe(200);
    expect((await from('203.0.113.1')).status).toBe(429);
    expect((await from('203.0.113.2')).status).toBe(200);
    // Not trusted: the header is ignored, every request is the socket's peer (127.0.0.1).
    const { c: plain } = await start();
    for (let i = 0; i < 3; i++)
      expect((await plain.get('/notes', { headers: { 'x-forwarded-for': `203.0.113.${i}` } })).status).toBe(
        200,
      );
    expect((await plain.get('/notes', { headers: { 'x-forwarded-for': '203.0.113.9' } })).status).toBe(429);
  });
});

describe('per mount and per operation', () => {
  it('limits one operation per user, after authentication, leaving the others to the app default', async () => {
    const { c } = await start();
    const as = (user: string) => ({ headers: { authorization: `Bearer ${user}` } });
    const create = async (user: string) => c.post('/widgets', { json: { text: 'w' }, ...as(user) });
    const first = await create('ada');
    expect(first.status).toBe(201);
    expect(await first.json()).toEqual({ text: 'w by ada' });
    expect(first.headers.get('ratelimit-policy')).toBe('"writes";q=2;w=10');
    expect(first.headers.get('ratelimit')).toBe('"writes";r=1;t=5');
    expect((await create('ada')).status).toBe(201);
    const refused = await create('ada');
    expect([refused.status, refused.headers.get('retry-after'), refused.headers.get('ratelimit')]).toEqual([
      429,
      '5',
      '"writes";r=0;t=5',
    ]);
    // Another user has its own bucket; an unauthenticated call is a 401 and is not counted.
    expect((await create('bob')).status).toBe(201);
    expect((await c.post('/widgets', { json: { text: 'w' } })).status).toBe(401);
    // readMany is not named: the app default (per address) applies.
    const list = await c.get('/widgets', as('ada'));
    expect([list.status, list.headers.get('ratelimit-policy')]).toEqual([200, '"api";q=3;w=60']);
  });

  it('charges every policy of rateLimits(…) or none, with one RateLimit item each', async () => {
    const { c } = await start();
    const first = await c.get('/search');
    expect(first.headers.get('ratelimit-policy')).toBe('"burst";q=5;w=10, "slow";q=4;w=60');
    expect(first.headers.get('ratelimit')).toBe('"burst";r=4;t=2, "slow";r=3;t=15');
    // cost 2 on "slow" (?deep): 1 left there; then a deep search (2) does not fit "slow" → 429,
    // and "burst" is not charged for it.
    expect((await c.get('/search?deep=1')).headers.get('ratelimit')).toBe('"burst";r=3;t=2, "slow";r=1;t=15');
    const refused = await c.get('/search?deep=1');
    expect([refused.status, refused.headers.get('retry-after'), refused.headers.get('ratelimit')]).toEqual([
      429,
      '15',
      '"burst";r=3;t=2, "slow";r=1;t=15',
    ]);
    expect((await c.get('/search')).headers.get('ratelimit')).toBe('"burst";r=2;t=2, "slow";r=0;t=15');
  });
});

describe('with other packages', () => {
  it('leaves the preflight to CORS and puts the fields on CORS-covered answers', async () => {
    class WithCors extends LimitedApp {
      protected override async wire(): Promise<void> {
        this.include(
          cors({ allowOrigins: '*', exposeHeaders: ['ratelimit', 'ratelimit-policy', 'retry-after'] }),
        );
        await super.wire();
      }
    }
    const { c } = await start(new WithCors({ logger: memoryLogger() }));
    const preflight = await c.options('/notes', {
      headers: { origin: 'https://a.example', 'access-control-request-method': 'POST' },
    });
    expect([preflight.status, preflight.headers.get('access-control-allow-methods')]).toEqual([
      204,
      'GET, POST, PUT, PATCH, DELETE',
    ]);
    const res = await c.get('/notes', { headers: { origin: 'https://a.example' } });
    expect(res.headers.get('access-control-expose-headers')).toBe('ratelimit, ratelimit-policy, retry-after');
    expect(res.headers.get('ratelimit')).toBe('"api";r=2;t=20');
  });
});
