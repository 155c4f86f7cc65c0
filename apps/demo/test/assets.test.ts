// GET /assets/*: apps/demo/public served from memory by @api/assets (read once at wiring,
// resolved from the app module, not from the working directory).
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestClient } from '@api/testing';
import { PUBLIC_DIR } from '../src/app';
import { startDemo } from './helpers/demo';

let client: TestClient;
beforeAll(async () => {
  ({ client } = await startDemo());
});
afterAll(async () => {
  await client?.close();
});

const FILES = {
  'account.html': 'text/html; charset=utf-8',
  'account.js': 'text/javascript; charset=utf-8',
  'index.html': 'text/html; charset=utf-8',
  'index.js': 'text/javascript; charset=utf-8',
  'logo.svg': 'image/svg+xml',
  'notifications.html': 'text/html; charset=utf-8',
  'notifications.js': 'text/javascript; charset=utf-8',
  'style.css': 'text/css; charset=utf-8',
} as const;

const bytes = (name: string): Buffer => readFileSync(new URL(name, PUBLIC_DIR));
const etagOf = (name: string): string =>
  `"${createHash('sha256').update(bytes(name)).digest('hex').slice(0, 32)}"`;

describe('GET /assets/*', () => {
  it('PUBLIC_DIR is apps/demo/public, and every file in it is listed here', () => {
    expect(PUBLIC_DIR.href).toBe(new URL('../public/', import.meta.url).href);
    expect(readdirSync(PUBLIC_DIR).sort()).toEqual(Object.keys(FILES));
  });

  it.each(Object.entries(FILES))('%s: 200, its bytes, %s, a strong ETag, CORS', async (name, type) => {
    const res = await client.get(`/assets/${name}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(type);
    expect(res.headers.get('etag')).toBe(etagOf(name));
    expect(res.headers.get('vary')).toBe('accept-encoding'); // every file here has a gzip copy
    expect(res.headers.get('content-encoding')).toBeUndefined();
    expect(res.headers.get('content-length')).toBe(String(bytes(name).length));
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.body.equals(bytes(name))).toBe(true);
  });

  it('sends the gzip copy on Accept-Encoding: gzip, with its own ETag', async () => {
    const res = await client.get('/assets/index.html', { headers: { 'accept-encoding': 'gzip' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(res.headers.get('etag')).toBe(etagOf('index.html').replace(/"$/, '-gzip"'));
    expect(res.headers.get('vary')).toBe('accept-encoding');
    expect(gunzipSync(res.body).equals(bytes('index.html'))).toBe(true);
  });

  it('answers If-None-Match with 304 and no body', async () => {
    const res = await client.get('/assets/style.css', { headers: { 'if-none-match': etagOf('style.css') } });
    expect(res.status).toBe(304);
    expect(res.headers.get('etag')).toBe(etagOf('style.css'));
    expect(res.headers.get('content-type')).toBeUndefined();
    expect(res.headers.get('content-length')).toBeUndefined();
    expect(res.body.length).toBe(0);
  });

  it('HEAD has the GET head and no body', async () => {
    const res = await client.head('/assets/logo.svg');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/svg+xml');
    expect(res.headers.get('content-length')).toBe(String(bytes('logo.svg').length));
    expect(res.body.length).toBe(0);
  });

  it('404 for an unknown file and for the bare directory; 405 for another method', async () => {
    const NOT_FOUND = { type: 'not-found', title: 'Not found', status: 404 };
    for (const path of ['/assets/nope.txt', '/assets/', '/assets', '/assets/../package.json']) {
      const res = await client.get(path);
      expect(res.status, path).toBe(404);
      expect(res.json(), path).toEqual(NOT_FOUND);
    }
    const post = await client.post('/assets/index.html');
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    expect(post.json()).toEqual({ type: 'method-not-allowed', title: 'Method not allowed', status: 405 });
  });

  it('assets are not operations: absent from /openapi.json', async () => {
    const doc = (await client.get('/openapi.json')).json<{ paths: Record<string, unknown> }>();
    expect(Object.keys(doc.paths).filter((p) => p.startsWith('/assets'))).toEqual([]);
  });
});
