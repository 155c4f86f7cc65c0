// assets({ files }): the same serving as a directory, from a map held in memory — the way to serve
// static files where there is no file system (app.fetch on Workers), and on Node too.
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { WiringError } from '@api/core';
import { assets, type AssetsOptions } from '../src/index';
import { appWith, headerPairs, serveAssets } from './helpers';

const CSS = 'h1 { font: 600 2rem/1.2 system-ui; color: #4f46e5; }\n'.repeat(20);
const PNG = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10, 0, 1, 2, 3]);

/** The WiringError `assets(options)` throws at once, or the one wiring fails with. */
async function failure(options: unknown): Promise<WiringError> {
  let error: unknown;
  try {
    const app = appWith((a) => a.include(assets(options as AssetsOptions)));
    await app.start();
    error = new Error('expected a WiringError');
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(WiringError);
  return error as WiringError;
}

describe('assets({ files }) over a socket', () => {
  it('serves each entry with its type, a strong ETag, a gzip copy of text and a 304', async () => {
    const client = await serveAssets({
      files: { 'css/site.css': CSS, 'img/logo.png': PNG },
      path: '/static',
    });
    const png = await client.get('/static/img/logo.png');
    expect(png.status).toBe(200);
    expect(headerPairs(png)).toEqual([
      ['content-type', 'image/png'],
      ['etag', expect.stringMatching(/^"[0-9a-f]{32}"$/)],
      ['content-length', '12'],
    ]);
    expect(new Uint8Array(png.body)).toEqual(PNG);

    const css = await client.get('/static/css/site.css', { headers: { 'accept-encoding': 'gzip' } });
    expect(css.status).toBe(200);
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect(css.headers.get('content-encoding')).toBe('gzip');
    expect(css.headers.get('vary')).toBe('accept-encoding');
    expect(gunzipSync(css.body).toString('utf8')).toBe(CSS);
    const etag = css.headers.get('etag') ?? '';
    expect(etag).toMatch(/^"[0-9a-f]{32}-gzip"$/);
    const again = await client.get('/static/css/site.css', {
      headers: { 'accept-encoding': 'gzip', 'if-none-match': etag },
    });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    expect((await client.get('/static/css/missing.css')).status).toBe(404);
  });

  it('copies the contents at wiring: changing the map or the bytes later changes nothing', async () => {
    const bytes = new Uint8Array([1, 2, 3]);
    const files: Record<string, string | Uint8Array> = { 'a.bin': bytes };
    const client = await serveAssets({ files });
    bytes[0] = 9;
    files['b.bin'] = 'late';
    const res = await client.get('/assets/a.bin');
    expect([...new Uint8Array(res.body)]).toEqual([1, 2, 3]);
    expect((await client.get('/assets/b.bin')).status).toBe(404);
  });

  it('applies include/exclude and the caps as for a directory', async () => {
    const client = await serveAssets({
      files: { 'a.css': 'a{}', 'b.css': 'b{}', 'notes.txt': 'n' },
      include: ['*.css'],
      exclude: ['b.css'],
    });
    expect((await client.get('/assets/a.css')).text).toBe('a{}');
    expect((await client.get('/assets/b.css')).status).toBe(404);
    expect((await client.get('/assets/notes.txt')).status).toBe(404);

    expect((await failure({ files: { 'a.css': 'a{}', 'b.css': 'b{}' }, maxFiles: 1 })).message).toBe(
      'AssetsApp.include(assets({ files: {…} })): more than maxFiles (1) files under the files map match include/exclude. Fix: raise maxFiles, or narrow include / widen exclude.',
    );
    expect(
      (await failure({ files: { 'big.bin': new Uint8Array(2048) }, maxTotalBytes: 1024 })).message,
    ).toContain('file "big.bin" is 2048 bytes, over the 1024 bytes left of maxTotalBytes (1024;');
    expect((await failure({ files: { 'a.weird-suffix': 'x' } })).message).toContain(
      'unsupported suffix: "a.weird-suffix" (.weird-suffix) under the files map',
    );
  });
});

describe('assets({ files }) on the fetch transport', () => {
  it('serves through app.fetch where a directory is refused', async () => {
    const app = appWith((a) => a.include(assets({ files: { 'a.css': 'a{}', 'index.html': '<h1>Hi</h1>' } })));
    await app.start({ transport: 'fetch' });
    const res = await app.fetch(new Request('http://x/assets/index.html'));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-length')).toBe('11');
    expect(await res.text()).toBe('<h1>Hi</h1>');
    const head = await app.fetch(new Request('http://x/assets/a.css', { method: 'HEAD' }));
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    await app.close();
  });
});

describe('assets({ files }) refuses what it cannot serve', () => {
  it('both sources, neither, or a map that is not one', async () => {
    expect((await failure({ directory: './public', files: { 'a.css': 'a{}' } })).message).toBe(
      'assets({ directory: "./public" }): both "directory" and "files" are given. Fix: pass one: directory to read files from disk at wiring, or files to serve a map held in memory.',
    );
    expect((await failure({ gzip: true })).message).toContain(
      '"directory" or "files" is required (a path or a file: URL; or a map of relative path → content)',
    );
    expect((await failure({ files: ['a.css'] })).message).toBe(
      `assets({ files: {…} }): "files" must be an object mapping relative paths to contents. Fix: e.g. files: { 'index.html': '<h1>Hi</h1>', 'img/logo.png': pngBytes }.`,
    );
    expect((await failure({ files: {} })).message).toContain(
      'no file under the files map matches include ["*"]',
    );
  });

  it('paths with empty, dot or dotfile segments, and contents that are not text or bytes', async () => {
    for (const [path, segment, what] of [
      ['/a.css', '', 'empty'],
      ['css//a.css', '', 'empty'],
      ['../a.css', '..', 'a dot segment or dotfile (never served)'],
      ['css/./a.css', '.', 'a dot segment or dotfile (never served)'],
      ['.env', '.env', 'a dot segment or dotfile (never served)'],
    ] as const) {
      expect((await failure({ files: { [path]: 'x' } })).message).toBe(
        `assets({ files: {…} }): files has the path ${JSON.stringify(path)}, whose segment ${JSON.stringify(segment)} is ${what}. Fix: write paths relative to the prefix, without a leading '/', '.', '..' or dotfiles, e.g. 'css/site.css'.`,
      );
    }
    expect((await failure({ files: { 'a.json': { a: 1 } } })).message).toBe(
      'assets({ files: {…} }): files["a.json"] is object, not a string or Uint8Array. Fix: pass the content as a string (sent as UTF-8) or bytes (Uint8Array or Buffer).',
    );
  });
});
