import { describe, expectTypeOf, it } from 'vitest';
import type { Extension } from '@api/core/extension';
import {
  assets,
  assetsDefaults,
  type AssetsFromDirectory,
  type AssetsFromFiles,
  type AssetsOptions,
} from '../index';

describe('assets() types', () => {
  it('takes the directory and optional settings; returns an extension for include()', () => {
    expectTypeOf(assets({ directory: './public' })).toEqualTypeOf<Extension<void>>();
    assets({ directory: new URL('./public', import.meta.url) });
    assets({
      directory: './public',
      path: '/static',
      include: ['*.css', 'img/*'] as const,
      exclude: [],
      gzip: true,
      brotli: false,
      cacheControl: 'public, max-age=60',
      maxFiles: 100,
      maxTotalBytes: 1024,
    });
    // Optional fields accept undefined (it means the default), e.g. straight from the environment.
    assets({ directory: './public', cacheControl: process.env.ASSETS_CACHE_CONTROL });
  });

  it('rejects a missing directory, wrong types and unknown (or spec-spelled) options', () => {
    // @ts-expect-error directory is required
    assets({});
    // @ts-expect-error not a string or URL
    assets({ directory: 42 });
    // @ts-expect-error globs are a list
    assets({ directory: './public', include: '*.css' });
    // @ts-expect-error booleans only
    assets({ directory: './public', gzip: 'yes' });
    // @ts-expect-error a number of files
    assets({ directory: './public', maxFiles: '10' });
    // @ts-expect-error the spec's snake_case names are not options
    assets({ directory: './public', cache_control: 'no-cache' });
    // @ts-expect-error no shorthand: the options object is the one way
    assets('./public');
  });

  it('takes a files map instead of a directory, never both', () => {
    expectTypeOf(assets({ files: { 'index.html': '<h1>Hi</h1>' } })).toEqualTypeOf<Extension<void>>();
    assets({ files: { 'a.css': 'a{}', 'img/x.png': new Uint8Array([137, 80]) }, path: '/', gzip: false });
    // @ts-expect-error one source: directory or files
    assets({ directory: './public', files: { 'a.css': 'a{}' } });
    // @ts-expect-error contents are strings or bytes
    assets({ files: { 'a.json': { a: 1 } } });
  });

  it('exposes the defaults as literal types', () => {
    expectTypeOf(assetsDefaults.path).toEqualTypeOf<'/assets'>();
    expectTypeOf(assetsDefaults.maxFiles).toEqualTypeOf<10000>();
    expectTypeOf(assetsDefaults.maxTotalBytes).toEqualTypeOf<10485760>();
    expectTypeOf(assetsDefaults.gzip).toEqualTypeOf<true>();
    expectTypeOf<AssetsFromDirectory['directory']>().toEqualTypeOf<string | URL>();
    expectTypeOf<AssetsFromFiles['files']>().toEqualTypeOf<Readonly<Record<string, string | Uint8Array>>>();
    expectTypeOf<AssetsOptions['include']>().toEqualTypeOf<readonly string[] | undefined>();
  });
});
