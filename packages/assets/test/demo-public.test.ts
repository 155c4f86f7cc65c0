import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { serveAssets } from './helpers';

// apps/demo/public is served by the demo at /assets; this checks the files themselves wire and
// that the page's relative links all land on served assets (the demo's own browser test loads it).
const PUBLIC = new URL('../../../apps/demo/public/', import.meta.url);

describe('apps/demo/public', () => {
  it('wires, and every relative href/src of index.html is served with a fitting type', async () => {
    const client = await serveAssets({ directory: PUBLIC });
    const page = await client.get('/assets/index.html', { headers: { 'accept-encoding': 'gzip' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-encoding')).toBe('gzip');
    const html = readFileSync(new URL('index.html', PUBLIC), 'utf8');
    const refs = [...html.matchAll(/\b(?:href|src)="([^"]+)"/g)]
      .map((m) => m[1]!)
      .filter((r) => !r.startsWith('/'));
    // The page grows with the demo: check what it links, not a fixed list.
    expect(refs).toEqual(expect.arrayContaining(['index.js', 'logo.svg', 'style.css']));
    const types: Record<string, string> = {
      js: 'text/javascript; charset=utf-8',
      svg: 'image/svg+xml',
      css: 'text/css; charset=utf-8',
      html: 'text/html; charset=utf-8',
    };
    for (const ref of new Set(refs)) {
      const res = await client.get(`/assets/${ref}`);
      expect(res.status, ref).toBe(200);
      expect(res.headers.get('content-type'), ref).toBe(types[ref.slice(ref.lastIndexOf('.') + 1)]);
    }
    // The page's absolute links point at the demo's own routes, not at assets.
    expect([...html.matchAll(/\bhref="(\/[^"]*)"/g)].map((m) => m[1])).toEqual(['/docs', '/openapi.json']);
  });
});
