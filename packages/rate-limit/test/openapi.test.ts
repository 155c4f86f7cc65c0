// The OpenAPI document of limited routes: the 429 (and the 503 of onStoreDown: 'refuse') and the
// RateLimit-Policy / RateLimit / Retry-After headers, only where a policy applies.
import { describe, expect, it } from 'vitest';
import { TestClient } from '@api/testing';
import { openapi } from '@api/openapi';
import type { RateLimitStore } from '../src/index';
import { LimitedApp } from './fixtures/app';
import { memoryLogger } from './fixtures/logger';

class Documented extends LimitedApp {
  protected override async wire(): Promise<void> {
    await super.wire();
    this.include(openapi({ title: 'Limited', version: '1' }));
  }
}

/** A store that can fail (for the document only; never charged here). */
const failingStore: RateLimitStore = {
  kind: 'test',
  mayFail: true,
  take: () => Promise.reject(new Error('down')),
};

type Doc = {
  paths: Record<string, Record<string, { responses: Record<string, { headers?: Record<string, unknown> }> }>>;
};

describe('the OpenAPI document', () => {
  it('shows the 429 and the rate-limit headers on limited operations only', async () => {
    await using c = await TestClient.start(new Documented({ logger: memoryLogger() }));
    const doc = (await c.get('/openapi.json')).json<Doc>();
    const notes = doc.paths['/notes']!.get!.responses;
    expect(Object.keys(notes)).toEqual(['200', '429', '500']);
    expect(notes['200']!.headers).toEqual({
      'ratelimit-policy': {
        description: 'The quota policies of this operation (IETF draft-ietf-httpapi-ratelimit-headers).',
        schema: { type: 'string', examples: ['"api";q=3;w=60'] },
      },
      ratelimit: {
        description:
          'Remaining quota units (r) and seconds until more are available (t), per policy (IETF draft-ietf-httpapi-ratelimit-headers).',
        schema: { type: 'string', examples: ['"api";r=2;t=0'] },
      },
    });
    expect(Object.keys(notes['429']!.headers!)).toEqual(['ratelimit-policy', 'ratelimit', 'retry-after']);
    expect(notes['429']).toMatchObject({
      content: {
        'application/problem+json': { schema: { $ref: '#/components/schemas/TooManyRequestsProblem' } },
      },
    });
    // The shared 500 of unlimited operations stays without the headers.
    const open = doc.paths['/open']!.get!.responses;
    expect(Object.keys(open)).toEqual(['200', '500']);
    expect(open['500']!.headers).toBeUndefined();
    expect(open['200']!.headers).toBeUndefined();
    const health = doc.paths['/healthz']!.get!.responses;
    expect(Object.keys(health)).toEqual(['200', '500']);
    // Per operation: create is limited by "writes", readMany by the app default.
    const widgets = doc.paths['/widgets']!;
    expect(
      (widgets.post!.responses['201']!.headers!['ratelimit-policy'] as { schema: unknown }).schema,
    ).toEqual({
      type: 'string',
      examples: ['"writes";q=2;w=10'],
    });
  });

  it('documents the 503 where the store being down refuses requests', async () => {
    const app = new Documented({
      logger: memoryLogger(),
      setup: { store: failingStore, onStoreDown: 'refuse' },
    });
    await using c = await TestClient.start(app);
    const doc = (await c.get('/openapi.json')).json<Doc>();
    const notes = doc.paths['/notes']!.get!.responses;
    expect(Object.keys(notes)).toEqual(['200', '429', '500', '503']);
    expect(Object.keys(notes['503']!.headers!)).toEqual(['ratelimit-policy', 'ratelimit', 'retry-after']);
  });
});
