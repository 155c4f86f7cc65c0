import { createHash } from 'node:crypto';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { headerPairs, parseRaw, rawGet, serveAssets, tree } from './helpers';

const CSS = '.card { margin: 0 auto; padding: 1rem 2rem; border: 1px solid #ddd; }\n'.repeat(100);
const HEX = createHash('sha256').update(CSS).digest('hex').slice(0, 32);
const ID = `"${HEX}"`;
const GZ = `"${HEX}-gzip"`;
const BR = `"${HEX}-br"`;

async function css(brotli = false) {
  return serveAssets({ directory: tree({ 'site.css': CSS }), brotli });
}

describe('assets: Accept-Encoding', () => {
  it('sends the file as is without Accept-Encoding, and gzip when asked', async () => {
    const client = await css();
    const plain = await client.get('/assets/site.css');
    expect(plain.headers.get('etag')).toBe(ID);
    expect(plain.headers.has('content-encoding')).toBe(false);
    expect(plain.headers.get('vary')).toBe('accept-encoding');
    expect(plain.text).toBe(CSS);
    const gz = await client.get('/assets/site.css', { headers: { 'accept-encoding': 'gzip, deflate' } });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(gz.headers.get('etag')).toBe(GZ);
    expect(gunzipSync(gz.body).toString()).toBe(CSS);
  });

  // [Accept-Encoding, what is sent] with only a gzip copy available
  const gzipOnly: [string, 'gzip' | 'identity'][] = [
    ['gzip', 'gzip'],
    ['GZIP', 'gzip'],
    ['x-gzip', 'gzip'],
    ['gzip;q=0', 'identity'],
    ['gzip; q=0.000', 'identity'],
    ['gzip;Q=0', 'identity'],
    ['gzip;q=0.001', 'gzip'],
    ['*', 'gzip'],
    ['*;q=0', 'identity'],
    ['*;q=0, gzip', 'gzip'],
    ['gzip, *;q=0', 'gzip'],
    ['*, gzip;q=0', 'identity'],
    ['deflate, br', 'identity'],
    ['', 'identity'],
    ['identity', 'identity'],
    ['gzip;q=0.5, identity', 'identity'],
    ['gzip;q=0.5, identity;q=0.5', 'gzip'],
    ['gzip;q=0.5', 'gzip'],
    ['identity;q=0', 'identity'],
    ['gzip;q=0, identity;q=0', 'identity'],
    ['gzip;level=9;q=0', 'identity'],
    ['gzip;q=1;q=0', 'identity'],
    ['gzip;q=0;q=1', 'identity'],
    ['gzip, gzip;q=0', 'identity'],
    ['gzip;q=0, gzip', 'identity'],
    ['gzip;q=2', 'identity'],
    ['gzip;q=abc', 'identity'],
    ['gzip;q=abc, *', 'gzip'],
    [' , ,gzip , ', 'gzip'],
    ['gzipx, xgzip', 'identity'],
  ];
  it.each(gzipOnly)('Accept-Encoding %j → %s', async (header, expected) => {
    const client = await css();
    const res = await client.get('/assets/site.css', { headers: { 'accept-encoding': header } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBe(expected === 'gzip' ? 'gzip' : undefined);
    expect(res.headers.get('etag')).toBe(expected === 'gzip' ? GZ : ID);
    expect(res.headers.get('vary')).toBe('accept-encoding');
  });

  it('reads every Accept-Encoding header line', async () => {
    const client = await css();
    const both = parseRaw(
      await rawGet(client.url, '/assets/site.css', ['Accept-Encoding: deflate', 'Accept-Encoding: gzip']),
    );
    expect(both.headers).toContain('content-encoding: gzip');
    const refused = parseRaw(
      await rawGet(client.url, '/assets/site.css', ['Accept-Encoding: gzip', 'accept-encoding: gzip;q=0']),
    );
    expect(refused.headers.some((h) => h.startsWith('content-encoding'))).toBe(false);
    expect(refused.body).toBe(CSS);
  });

  it('prefers brotli when asked for and equally weighted, gzip when brotli weighs less', async () => {
    const client = await css(true);
    const cases: [string, 'br' | 'gzip' | 'identity'][] = [
      ['gzip, deflate, br', 'br'],
      ['br', 'br'],
      ['gzip', 'gzip'],
      ['br;q=0.5, gzip', 'gzip'],
      ['br, gzip;q=0.9', 'br'],
      ['*', 'br'],
      ['*;q=0, gzip', 'gzip'],
      ['br;q=0, gzip;q=0', 'identity'],
    ];
    for (const [header, expected] of cases) {
      const res = await client.get('/assets/site.css', { headers: { 'accept-encoding': header } });
      expect(res.headers.get('content-encoding'), header).toBe(
        expected === 'identity' ? undefined : expected,
      );
      expect(res.headers.get('etag'), header).toBe({ br: BR, gzip: GZ, identity: ID }[expected]);
      const body =
        expected === 'br'
          ? brotliDecompressSync(res.body)
          : expected === 'gzip'
            ? gunzipSync(res.body)
            : res.body;
      expect(body.toString(), header).toBe(CSS);
    }
  });

  it('never compresses non-text files, so they carry no vary', async () => {
    const zeros = Buffer.alloc(20_000); // compresses to almost nothing, but image/png is not text-like
    const client = await serveAssets({ directory: tree({ 'blank.png': zeros }) });
    const res = await client.get('/assets/blank.png', { headers: { 'accept-encoding': 'gzip, br' } });
    expect(res.headers.has('content-encoding')).toBe(false);
    expect(res.headers.has('vary')).toBe(false);
    expect(res.body.equals(zeros)).toBe(true);
  });

  it('keeps no gzip copy of a 10 KiB random .txt (not 10% smaller): no content-encoding, no vary', async () => {
    // Random bytes (seeded, so the test is repeatable): gzip cannot save 10% on them.
    let seed = 42;
    const text = Buffer.from(
      Array.from({ length: 10 * 1024 }, () => {
        seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
        return seed >>> 24;
      }),
    );
    const client = await serveAssets({ directory: tree({ 'random.txt': text }) });
    const res = await client.get('/assets/random.txt', { headers: { 'accept-encoding': 'gzip' } });
    expect(headerPairs(res)).toEqual([
      ['content-type', 'text/plain; charset=utf-8'],
      ['etag', `"${createHash('sha256').update(text).digest('hex').slice(0, 32)}"`],
      ['content-length', String(10 * 1024)],
    ]);
    expect(res.body.equals(text)).toBe(true);
  });

  it('can turn gzip off', async () => {
    const client = await serveAssets({ directory: tree({ 'site.css': CSS }), gzip: false });
    const res = await client.get('/assets/site.css', { headers: { 'accept-encoding': 'gzip' } });
    expect(res.headers.has('content-encoding')).toBe(false);
    expect(res.headers.has('vary')).toBe(false);
    expect(res.headers.get('etag')).toBe(ID);
  });
});

describe('assets: If-None-Match', () => {
  const cases: [string, number][] = [
    [ID, 304],
    [`W/${ID}`, 304],
    ['*', 304],
    [` *  `, 304],
    [`"x", ${ID}`, 304],
    [`"x",${ID} ,"y"`, 304],
    [`W/"x", W/${ID}`, 304],
    [`"a,b", ${ID}`, 304],
    ['"x"', 200],
    [`"${HEX.slice(0, 31)}"`, 200],
    [`"${HEX}0"`, 200],
    [`"x${HEX}"`, 200],
    [HEX, 200],
    [`w/${ID}`, 200],
    [`${ID}x`, 200],
    [`"${HEX} "`, 200],
    [GZ, 200],
    ['', 200],
    ['W/', 200],
    ['"unterminated', 200],
  ];
  it.each(cases)('If-None-Match %j → %i (identity requested)', async (header, status) => {
    const client = await css();
    const res = await client.get('/assets/site.css', { headers: { 'if-none-match': header } });
    expect(res.status).toBe(status);
    if (status === 200) expect(res.text).toBe(CSS);
    else expect(res.body.length).toBe(0);
  });

  it('compares with the tag of the variant that would be sent', async () => {
    const client = await css(true);
    const gzip = { 'accept-encoding': 'gzip' };
    expect((await client.get('/assets/site.css', { headers: { ...gzip, 'if-none-match': GZ } })).status).toBe(
      304,
    );
    expect((await client.get('/assets/site.css', { headers: { ...gzip, 'if-none-match': ID } })).status).toBe(
      200,
    );
    expect((await client.get('/assets/site.css', { headers: { 'if-none-match': GZ } })).status).toBe(200);
    const br = await client.get('/assets/site.css', {
      headers: { 'accept-encoding': 'br', 'if-none-match': `${GZ}, ${BR}` },
    });
    expect(br.status).toBe(304);
    expect(br.headers.get('etag')).toBe(BR);
  });

  it('304 carries etag, cache-control and vary, and no body framing (raw socket)', async () => {
    const client = await serveAssets({
      directory: tree({ 'site.css': CSS }),
      cacheControl: 'no-cache',
    });
    const raw = await rawGet(client.url, '/assets/site.css', [
      'Accept-Encoding: gzip',
      `If-None-Match: ${GZ}`,
    ]);
    const res = parseRaw(raw);
    expect(res.status).toBe('HTTP/1.1 304 Not Modified');
    expect(res.headers).toEqual([`etag: ${GZ}`, 'cache-control: no-cache', 'vary: accept-encoding']);
    expect(res.body).toBe('');
    const head = parseRaw(await rawGet(client.url, '/assets/site.css', [`If-None-Match: ${ID}`], 'HEAD'));
    expect(head.status).toBe('HTTP/1.1 304 Not Modified');
    expect(head.headers).toEqual([`etag: ${ID}`, 'cache-control: no-cache', 'vary: accept-encoding']);
  });

  it('304 of a file without compressed copies has no vary', async () => {
    const client = await serveAssets({ directory: tree({ 'a.png': Buffer.from([1, 2, 3]) }) });
    const etag = `"${createHash('sha256')
      .update(Buffer.from([1, 2, 3]))
      .digest('hex')
      .slice(0, 32)}"`;
    const res = await client.get('/assets/a.png', { headers: { 'if-none-match': etag } });
    expect(res.status).toBe(304);
    expect(headerPairs(res)).toEqual([['etag', etag]]);
  });

  it('reads every If-None-Match header line', async () => {
    const client = await css();
    const res = parseRaw(
      await rawGet(client.url, '/assets/site.css', ['If-None-Match: "old"', `If-None-Match: W/${ID}`]),
    );
    expect(res.status).toBe('HTTP/1.1 304 Not Modified');
    const none = parseRaw(
      await rawGet(client.url, '/assets/site.css', ['If-None-Match: "old"', 'If-None-Match: "older"']),
    );
    expect(none.status).toBe('HTTP/1.1 200 OK');
  });

  it('answers If-None-Match before a Range', async () => {
    const client = await css();
    const res = await client.get('/assets/site.css', {
      headers: { 'if-none-match': ID, range: 'bytes=0-1' },
    });
    expect(res.status).toBe(304);
  });
});
