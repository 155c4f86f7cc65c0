import * as v from 'valibot';
import { describe, expectTypeOf, it } from 'vitest';
import { Endpoint, Struct, type MountOptions } from '@api/core';
import { Compression, type CompressOptions } from './index';

class Ping extends Endpoint('/ping') {
  get = this.operation({ returns: Struct('Pong', { ok: v.boolean() }) }, () => ({ ok: true }));
}

describe('the compress mount option', () => {
  it('takes a Compression or false, nothing else', () => {
    expectTypeOf<{ compress: Compression }>().toMatchTypeOf<MountOptions<Ping>>();
    expectTypeOf<{ compress: false }>().toMatchTypeOf<MountOptions<Ping>>();
    expectTypeOf<{ compress: true }>().not.toMatchTypeOf<MountOptions<Ping>>();
    expectTypeOf<{ compress: CompressOptions }>().not.toMatchTypeOf<MountOptions<Ping>>();
  });

  it('types the options', () => {
    expectTypeOf<CompressOptions['encodings']>().toEqualTypeOf<
      readonly ('br' | 'gzip' | 'zstd')[] | undefined
    >();
    expectTypeOf<CompressOptions['etag']>().toEqualTypeOf<'weak' | 'suffix' | undefined>();
  });
});
