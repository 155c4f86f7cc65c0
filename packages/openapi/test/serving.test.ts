// How the document, the docs page, the vendored script and the favicon are served: precomputed
// buffers, strong ETags, gzip/brotli variants, 304, HEAD, caching and security headers.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from '@api/testing';
import { SCALAR_VERSION } from '../src/index';
import { TestApp } from './fixtures/app';

const SCRIPT = `/docs/scalar/${SCALAR_VERSION}/standalone.js`;
const VENDOR = new URL('../vendor/scalar/', import.meta.url);
const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'";

let client: TestClient;
beforeAll(async () => {
  client = await TestClient.start(new TestApp());
});
afterAll(async () => {
  await client?.close();
});

describe('GET /openapi.json', () => {
  it('answers 200 JSON with a strong ETag, no-cache and nosniff', async () => {
    const res = await client.get('/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.headers.get('etag')).toMatch(/^"[0-9a-f]{32}"$/);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('vary')).toBe('accept-encoding');
    expect(res.headers.get('content-length')).toBe(String(res.body.length));
    const hash = createHash('sha256').update(res.body).digest('hex').slice(0, 32);
    expect(res.headers.get('etag')).toBe(`"${hash}"`);
  });

  it('is one precomputed buffer: identical bytes and ETag on every request', async () => {
    const a = await client.get('/openapi.json');
    const b = await client.get('/openapi.json');
    expect(b.body.equals(a.body)).toBe(true);
    expect(b.headers.get('etag')).toBe(a.headers.get('etag'));
  });

  it('sends the gzip variant (own ETag) to gzip clients; no brotli copy of the document', async () => {
    const plain = await client.get('/openapi.json');
    const gz = await client.get('/openapi.json', { headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(gz.headers.get('etag')).toBe(plain.headers.get('etag')!.replace(/"$/, '-gzip"'));
    expect(gunzipSync(gz.body).equals(plain.body)).toBe(true);
    expect(gz.body.length).toBeLessThan(plain.body.length / 3);
    const br = await client.get('/openapi.json', { headers: { 'accept-encoding': 'br;q=1, gzip;q=0.5' } });
    expect(br.headers.get('content-encoding')).toBe('gzip');
    const refused = await client.get('/openapi.json', { headers: { 'accept-encoding': 'br;q=0, gzip;q=0' } });
    expect(refused.headers.get('content-encoding')).toBeUndefined();
  });

  it('answers 304 to a matching If-None-Match (exact, weak, in a list, *), with no body framing', async () => {
    const etag = (await client.get('/openapi.json')).headers.get('etag')!;
    for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const res = await client.get('/openapi.json', { headers: { 'if-none-match': ifNoneMatch } });
      expect(res.status, ifNoneMatch).toBe(304);
      expect(res.body.length).toBe(0);
      expect(res.headers.get('etag')).toBe(etag);
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(res.headers.get('content-length')).toBeUndefined();
      expect(res.headers.get('content-type')).toBeUndefined();
    }
    const stale = await client.get('/openapi.json', { headers: { 'if-none-match': '"stale"' } });
    expect(stale.status).toBe(200);
    const gzEtag = etag.replace(/"$/, '-gzip"');
    const gz = await client.get('/openapi.json', {
      headers: { 'if-none-match': gzEtag, 'accept-encoding': 'gzip' },
    });
    expect(gz.status).toBe(304);
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    const get = await client.get('/openapi.json');
    const head = await client.head('/openapi.json');
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(head.headers.get('content-length')).toBe(get.headers.get('content-length'));
    expect(head.headers.get('etag')).toBe(get.headers.get('etag'));
  });
});

describe('GET /docs', () => {
  it('sends the page with the CSP, nosniff, no-cache and a strong ETag', async () => {
    const res = await client.get('/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toBe(CSP);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.headers.get('etag')).toMatch(/^"[0-9a-f]{32}"$/);
  });

  it('references the document by data-url and the vendored script, with no inline script', async () => {
    const html = (await client.get('/docs')).text;
    expect(html).toContain('data-url="./openapi.json"');
    expect(html).toContain(
      `<script src="./docs/scalar/${SCALAR_VERSION}/setup.js"></script>\n    <script src="./docs/scalar/${SCALAR_VERSION}/standalone.js"></script>`,
    );
    expect(html).toContain('<script id="api-reference" type="application/json"');
    expect(html.match(/<script/g)).toHaveLength(3);
    expect(html).toContain('<title>Widgets API</title>');
    expect(html).toContain('<link rel="icon" href="data:,">');
    expect(html).not.toMatch(/https?:\/\//);
  });

  it('sends the offline configuration on every page (and only the scalarConfig fields that were set)', async () => {
    const configOf = (html: string): unknown => {
      const raw = /data-configuration="([^"]*)"/.exec(html)![1]!;
      return JSON.parse(
        raw
          .replaceAll('&quot;', '"')
          .replaceAll('&#39;', "'")
          .replaceAll('&lt;', '<')
          .replaceAll('&gt;', '>')
          .replaceAll('&amp;', '&'),
      );
    };
    expect(configOf((await client.get('/docs')).text)).toEqual({
      withDefaultFonts: false,
      telemetry: false,
      agent: { disabled: true },
      mcp: { disabled: true },
      showDeveloperTools: 'never',
      proxyUrl: '',
      documentDownloadType: 'json',
    });
    const themed = await TestClient.start(
      new TestApp({
        openapi: { scalarConfig: { theme: 'moon', hideDownloadButton: true, hideModels: true } },
      }),
    );
    try {
      expect(configOf((await themed.get('/docs')).text)).toEqual({
        theme: 'moon',
        hideModels: true,
        withDefaultFonts: false,
        telemetry: false,
        agent: { disabled: true },
        mcp: { disabled: true },
        showDeveloperTools: 'never',
        proxyUrl: '',
        documentDownloadType: 'none',
      });
    } finally {
      await themed.close();
    }
  });

  it('serves the vendored Scalar bundle at a versioned path: immutable, ETag from its sha-256, pre-compressed', async () => {
    const vendored = readFileSync(new URL('standalone.js', VENDOR));
    const res = await client.get(SCRIPT);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('etag')).toBe('"bf091006bdc3af6067af77c2f534812e"');
    expect(res.body.equals(vendored)).toBe(true);
    const gz = await client.get(SCRIPT, { headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(gz.body.equals(readFileSync(new URL('standalone.js.gz', VENDOR)))).toBe(true);
    const br = await client.get(SCRIPT, { headers: { 'accept-encoding': 'gzip, br' } });
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(brotliDecompressSync(br.body).equals(vendored)).toBe(true);
    const revalidated = await client.get(SCRIPT, { headers: { 'if-none-match': res.headers.get('etag')! } });
    expect(revalidated.status).toBe(304);
  });

  it("serves the setup script that keeps Scalar within script-src 'self' (zod without its eval probe)", async () => {
    const res = await client.get(`/docs/scalar/${SCALAR_VERSION}/setup.js`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.text).toBe(
      'globalThis.__zod_globalConfig = Object.assign(globalThis.__zod_globalConfig || {}, { jitless: true });\n',
    );
  });
});

describe('options that change the routes', () => {
  it('docsPath: null serves no page and no script, and logs where the spec is', async () => {
    const lines: string[] = [];
    const app = new TestApp({
      openapi: { docsPath: null },
      logger: { info: (m) => lines.push(m), warn: () => undefined, error: () => undefined },
    });
    const c = await TestClient.start(app);
    try {
      expect((await c.get('/docs')).status).toBe(404);
      expect((await c.get(SCRIPT)).status).toBe(404);
      expect((await c.get('/openapi.json')).status).toBe(200);
      expect(lines).toContain('Serving OpenAPI spec at /openapi.json');
    } finally {
      await c.close();
    }
  });

  it('custom paths: links stay relative, so a path prefix added by a proxy keeps working', async () => {
    const c = await TestClient.start(
      new TestApp({ openapi: { openapiPath: '/api/spec.json', docsPath: '/reference/api' } }),
    );
    try {
      expect((await c.get('/api/spec.json')).status).toBe(200);
      expect((await c.get('/openapi.json')).status).toBe(404);
      const html = (await c.get('/reference/api')).text;
      expect(html).toContain('data-url="../api/spec.json"');
      expect(html).toContain(`src="./api/scalar/${SCALAR_VERSION}/standalone.js"`);
      expect((await c.get(`/reference/api/scalar/${SCALAR_VERSION}/standalone.js`)).status).toBe(200);
    } finally {
      await c.close();
    }
  });

  it('docsHtml is served verbatim (no CSP of ours, scalarConfig unused)', async () => {
    const page = '<!doctype html><title>Custom</title><script src="https://cdn.example/x.js"></script>';
    const c = await TestClient.start(
      new TestApp({ openapi: { docsHtml: page, scalarConfig: { theme: 'moon' } } }),
    );
    try {
      const res = await c.get('/docs');
      expect(res.text).toBe(page);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.headers.get('content-security-policy')).toBeUndefined();
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    } finally {
      await c.close();
    }
  });

  it('startup logs where the docs are, honouring APP_BASE_URL', async () => {
    const lines: string[] = [];
    const logger = { info: (m: string) => lines.push(m), warn: () => undefined, error: () => undefined };
    process.env.APP_BASE_URL = 'https://api.example.com';
    try {
      const c = await TestClient.start(new TestApp({ logger }));
      await c.close();
    } finally {
      delete process.env.APP_BASE_URL;
    }
    const c = await TestClient.start(new TestApp({ logger }));
    await c.close();
    expect(lines).toEqual(['Serving API docs at https://api.example.com/docs', 'Serving API docs at /docs']);
  });
});

describe('favicon', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'favicon-'));
    writeFileSync(
      join(dir, 'icon.svg'),
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><circle cx="8" cy="8" r="7" fill="#2a6"/></svg>',
    );
    writeFileSync(join(dir, 'icon.png'), Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'));
    writeFileSync(join(dir, 'icon.ico'), Buffer.from([0, 0, 1, 0, 1, 0]));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('a file is read at wiring, served at /favicon.ico with its type, and linked from the page', async () => {
    for (const [file, type] of [
      ['icon.svg', 'image/svg+xml'],
      ['icon.png', 'image/png'],
      ['icon.ico', 'image/vnd.microsoft.icon'],
    ] as const) {
      const c = await TestClient.start(new TestApp({ openapi: { favicon: { file: join(dir, file) } } }));
      try {
        const res = await c.get('/favicon.ico');
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toBe(type);
        expect(res.body.equals(readFileSync(join(dir, file)))).toBe(true);
        expect(res.headers.get('etag')).toMatch(/^"[0-9a-f]{32}"$/);
        if (type === 'image/svg+xml') {
          expect(res.headers.get('content-security-policy')).toBe(
            "default-src 'none'; style-src 'unsafe-inline'; sandbox",
          );
        }
        expect((await c.get('/docs')).text).toContain('<link rel="icon" href="./favicon.ico">');
        expect((await c.get('/openapi.json')).json()).not.toHaveProperty(['paths', '/favicon.ico']);
      } finally {
        await c.close();
      }
    }
  });

  it('is served from memory: deleting the file after startup changes nothing', async () => {
    const file = join(dir, 'gone.png');
    writeFileSync(file, readFileSync(join(dir, 'icon.png')));
    const c = await TestClient.start(new TestApp({ openapi: { favicon: { file } } }));
    try {
      rmSync(file);
      expect((await c.get('/favicon.ico')).status).toBe(200);
    } finally {
      await c.close();
    }
  });

  it('a URL is linked verbatim (escaped), nothing is served, and its origin joins img-src', async () => {
    const c = await TestClient.start(
      new TestApp({ openapi: { favicon: 'https://cdn.example.com/icon.png?a=1&b=2' } }),
    );
    try {
      const page = await c.get('/docs');
      expect(page.text).toContain('<link rel="icon" href="https://cdn.example.com/icon.png?a=1&amp;b=2">');
      expect(page.headers.get('content-security-policy')).toContain(
        "img-src 'self' data: https://cdn.example.com;",
      );
      expect((await c.get('/favicon.ico')).status).toBe(404);
    } finally {
      await c.close();
    }
    const data = await TestClient.start(new TestApp({ openapi: { favicon: 'data:image/svg+xml,<svg/>' } }));
    try {
      const page = await data.get('/docs');
      expect(page.text).toContain('<link rel="icon" href="data:image/svg+xml,&lt;svg/&gt;">');
      expect(page.headers.get('content-security-policy')).toBe(CSP);
    } finally {
      await data.close();
    }
  });
});
