import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appWith, headerPairs, memoryLogger, parseRaw, rawGet, serveAssets, started, tree } from './helpers';
import { assets } from '../src/index';

describe('assets: what is read from the directory', () => {
  it('never serves a symlink to a file outside the tree, while real files serve', async () => {
    const outside = tree({ 'secret.txt': 'outside the tree' });
    const dir = tree({ 'real.txt': 'real', 'sub/also-real.txt': 'also real' });
    symlinkSync(join(outside, 'secret.txt'), join(dir, 'secret.txt'));
    symlinkSync(join(dir, 'real.txt'), join(dir, 'sub', 'alias.txt')); // even one pointing inside
    const logger = memoryLogger();
    const client = await started(appWith((app) => app.include(assets({ directory: dir })), logger));
    expect((await client.get('/assets/secret.txt')).status).toBe(404);
    expect((await client.get('/assets/sub/alias.txt')).status).toBe(404);
    expect((await client.get('/assets/real.txt')).text).toBe('real');
    expect((await client.get('/assets/sub/also-real.txt')).text).toBe('also real');
    expect(
      logger.lines.some(
        (l) => l.includes('not served') && l.includes('secret.txt') && l.includes('sub/alias.txt'),
      ),
    ).toBe(true);
  });

  it('never follows a symlinked directory', async () => {
    const outside = tree({ 'inner.txt': 'outside' });
    const dir = tree({ 'a.txt': 'a' });
    symlinkSync(outside, join(dir, 'linked'));
    const client = await serveAssets({ directory: dir });
    expect((await client.get('/assets/linked/inner.txt')).status).toBe(404);
    expect((await client.get('/assets/a.txt')).status).toBe(200);
  });

  it('serves a directory that is itself reached through a symlink', async () => {
    const real = tree({ 'a.txt': 'through the link' });
    const holder = tree();
    symlinkSync(real, join(holder, 'current'));
    const client = await serveAssets({ directory: join(holder, 'current') });
    expect((await client.get('/assets/a.txt')).text).toBe('through the link');
  });

  it('skips dotfiles and dot-directories, and special files', async () => {
    const dir = tree({ '.env': 'SECRET=1', '.git/config': 'x', 'sub/.hidden.txt': 'h', 'ok.txt': 'ok' });
    execFileSync('mkfifo', [join(dir, 'pipe.txt')]);
    const client = await serveAssets({ directory: dir });
    for (const p of ['/assets/.env', '/assets/.git/config', '/assets/sub/.hidden.txt', '/assets/pipe.txt'])
      expect((await client.get(p)).status, p).toBe(404);
    expect((await client.get('/assets/ok.txt')).text).toBe('ok');
  });

  it('keeps serving every asset with identical headers after the directory is deleted', async () => {
    const dir = tree({
      'a.css': 'a { color: red }\n'.repeat(50),
      'img/b.png': Buffer.from([1, 2, 3]),
      'c.txt': 'c',
    });
    const client = await serveAssets({ directory: dir, cacheControl: 'max-age=60' });
    const paths = ['/assets/a.css', '/assets/img/b.png', '/assets/c.txt'];
    const variants = [{}, { 'accept-encoding': 'gzip' }];
    const before = [];
    for (const p of paths) for (const h of variants) before.push(await client.get(p, { headers: h }));
    rmSync(dir, { recursive: true, force: true });
    let i = 0;
    for (const p of paths) {
      for (const h of variants) {
        const after = await client.get(p, { headers: h });
        const prior = before[i++]!;
        expect(after.status, p).toBe(200);
        expect(headerPairs(after), p).toEqual(headerPairs(prior));
        expect(after.body.equals(prior.body), p).toBe(true);
        const etag = prior.headers.get('etag')!;
        expect((await client.get(p, { headers: { ...h, 'if-none-match': etag } })).status).toBe(304);
      }
    }
  });

  it('reads the directory once: files added or changed later are not seen', async () => {
    const dir = tree({ 'a.txt': 'first' });
    const client = await serveAssets({ directory: dir });
    writeFileSync(join(dir, 'a.txt'), 'second');
    writeFileSync(join(dir, 'b.txt'), 'new');
    expect((await client.get('/assets/a.txt')).text).toBe('first');
    expect((await client.get('/assets/b.txt')).status).toBe(404);
  });

  it('filters with include and exclude globs on the relative path; * crosses /', async () => {
    const dir = tree({
      'index.html': 'i',
      'css/site.css': 's',
      'css/print/print.css': 'p',
      'js/app.js': 'j',
      'js/app.js.map': '{}',
      'img/a.png': 'a',
      'img/b.svg': '<svg/>',
    });
    const client = await serveAssets({
      directory: dir,
      include: ['*.css', 'js/*', 'img/?.svg'],
      exclude: ['*.map'],
    });
    const status = async (p: string): Promise<number> => (await client.get(`/assets/${p}`)).status;
    expect(await status('css/site.css')).toBe(200);
    expect(await status('css/print/print.css')).toBe(200);
    expect(await status('js/app.js')).toBe(200);
    expect(await status('img/b.svg')).toBe(200);
    expect(await status('js/app.js.map')).toBe(404);
    expect(await status('index.html')).toBe(404);
    expect(await status('img/a.png')).toBe(404);
  });

  it('globs are case-sensitive and treat regex characters literally', async () => {
    const dir = tree({ 'a+b.txt': '1', 'aab.txt': '2', 'A.TXT': '3', '(x).txt': '4', 'x.txt': '5' });
    const client = await serveAssets({
      directory: dir,
      include: ['a+b.txt', '*.txt', '(x).txt'],
      exclude: ['x.*'],
    });
    expect((await client.get('/assets/a+b.txt')).text).toBe('1');
    expect((await client.get('/assets/aab.txt')).text).toBe('2');
    expect((await client.get('/assets/A.TXT')).status).toBe(404);
    expect((await client.get('/assets/(x).txt')).text).toBe('4');
    expect((await client.get('/assets/x.txt')).status).toBe(404);
  });

  it('serves names with spaces, unicode, % and braces at their percent-encoded paths; braces never become slots', async () => {
    const dir = tree({
      'my file.txt': 'space',
      'café.txt': 'unicode',
      '100%.txt': 'percent',
      '{id}.txt': 'braces',
      'a[1]&b=c;d.txt': 'sub-delims',
    });
    const client = await serveAssets({ directory: dir });
    expect((await client.get('/assets/my%20file.txt')).text).toBe('space');
    expect((await client.get('/assets/caf%C3%A9.txt')).text).toBe('unicode');
    expect((await client.get('/assets/100%25.txt')).text).toBe('percent');
    expect((await client.get('/assets/%7Bid%7D.txt')).text).toBe('braces');
    expect((await client.get('/assets/a[1]&b=c;d.txt')).text).toBe('sub-delims');
    // Not a route template: no other value fills "{id}".
    expect((await client.get('/assets/5.txt')).status).toBe(404);
    expect((await client.get('/assets/x.txt')).status).toBe(404);
    // As written (a client that does not percent-encode): the same file, by its own literal route.
    expect(parseRaw(await rawGet(client.url, '/assets/{id}.txt')).body).toBe('braces');
    // Percent-encodings compare case-insensitively (RFC 3986 §6.2.2.1).
    expect((await client.get('/assets/%7bid%7d.txt')).text).toBe('braces');
    expect((await client.get('/assets/caf%c3%a9.txt')).text).toBe('unicode');
  });

  it('serves {locale}/a.css and {a}.css over the wire: as a browser asks (encoded) and as written (literal routes)', async () => {
    const dir = tree({
      '{locale}/a.css': 'a { color: red }',
      '{a}.css': 'b { color: blue }',
      'q`"<>.txt': 'q',
    });
    const client = await serveAssets({ directory: dir, gzip: false });
    // What fetch (the WHATWG URL parser, like every browser) sends for these names.
    expect(new URL(`${client.url}/assets/{locale}/a.css`).pathname).toBe('/assets/%7Blocale%7D/a.css');
    for (const [encoded, written, body] of [
      ['/assets/%7Blocale%7D/a.css', '/assets/{locale}/a.css', 'a { color: red }'],
      ['/assets/%7Ba%7D.css', '/assets/{a}.css', 'b { color: blue }'],
      ['/assets/q%60%22%3C%3E.txt', '/assets/q`"<>.txt', 'q'],
    ] as const) {
      const viaFetch = await fetch(`${client.url}${encoded}`);
      expect(viaFetch.status, encoded).toBe(200);
      expect(await viaFetch.text()).toBe(body);
      const raw = parseRaw(await rawGet(client.url, written));
      expect(raw.status, written).toBe('HTTP/1.1 200 OK');
      expect(raw.body).toBe(body);
      // One file, one representation: the same ETag on both paths.
      expect(raw.headers.find((h) => h.startsWith('etag:'))).toBe(`etag: ${viaFetch.headers.get('etag')}`);
      expect(parseRaw(await rawGet(client.url, written, [], 'HEAD')).status).toBe('HTTP/1.1 200 OK');
    }
    // Never a slot: no other segment fills "{locale}" or "{a}".
    for (const path of ['/assets/en/a.css', '/assets/x.css', '/assets/a.css'])
      expect(parseRaw(await rawGet(client.url, path)).status, path).toBe('HTTP/1.1 404 Not Found');
  });

  it('registers routes in sorted order, whatever order the directory lists them in', async () => {
    const dir = tree();
    for (const name of ['b.txt', 'a.txt', 'c/z.txt', 'c/a.txt', 'B.txt']) {
      mkdirSync(join(dir, name, '..'), { recursive: true });
      writeFileSync(join(dir, name), name);
    }
    const app = appWith((a) => a.include(assets({ directory: dir })));
    await started(app);
    expect(app.catalogue.routes.map((r) => r.path)).toEqual([
      '/assets/B.txt',
      '/assets/a.txt',
      '/assets/b.txt',
      '/assets/c/a.txt',
      '/assets/c/z.txt',
    ]);
  });
});
