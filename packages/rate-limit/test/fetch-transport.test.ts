// On the fetch transport (app.fetch) the app is not told the peer: limits by address need the app's
// trustProxy (core's client address); a custom key works as on node:http.
import { describe, expect, it } from 'vitest';
import { BaseApp, WiringError, type AppOptions } from '@api/core';
import { memoryStore, RateLimit, rateLimit } from '../src/index';
import { Notes } from './fixtures/app';
import { memoryLogger } from './fixtures/logger';

function app(policy: RateLimit, options: AppOptions = {}) {
  class App extends BaseApp {
    protected override async wire(): Promise<void> {
      this.include(rateLimit({ store: memoryStore(), policy }));
      this.includeEndpoint(new Notes());
    }
  }
  return new App({ logger: memoryLogger(), env: {}, ...options });
}

describe('on the fetch transport', () => {
  it('takes the trust from APP_TRUST_FORWARDED when the app sets no trustProxy, and warns once that the first entry is believed', async () => {
    const logger = memoryLogger();
    const trusted = app(new RateLimit({ name: 'api', limit: 1, window: 60 }), {
      logger,
      env: { APP_TRUST_FORWARDED: '1' },
    });
    const from = (ip: string) =>
      trusted.fetch(new Request('http://x.test/notes', { headers: { 'x-forwarded-for': ip } }));
    expect((await from('203.0.113.1, 10.0.0.1')).status).toBe(200);
    expect((await from('203.0.113.1, 10.0.0.2')).status).toBe(429);
    expect((await from('203.0.113.2, 10.0.0.1')).status).toBe(200);
    expect(logger.lines.filter((l) => l.includes('trustProxy is true'))).toEqual([
      'warn rate limits by client address: trustProxy is true, so the client address is the first X-Forwarded-For entry, which a client can write itself; set trustProxy to the number of proxies in front of the app (e.g. 1)',
    ]);
    await trusted.close();
  });

  it("refuses a proxyHops option, pointing at the app's trustProxy", async () => {
    class App extends BaseApp {
      protected override async wire(): Promise<void> {
        const setup = { store: memoryStore(), proxyHops: 1 };
        this.include(rateLimit(setup as unknown as Parameters<typeof rateLimit>[0]));
      }
    }
    const started = new App({ logger: memoryLogger(), env: {} }).start({ transport: 'fetch' });
    await expect(started).rejects.toMatchObject({
      code: 'API_WIRING_UNKNOWN_OPTION',
      message:
        'App.include(rateLimit()): unknown option "proxyHops". Fix: use only store, onStoreDown, policy, skip (the client address follows the app\'s trustProxy).',
    });
  });

  it('refuses a policy by address without trusted proxies', async () => {
    const a = app(new RateLimit({ name: 'api', limit: 2, window: 60 }));
    const started = a.start({ transport: 'fetch' });
    await expect(started).rejects.toBeInstanceOf(WiringError);
    await expect(started).rejects.toMatchObject({ code: 'API_WIRING_APP_STATE', where: 'Notes.get' });
    await expect(started).rejects.toThrow(
      'Notes.get: a policy partitions by client address, but on the fetch transport the app is not told the peer. Fix:',
    );
  });

  it("limits by X-Forwarded-For behind the app's trusted proxy, and by a key function", async () => {
    const trusted = app(new RateLimit({ name: 'api', limit: 1, window: 60 }), { trustProxy: 1 });
    const from = (ip: string) =>
      trusted.fetch(new Request('http://x.test/notes', { headers: { 'x-forwarded-for': ip } }));
    expect((await from('203.0.113.1')).status).toBe(200);
    const refused = await from('203.0.113.1');
    expect([refused.status, refused.headers.get('retry-after')]).toEqual([429, '60']);
    expect((await from('203.0.113.2')).status).toBe(200);
    // One trusted hop: the entry the proxy appended (the last) is the client, not what the client wrote.
    expect((await from('198.51.100.7, 203.0.113.1')).status).toBe(429);
    const keyed = app(
      new RateLimit({
        name: 'k',
        limit: 1,
        window: 60,
        key: (ex) => String(ex.req.headers['x-api-key'] ?? ''),
      }),
    );
    const withKey = (key: string) =>
      keyed.fetch(new Request('http://x.test/notes', { headers: { 'x-api-key': key } }));
    expect((await withKey('a')).status).toBe(200);
    expect((await withKey('a')).status).toBe(429);
    expect((await withKey('b')).headers.get('ratelimit')).toBe('"k";r=0;t=60');
    await trusted.close();
    await keyed.close();
  });
});
