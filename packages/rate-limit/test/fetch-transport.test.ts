// On the fetch transport (app.fetch) the app is not told the peer: limits by address need trusted
// proxies; a custom key works as on node:http.
import { describe, expect, it } from 'vitest';
import { BaseApp, WiringError } from '@api/core';
import { memoryStore, RateLimit, rateLimit } from '../src/index';
import { Notes } from './fixtures/app';
import { memoryLogger } from './fixtures/logger';

function app(policy: RateLimit, env: Record<string, string> = {}) {
  class App extends BaseApp {
    protected override async wire(): Promise<void> {
      this.include(rateLimit({ store: memoryStore(), policy }));
      this.includeEndpoint(new Notes());
    }
  }
  return new App({ logger: memoryLogger(), env });
}

describe('on the fetch transport', () => {
  it('refuses a policy by address without trusted proxies', async () => {
    const a = app(new RateLimit({ name: 'api', limit: 2, window: 60 }));
    const started = a.start({ transport: 'fetch' });
    await expect(started).rejects.toBeInstanceOf(WiringError);
    await expect(started).rejects.toMatchObject({ code: 'API_WIRING_APP_STATE', where: 'Notes.get' });
    await expect(started).rejects.toThrow(
      'Notes.get: a policy partitions by client address, but on the fetch transport the app is not told the peer. Fix:',
    );
  });

  it('limits by X-Forwarded-For behind a trusted proxy, and by a key function', async () => {
    const trusted = app(new RateLimit({ name: 'api', limit: 1, window: 60 }), { APP_TRUST_FORWARDED: '1' });
    const from = (ip: string) =>
      trusted.fetch(new Request('http://x.test/notes', { headers: { 'x-forwarded-for': ip } }));
    expect((await from('203.0.113.1')).status).toBe(200);
    const refused = await from('203.0.113.1');
    expect([refused.status, refused.headers.get('retry-after')]).toEqual([429, '60']);
    expect((await from('203.0.113.2')).status).toBe(200);
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
