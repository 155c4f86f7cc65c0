// Every option mistake is a WiringError naming the call and the fix; zstd only where Node has it.
import { availableParallelism } from 'node:os';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { Endpoint, Struct, WiringError } from '@api/core';
import { Compression, ZSTD_AVAILABLE, compress, type CompressOptions } from '../src/index';
import { defaultSyncBelow } from '../src/encoders/encoders';
import { startupError } from './helpers';

class Ping extends Endpoint('/ping') {
  get = this.operation({ returns: Struct('Pong', { ok: v.boolean() }) }, () => ({ ok: true }));
}

const any = (value: unknown): CompressOptions => value as CompressOptions;

describe('options', () => {
  it.each([
    [
      'an unknown key',
      any({ treshold: 10 }),
      'unknown option "treshold" (did you mean "threshold"?). Fix: use only encodings, threshold, syncBelow, levels, contentTypes, etag.',
    ],
    [
      'a negative threshold',
      any({ threshold: -1 }),
      'threshold must be a whole number of bytes, got -1. Fix: e.g. threshold: 1024.',
    ],
    [
      'an empty encodings list',
      any({ encodings: [] }),
      "encodings must be a non-empty list. Fix: e.g. encodings: ['br', 'gzip'].",
    ],
    [
      'deflate',
      any({ encodings: ['deflate'] }),
      `encodings names "deflate", which is not offered. Fix: use 'br', 'zstd' or 'gzip'.`,
    ],
    [
      'a coding twice',
      any({ encodings: ['gzip', 'gzip'] }),
      'encodings names gzip twice. Fix: list each coding once.',
    ],
    [
      'brotli quality 12',
      any({ levels: { br: 12 } }),
      'levels.br must be a whole number from 0 to 11, got 12. Fix: e.g. levels: { br: 4 }.',
    ],
    [
      'gzip level 0',
      any({ levels: { gzip: 0 } }),
      'levels.gzip must be a whole number from 1 to 9, got 0. Fix: e.g. levels: { gzip: 6 }.',
    ],
    ['an unknown level', any({ levels: { lz4: 1 } }), 'levels names "lz4". Fix: use br, gzip or zstd.'],
    [
      'a bad etag mode',
      any({ etag: 'strong' }),
      `etag must be 'weak' or 'suffix', got a string. Fix: etag: 'weak' (default) or etag: 'suffix'.`,
    ],
    [
      'contentTypes as a string',
      any({ contentTypes: 'text/*' }),
      'contentTypes must be a RegExp or a function of the media type, got a string. Fix: e.g. contentTypes: /^(text\\/|application\\/json$)/.',
    ],
  ])('%s is a WiringError', (_name, options, message) => {
    expect(() => new Compression(options)).toThrow(new WiringError(`new Compression(options): ${message}`));
  });

  it('names the compress() call when the app-wide options are wrong', async () => {
    const error = await startupError((w) => {
      w.include(compress(any({ threshold: 'big' })));
      w.endpoint(new Ping());
    });
    expect(error).toBeInstanceOf(WiringError);
    expect(error.message).toBe(
      'WiredApp.include(compress()): threshold must be a whole number of bytes, got a string. Fix: e.g. threshold: 1024.',
    );
  });

  it('refuses compress() twice, and a compress mount option that is neither a Compression nor false', async () => {
    const twice = await startupError((w) => {
      w.include(compress());
      w.include(compress());
    });
    expect(twice.message).toBe(
      'WiredApp.include(compress()): compression is already installed app-wide. Fix: include compress() once; give a mount its own policy with { compress: new Compression({ … }) } or turn it off with { compress: false }.',
    );
    const wrong = await startupError((w) => {
      w.include(compress());
      w.endpoint(new Ping(), { compress: true } as never);
    });
    expect(wrong).toBeInstanceOf(WiringError);
    expect(twice).toMatchObject({ code: 'API_WIRING_DUPLICATE', where: 'WiredApp.include(compress())' });
    expect(wrong).toMatchObject({ code: 'API_WIRING_MOUNT_OPTION', where: 'WiredApp.includeEndpoint(Ping)' });
  });

  it('gives each mistake its code: a coding not offered, a coding twice, a value of the wrong kind', () => {
    const codeOf = (options: unknown): unknown => {
      try {
        new Compression(any(options));
      } catch (error) {
        return (error as WiringError).code;
      }
      return undefined;
    };
    expect([
      codeOf({ encodings: ['deflate'] }),
      codeOf({ levels: { lz4: 1 } }),
      codeOf({ encodings: ['br', 'br'] }),
      codeOf({ threshold: -1 }),
      codeOf({ etags: 'weak' }),
    ]).toEqual([
      'API_WIRING_COMPRESS_ENCODING',
      'API_WIRING_COMPRESS_ENCODING',
      'API_WIRING_DUPLICATE',
      'API_WIRING_INVALID_ARGUMENT',
      'API_WIRING_UNKNOWN_OPTION',
    ]);
  });

  it('offers zstd only where node:zlib has it: naming it elsewhere is a WiringError', () => {
    if (ZSTD_AVAILABLE) {
      expect(new Compression().options.encodings).toEqual(['br', 'zstd', 'gzip']);
      expect(new Compression({ encodings: ['zstd'] }).options.encodings).toEqual(['zstd']);
    } else {
      expect(process.versions.node.startsWith('20.')).toBe(true);
      expect(new Compression().options.encodings).toEqual(['br', 'gzip']);
      expect(() => new Compression({ encodings: ['zstd', 'gzip'] })).toThrow(
        `new Compression(options): zstd is not available in this Node (${process.version}: node:zlib has no zstd before Node 22.15). Fix: leave zstd out (the default offers it where Node has it), or run a newer Node.`,
      );
    }
  });

  it('compresses small bodies on the event loop: 64 KiB on one core, 8 KiB on two, 4 KiB from three', () => {
    expect([1, 2, 3, 4, 16].map(defaultSyncBelow)).toEqual([65536, 8192, 4096, 4096, 4096]);
    expect(new Compression().options.syncBelow).toBe(defaultSyncBelow(availableParallelism()));
    expect(new Compression({ syncBelow: 0 }).options.syncBelow).toBe(0);
  });

  it('defaults to br 4, gzip 6, zstd 3, a 1 KiB threshold and weak etags', () => {
    const { levels, threshold, etag, compressible } = new Compression().options;
    expect({ levels, threshold, etag }).toEqual({
      levels: { br: 4, gzip: 6, zstd: 3 },
      threshold: 1024,
      etag: 'weak',
    });
    for (const type of [
      'text/html',
      'text/event-stream',
      'application/json',
      'application/problem+json',
      'application/x-ndjson',
      'image/svg+xml',
      'application/javascript',
    ])
      expect(compressible(type), type).toBe(true);
    for (const type of [
      'image/png',
      'application/octet-stream',
      'application/zip',
      'video/mp4',
      'font/woff2',
    ])
      expect(compressible(type), type).toBe(false);
  });
});
