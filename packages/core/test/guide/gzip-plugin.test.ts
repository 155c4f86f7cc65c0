import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { BaseApp, Endpoint, Struct } from '@api/core';
import { gzipEverything } from './gzip-plugin';
import { clientFactory, memoryLogger } from '../fixtures';

class List extends Endpoint('/list') {
  get = this.operation({ returns: v.array(Struct('Row', { n: v.number() })) }, () =>
    Array.from({ length: 200 }, (_, n) => ({ n })),
  );
}
class App extends BaseApp {
  protected override async wire(): Promise<void> {
    this.include(gzipEverything);
    this.includeEndpoint(new List());
  }
}

const client = clientFactory();

describe('the body transform plugin of the guide (docs/extensions.md)', () => {
  it('gzips a large answer for a client that accepts it, and says vary either way', async () => {
    const c = client(new App({ logger: memoryLogger() }));
    const zipped = await c.get('/list', { headers: { 'accept-encoding': 'gzip, br' } });
    expect(zipped.headers.get('content-encoding')).toBe('gzip');
    expect(zipped.headers.get('vary')).toBe('accept-encoding');
    expect(zipped.headers.get('content-length')).toBe(String(zipped.body.length));
    const rows = JSON.parse(gunzipSync(zipped.body).toString()) as unknown[];
    expect(rows).toHaveLength(200);
    const plain = await c.get('/list');
    expect(plain.headers.get('content-encoding')).toBeUndefined();
    expect(plain.headers.get('vary')).toBe('accept-encoding');
    expect(plain.json()).toEqual(rows);
  });

  it('is the code the guide shows', () => {
    const source = readFileSync(new URL('./gzip-plugin.ts', import.meta.url), 'utf8');
    const guide = readFileSync(new URL('../../../../docs/extensions.md', import.meta.url), 'utf8');
    expect(guide).toContain(source.slice(source.indexOf('\n') + 1).trim());
  });
});
