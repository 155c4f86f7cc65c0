import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { headerPairs, parseRaw, rawGet, serveAssets, tree } from './helpers';

const CSS = 'body { color: #333; }\n'.repeat(200);
const etagOf = (content: string | Uint8Array): string =>
  `"${createHash('sha256').update(content).digest('hex').slice(0, 32)}"`;
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d4948445200000001000000010806000000' +
    '1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
  'hex',
);

describe('assets: serving', () => {
  it('serves each file at <path>/<relative file> with its bytes, type and strong ETag', async () => {
    const dir = tree({ 'css/site.css': CSS, 'img/logo.png': PNG, 'index.html': '<!doctype html><p>hi</p>' });
    const client = await serveAssets({ directory: dir });

    const css = await client.get('/assets/css/site.css');
    expect(css.status).toBe(200);
    expect(css.text).toBe(CSS);
    expect(headerPairs(css)).toEqual([
      ['content-type', 'text/css; charset=utf-8'],
      ['etag', etagOf(CSS)],
      ['vary', 'accept-encoding'],
      ['content-length', String(Buffer.byteLength(CSS))],
    ]);

    const png = await client.get('/assets/img/logo.png');
    expect(png.status).toBe(200);
    expect(png.body.equals(PNG)).toBe(true);
    expect(headerPairs(png)).toEqual([
      ['content-type', 'image/png'],
      ['etag', etagOf(PNG)],
      ['content-length', String(PNG.length)],
    ]);

    const html = await client.get('/assets/index.html');
    expect(html.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(html.text).toBe('<!doctype html><p>hi</p>');
  });

  it('takes content types from mime-types: .ico, .json, .svg, .js', async () => {
    const dir = tree({
      'favicon.ico': Buffer.from([0, 0, 1, 0]),
      'data.json': '{"a":1}',
      'logo.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>',
      'app.js': 'console.log(1)',
      'notes.TXT': 'upper-case suffix',
    });
    const client = await serveAssets({ directory: dir });
    const type = async (p: string): Promise<string | undefined> =>
      (await client.get(`/assets/${p}`)).headers.get('content-type');
    expect(await type('favicon.ico')).toBe('image/vnd.microsoft.icon');
    expect(await type('data.json')).toBe('application/json; charset=utf-8');
    expect(await type('logo.svg')).toBe('image/svg+xml');
    expect(await type('app.js')).toBe('text/javascript; charset=utf-8');
    expect(await type('notes.TXT')).toBe('text/plain; charset=utf-8');
  });

  it('answers HEAD with the GET head and no body', async () => {
    const client = await serveAssets({ directory: tree({ 'a.css': CSS }) });
    const get = await client.get('/assets/a.css');
    const head = await client.head('/assets/a.css');
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(headerPairs(head)).toEqual(headerPairs(get));

    const raw = parseRaw(await rawGet(client.url, '/assets/a.css', ['Accept-Encoding: gzip'], 'HEAD'));
    expect(raw.status).toBe('HTTP/1.1 200 OK');
    expect(raw.body).toBe('');
    expect(raw.headers).toContain('content-encoding: gzip');
  });

  it('answers other methods with 405 and allow, and OPTIONS with 204 and allow', async () => {
    const client = await serveAssets({ directory: tree({ 'a.txt': 'a' }) });
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      const res = await client.request(method, '/assets/a.txt');
      expect(res.status, method).toBe(405);
      expect(res.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
      expect(res.json()).toEqual({ type: 'method-not-allowed', title: 'Method not allowed', status: 405 });
    }
    const options = await client.options('/assets/a.txt');
    expect(options.status).toBe(204);
    expect(options.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });

  it('sends cacheControl verbatim on 200 and 304', async () => {
    const client = await serveAssets({
      directory: tree({ 'a.css': CSS }),
      cacheControl: 'public, max-age=31536000, immutable',
    });
    const ok = await client.get('/assets/a.css');
    expect(ok.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const gz = await client.get('/assets/a.css', { headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const not = await client.get('/assets/a.css', { headers: { 'if-none-match': etagOf(CSS) } });
    expect(not.status).toBe(304);
    expect(headerPairs(not)).toEqual([
      ['etag', etagOf(CSS)],
      ['cache-control', 'public, max-age=31536000, immutable'],
      ['vary', 'accept-encoding'],
    ]);
  });

  it('sends no cache-control when none is configured', async () => {
    const client = await serveAssets({ directory: tree({ 'a.txt': 'a' }) });
    expect((await client.get('/assets/a.txt')).headers.has('cache-control')).toBe(false);
  });

  it('serves an empty file with content-length 0', async () => {
    const client = await serveAssets({ directory: tree({ 'empty.txt': '' }) });
    const res = await client.get('/assets/empty.txt');
    expect(res.status).toBe(200);
    expect(headerPairs(res)).toEqual([
      ['content-type', 'text/plain; charset=utf-8'],
      ['etag', etagOf('')],
      ['content-length', '0'],
    ]);
  });

  it('ignores Range: always the full 200', async () => {
    const client = await serveAssets({ directory: tree({ 'a.txt': '0123456789' }) });
    const res = await client.get('/assets/a.txt', { headers: { range: 'bytes=0-3' } });
    expect(res.status).toBe(200);
    expect(res.text).toBe('0123456789');
    expect(res.headers.has('content-range')).toBe(false);
    expect(res.headers.get('content-length')).toBe('10');
  });

  it('mounts under another path, or at the root', async () => {
    const dir = tree({ 'a.txt': 'a', 'sub/b.txt': 'b' });
    const client = await serveAssets({ directory: dir, path: '/static/v2/' });
    expect((await client.get('/static/v2/a.txt')).text).toBe('a');
    expect((await client.get('/static/v2/sub/b.txt')).text).toBe('b');
    expect((await client.get('/assets/a.txt')).status).toBe(404);

    const atRoot = await serveAssets({ directory: dir, path: '/' });
    expect((await atRoot.get('/a.txt')).text).toBe('a');
    expect((await atRoot.get('/sub/b.txt')).text).toBe('b');
  });

  it('accepts the directory as a file: URL', async () => {
    const dir = tree({ 'a.txt': 'from a URL' });
    const client = await serveAssets({ directory: new URL(`file://${dir}/`) });
    expect((await client.get('/assets/a.txt')).text).toBe('from a URL');
  });

  it('does not normalise paths beyond percent-encoding: %2F, .., %2e%2e, //, case and trailing slashes are 404', async () => {
    const client = await serveAssets({ directory: tree({ 'sub/a.txt': 'a', 'b.txt': 'b' }) });
    expect((await client.get('/assets/sub/a.txt')).status).toBe(200);
    for (const path of [
      '/assets/sub%2Fa.txt',
      '/assets/sub%2fa.txt',
      '/assets/sub/../b.txt',
      '/assets/sub/%2e%2e/b.txt',
      '/assets/sub/%2E%2E/b.txt',
      '/assets//b.txt',
      '/assets/./b.txt',
      '/assets/B.txt',
      '/assets/b.txt/',
      '/assets/sub',
      '/assets/sub/',
      '/assets',
      '/assets/',
    ]) {
      const raw = parseRaw(await rawGet(client.url, path));
      expect(raw.status, path).toBe('HTTP/1.1 404 Not Found');
    }
  });

  it('serves an asset whatever the spelling of its percent-encodings, and for an absolute-form target (raw socket)', async () => {
    const client = await serveAssets({
      directory: tree({ 'b.txt': 'b', 'café.txt': 'unicode', '~x.txt': 'tilde' }),
    });
    for (const [path, body] of [
      ['/assets/%62.txt', 'b'],
      ['/%61ssets/b%2Etxt', 'b'],
      ['/assets/caf%c3%a9.txt', 'unicode'],
      ['/assets/caf%C3%A9.txt', 'unicode'],
      ['/assets/%7Ex.txt', 'tilde'],
      ['http://localhost/assets/b.txt', 'b'],
      ['HTTP://localhost/assets/caf%c3%a9.txt?v=1', 'unicode'],
    ] as const) {
      const raw = parseRaw(await rawGet(client.url, path));
      expect(raw.status, path).toBe('HTTP/1.1 200 OK');
      expect(Buffer.from(raw.body, 'latin1').toString('utf8'), path).toBe(body);
    }
  });

  it('keeps a query string out of the match', async () => {
    const client = await serveAssets({ directory: tree({ 'a.txt': 'a' }) });
    expect((await client.get('/assets/a.txt?v=123')).text).toBe('a');
  });

  it('serves the gzip copy that decompresses to the file', async () => {
    const client = await serveAssets({ directory: tree({ 'a.css': CSS }) });
    const res = await client.get('/assets/a.css', { headers: { 'accept-encoding': 'gzip' } });
    expect(res.status).toBe(200);
    expect(gunzipSync(res.body).toString()).toBe(CSS);
    expect(headerPairs(res)).toEqual([
      ['content-type', 'text/css; charset=utf-8'],
      ['content-encoding', 'gzip'],
      ['etag', etagOf(CSS).replace(/"$/, '-gzip"')],
      ['vary', 'accept-encoding'],
      ['content-length', String(res.body.length)],
    ]);
    expect(res.body.length).toBeLessThan(Buffer.byteLength(CSS) * 0.9);
  });
});
