import { chmodSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { BaseApp, Endpoint, Struct, WiringError } from '@api/core';
import { defineExtension } from '@api/core/extension';
import { assets, type AssetsOptions } from '../src/index';
import { appWith, memoryLogger, serveAssets, tree } from './helpers';

/** Starts an app that includes `assets(options)` and returns the WiringError it fails with. */
async function wiringFailure(options: AssetsOptions, asUnprivileged = false): Promise<WiringError> {
  const app = appWith((a) => a.include(assets(options)));
  const start = asUnprivileged ? unprivileged(() => app.start()) : app.start();
  const error: unknown = await start.then(
    () => new Error('expected wiring to fail'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WiringError);
  return error as WiringError;
}

/**
 * Runs `start` (which reads the directory synchronously, at once) without root's power to read
 * any file: as `nobody` when the tests run as root, unchanged otherwise.
 */
function unprivileged<T>(start: () => T): T {
  if (process.geteuid?.() !== 0) return start();
  process.seteuid!(65534);
  try {
    return start();
  } finally {
    process.seteuid!(0);
  }
}

/** A tree the unprivileged user may walk (mkdtemp makes it 0700). */
function openTree(files: Record<string, string | Uint8Array>): string {
  const dir = tree(files);
  chmodSync(dir, 0o755);
  return dir;
}

const callOf = (dir: string): string => `AssetsApp.include(assets({ directory: ${JSON.stringify(dir)} }))`;

describe('assets: wiring errors', () => {
  it('gives each kind of mistake its code (docs/errors.md), naming the assets() call', async () => {
    const dir = tree({ 'a.txt': 'a', 'x.blob': 'x' });
    const cases: [AssetsOptions, string][] = [
      [{ directory: join(tree(), 'nope') }, 'API_WIRING_ASSETS_DIRECTORY'],
      [{ directory: tree() }, 'API_WIRING_ASSETS_EMPTY'],
      [{ directory: dir }, 'API_WIRING_ASSETS_MEDIA_TYPE'],
      [{ directory: dir, include: ['/a.txt'] }, 'API_WIRING_ASSETS_GLOB'],
      [{ directory: dir, exclude: ['*.blob'], maxFiles: 0 }, 'API_WIRING_LIMIT'],
      [{ files: { 'a.txt': 'a', 'b.txt': 'b' }, maxFiles: 1 }, 'API_WIRING_ASSETS_TOO_LARGE'],
      [{ directory: dir, path: 'assets' }, 'API_WIRING_INVALID_PATH'],
    ];
    for (const [options, code] of cases) {
      const error = await wiringFailure(options);
      expect(
        { code: error.code, where: /^(AssetsApp\.include\()?assets\(/.test(error.where) },
        error.message,
      ).toEqual({
        code,
        where: true,
      });
    }
  });

  it('a missing directory', async () => {
    const dir = join(tree(), 'nope');
    const error = await wiringFailure({ directory: dir });
    expect(error.message).toBe(
      `${callOf(dir)}: the directory ${dir} does not exist (looked for ${dir}). Fix: create it, or point directory at it (relative paths start at the working directory; new URL('./public', import.meta.url) does not depend on it).`,
    );
  });

  it('a relative directory resolves against the working directory, and the message shows both', async () => {
    const error = await wiringFailure({ directory: './no-such-public' });
    expect(error.message).toContain(
      `the directory ./no-such-public does not exist (looked for ${join(process.cwd(), 'no-such-public')})`,
    );
  });

  it('a file given as the directory', async () => {
    const file = join(tree({ 'a.txt': 'a' }), 'a.txt');
    expect((await wiringFailure({ directory: file })).message).toBe(
      `${callOf(file)}: ${file} is a file, not a directory. Fix: point directory at the folder that holds the files.`,
    );
  });

  it('an unsupported suffix (.blob), naming the file and the exclude that fixes it', async () => {
    const dir = tree({ 'a.txt': 'a', 'data/x.blob': 'x' });
    expect((await wiringFailure({ directory: dir })).message).toBe(
      `${callOf(dir)}: unsupported suffix: "data/x.blob" (.blob) under ${dir}. Fix: leave them out with exclude (e.g. exclude: ['*.blob']); only suffixes with a known media type are served.`,
    );
    const client = await serveAssets({ directory: dir, exclude: ['*.blob'] });
    expect((await client.get('/assets/a.txt')).text).toBe('a');
  });

  it('a file without a suffix, and several unsupported files at once', async () => {
    const dir = tree({ LICENSE: 'MIT', 'a.blob': '', 'b.blob': '', 'c.blob': '', 'ok.txt': '' });
    const message = (await wiringFailure({ directory: dir })).message;
    expect(message).toContain(
      `unsupported suffix: "LICENSE" (no suffix), "a.blob" (.blob), "b.blob" (.blob) and 1 more under ${dir}`,
    );
    expect(message).toContain(`exclude: ['LICENSE']`);
  });

  it('.ts and .mts (video/mp2t by suffix) are refused unless an include glob names the suffix', async () => {
    const dir = tree({ 'clip.ts': Buffer.from([0x47, 0, 0, 0]), 'page.html': '<p>' });
    const message = (await wiringFailure({ directory: dir })).message;
    expect(message).toContain('unsupported suffix: "clip.ts" (.ts)');
    expect(message).toContain('.ts and .mts are TypeScript source far more often than video/mp2t');
    expect(message).toContain(
      "or name the suffix in an include glob (e.g. include: ['*.ts']) to serve it as video/mp2t",
    );
    // A glob that merely matches it is not an explicit listing.
    expect((await wiringFailure({ directory: dir, include: ['*'] })).message).toContain('"clip.ts" (.ts)');
    const client = await serveAssets({ directory: dir, include: ['*.html', '*.ts'] });
    expect((await client.get('/assets/clip.ts')).headers.get('content-type')).toBe('video/mp2t');
    expect((await client.get('/assets/page.html')).status).toBe(200);
    const excluded = await serveAssets({ directory: dir, exclude: ['*.ts'] });
    expect((await excluded.get('/assets/clip.ts')).status).toBe(404);
  });

  it('an unreadable file, naming it', async () => {
    const dir = openTree({ 'a.txt': 'a', 'locked.txt': 'secret' });
    chmodSync(join(dir, 'locked.txt'), 0o000);
    expect((await wiringFailure({ directory: dir }, true)).message).toBe(
      `${callOf(dir)}: the file "locked.txt" under ${dir} cannot be read (EACCES). Fix: make it readable by the server, or leave it out with exclude.`,
    );
  });

  it('an unreadable subdirectory, naming it', async () => {
    const dir = openTree({ 'a.txt': 'a', 'private/b.txt': 'b' });
    chmodSync(join(dir, 'private'), 0o000);
    expect((await wiringFailure({ directory: dir }, true)).message).toBe(
      `${callOf(dir)}: the directory "private" under ${dir} cannot be read (EACCES). Fix: make it readable by the server, or leave it out with exclude.`,
    );
  });

  it('no matching files: an empty directory, only dotfiles, or globs that match nothing', async () => {
    const empty = tree();
    expect((await wiringFailure({ directory: empty })).message).toBe(
      `${callOf(empty)}: no file under ${empty} matches include ["*"] and exclude [] (dotfiles and symlinks are never served). Fix: check the directory and the globs; globs match the path relative to the directory.`,
    );
    expect((await wiringFailure({ directory: tree({ '.env': 'x' }) })).message).toContain('no file under');
    const dir = tree({ 'a.txt': 'a' });
    expect((await wiringFailure({ directory: dir, include: ['*.css'] })).message).toContain(
      `no file under ${dir} matches include ["*.css"] and exclude []`,
    );
    expect((await wiringFailure({ directory: dir, exclude: ['*'] })).message).toContain('and exclude ["*"]');
  });

  it('too many files, before any file is read', async () => {
    const dir = openTree({ 'a.txt': 'a', 'b.txt': 'b', 'c.txt': 'c' });
    chmodSync(join(dir, 'a.txt'), 0o000); // reading it first would fail differently
    expect((await wiringFailure({ directory: dir, maxFiles: 2 }, true)).message).toBe(
      `${callOf(dir)}: more than maxFiles (2) files under ${dir} match include/exclude. Fix: raise maxFiles, or narrow include / widen exclude.`,
    );
    const client = await serveAssets({ directory: dir, maxFiles: 3 });
    expect((await client.get('/assets/c.txt')).text).toBe('c');
  });

  it('a file larger than the remaining budget, by its on-disk size, before it is read', async () => {
    const dir = tree({ 'a.txt': 'a', 'huge.txt': '' });
    // 64 GiB, sparse: reading it would take minutes or fail on allocation, so a quick, exact
    // message proves the size was checked first.
    truncateSync(join(dir, 'huge.txt'), 64 * 1024 ** 3);
    const started = Date.now();
    expect((await wiringFailure({ directory: dir })).message).toBe(
      `${callOf(dir)}: file "huge.txt" is ${64 * 1024 ** 3} bytes, over the 10485759 bytes left of maxTotalBytes (10485760; 1 bytes already held by 1 file(s) and their compressed copies). Fix: raise maxTotalBytes, or leave large files out with exclude.`,
    );
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('the total over maxTotalBytes: each file against what is left; exactly the cap is fine', async () => {
    const dir = tree({ 'a.png': Buffer.alloc(60), 'b.png': Buffer.alloc(50) });
    expect((await wiringFailure({ directory: dir, maxTotalBytes: 100 })).message).toContain(
      'file "b.png" is 50 bytes, over the 40 bytes left of maxTotalBytes (100; 60 bytes already held by 1 file(s)',
    );
    const client = await serveAssets({ directory: dir, maxTotalBytes: 110 });
    expect((await client.get('/assets/b.png')).body.length).toBe(50);
  });

  it('compressed copies count against maxTotalBytes', async () => {
    const css = 'p { margin: 0 }\n'.repeat(125); // 2,000 bytes, gzip copy ~50
    const dir = tree({ 'a.css': css, 'b.png': Buffer.alloc(100) });
    // Without counting the gzip copy of a.css, 2,120 bytes would hold both files.
    expect((await wiringFailure({ directory: dir, maxTotalBytes: 2120 })).message).toMatch(
      /file "b\.png" is 100 bytes, over the \d+ bytes left of maxTotalBytes \(2120; 20\d\d bytes already held by 1 file\(s\) and their compressed copies\)/,
    );
    // The gzip copy itself over the cap.
    const message = (await wiringFailure({ directory: tree({ 'a.css': css }), maxTotalBytes: 2010 })).message;
    expect(message).toMatch(
      /the gzip copy of "a\.css" is \d+ bytes, over the 10 bytes left of maxTotalBytes \(2010; 2000 bytes/,
    );
    expect(message).toContain('Fix: raise maxTotalBytes, or set gzip: false.');
    const client = await serveAssets({ directory: dir, maxTotalBytes: 2100, gzip: false });
    expect((await client.get('/assets/a.css')).text).toBe(css);
  });

  it('a route that is already registered, whichever was wired first', async () => {
    const dir = tree({ 'a.txt': 'a', 'b.txt': 'b' });
    const Ok = Struct('Ok', { ok: v.boolean() });
    class Taken extends Endpoint('/assets/b.txt') {
      get = this.operation({ returns: Ok }, () => ({ ok: true }));
    }
    for (const assetsFirst of [true, false]) {
      class App extends BaseApp {
        protected override async wire(): Promise<void> {
          if (assetsFirst) this.include(assets({ directory: dir }));
          this.includeEndpoint(new Taken());
          if (!assetsFirst) this.include(assets({ directory: dir }));
        }
      }
      const error: unknown = await new App({ logger: memoryLogger() }).start().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(WiringError);
      expect((error as Error).message).toBe(
        `App.include(assets({ directory: ${JSON.stringify(dir)} })): "b.txt" would be served at GET /assets/b.txt, which is already registered by Taken.get. Fix: exclude "b.txt" (exclude: ["b.txt"]), serve the assets under another path, or move the other route.`,
      );
    }
  });

  it('a literal path as written that another extension answers: a WiringError naming both, whichever was added first', async () => {
    const dir = tree({ '{a}.css': 'x' });
    const other = defineExtension({
      name: 'other',
      setup: (wiring) =>
        wiring.addRoute({
          method: 'GET',
          path: '/assets/{a}.css',
          literal: true,
          owner: 'other',
          operation: 'taken',
          handle: (ex) => ex.send(204, []),
        }),
    });
    const startError = (assetsFirst: boolean): Promise<unknown> =>
      appWith((a) => {
        if (assetsFirst) a.include(assets({ directory: dir }));
        a.include(other);
        if (!assetsFirst) a.include(assets({ directory: dir }));
      })
        .start()
        .catch((e: unknown) => e);
    const assetsSecond = await startError(false);
    expect(assetsSecond).toBeInstanceOf(WiringError);
    expect((assetsSecond as Error).message).toBe(
      `${callOf(dir)}: "{a}.css" would be served at GET /assets/{a}.css, which is already registered by other.taken (custom route). Fix: exclude "{a}.css" (exclude: ["{a}.css"]), serve the assets under another path, or move the other route.`,
    );
    // Added second, the other extension's own addRoute fails (core's message, naming both).
    const assetsFirst = await startError(true);
    expect(assetsFirst).toBeInstanceOf(WiringError);
    expect((assetsFirst as Error).message).toMatch(
      /other\.taken \(custom route\): GET \/assets\/\{a\}\.css is already answered by assets\.asset \(custom route\)/,
    );
  });

  it('two assets() calls that claim one path', async () => {
    const one = tree({ 'a.txt': '1' });
    const two = tree({ 'a.txt': '2', 'b.txt': '2' });
    const app = appWith((a) => {
      a.include(assets({ directory: one }));
      a.include(assets({ directory: two }));
    });
    const error: unknown = await app.start().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WiringError);
    expect((error as Error).message).toBe(
      `${callOf(two)}: "a.txt" would be served at GET /assets/a.txt, which is already registered by "a.txt" of ${callOf(one)}. Fix: give the two assets() calls different paths, or exclude the file from one of them.`,
    );
  });

  it('invalid options fail at the assets() call, naming the option and the fix', () => {
    const dir = tree({ 'a.txt': 'a' });
    const call = `assets({ directory: ${JSON.stringify(dir)} })`;
    const cases: [Record<string, unknown>, string][] = [
      [
        { cache_control: 'x' },
        `${call}: unknown option "cache_control". Fix: use "cacheControl" (options are camelCase).`,
      ],
      [
        { max_total_bytes: 1 },
        `${call}: unknown option "max_total_bytes". Fix: use "maxTotalBytes" (options are camelCase).`,
      ],
      [
        { dir: 'x' },
        `${call}: unknown option "dir". Fix: use only directory, files, path, include, exclude, gzip, brotli, cacheControl, maxFiles, maxTotalBytes.`,
      ],
      [{ path: 'assets' }, `${call}: path "assets" does not start with "/". Fix: e.g. path: '/assets'.`],
      [
        { path: '/assets/{id}' },
        `${call}: path "/assets/{id}" has the segment "{id}", which is not a literal URL segment. Fix: use plain segments such as '/assets' or '/static/v2' (no '{slots}', '//', '.', '..', spaces or '?').`,
      ],
      [{ path: '//x' }, 'has the segment ""'],
      [{ path: '/a/../b' }, 'has the segment ".."'],
      [{ path: '/a b' }, 'has the segment "a b"'],
      [
        { include: '*.css' },
        `${call}: include must be an array of globs. Fix: e.g. include: ['*.css', 'img/*'].`,
      ],
      [
        { include: ['/css/*'] },
        `${call}: include glob "/css/*" can never match: globs match the path relative to the directory. Fix: write it without the leading "/", e.g. 'css/*'.`,
      ],
      [{ exclude: ['./x'] }, 'exclude glob "./x" can never match'],
      [{ exclude: [''] }, 'exclude has "", which is not a glob'],
      [{ gzip: 'yes' }, `${call}: gzip must be true or false. Fix: e.g. gzip: true.`],
      [{ brotli: 1 }, 'brotli must be true or false'],
      [
        { cacheControl: 'max-age=1\r\nx-evil: 1' },
        `${call}: cacheControl "max-age=1\\r\\nx-evil: 1" is not a header value. Fix: pass a non-empty value without control characters, e.g. 'public, max-age=3600', or leave it out.`,
      ],
      [{ cacheControl: ' ' }, 'cacheControl " " is not a header value'],
      [{ maxFiles: 0 }, `${call}: maxFiles must be a whole number ≥ 1 (got 0). Fix: e.g. maxFiles: 10000.`],
      [{ maxFiles: 1.5 }, 'maxFiles must be a whole number ≥ 1 (got 1.5)'],
      [
        { maxTotalBytes: -1 },
        `${call}: maxTotalBytes must be a whole number ≥ 1 (got -1). Fix: e.g. maxTotalBytes: 10485760.`,
      ],
    ];
    for (const [extra, message] of cases) {
      let error: unknown;
      try {
        assets({ directory: dir, ...extra } as AssetsOptions);
      } catch (e) {
        error = e;
      }
      expect(error, JSON.stringify(extra)).toBeInstanceOf(WiringError);
      if (message.startsWith(call)) expect((error as Error).message).toBe(message);
      else expect((error as Error).message).toContain(message);
    }
    expect(() => assets({} as AssetsOptions)).toThrow(
      "assets({ directory: … }): \"directory\" or \"files\" is required (a path or a file: URL; or a map of relative path → content). Fix: e.g. assets({ directory: './public' }), or assets({ files: { 'index.html': '<h1>Hi</h1>' } }).",
    );
    expect(() => assets({ directory: new URL('https://example.com/x') })).toThrow('is not a file: URL');
  });
});
