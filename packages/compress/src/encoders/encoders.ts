import * as zlib from 'node:zlib';
import type { BodyEncoder, StreamEncoder } from '@api/core/extension';
import { CoalescingEncoder, type FlushingZlib } from './coalescing-encoder';

/** A content coding this package produces. */
export type Coding = 'br' | 'gzip' | 'zstd';

/** zstd's half of node:zlib, present from Node 22.15 / 23.8 (typed here: @types/node 20 lacks it). */
interface ZstdApi {
  zstdCompress(body: Uint8Array, options: object, callback: (error: Error | null, out: Buffer) => void): void;
  zstdCompressSync(body: Uint8Array, options: object): Buffer;
  createZstdCompress(options: object): StreamEncoder;
  readonly constants: { readonly ZSTD_c_compressionLevel: number; readonly ZSTD_e_flush: number };
}

const zstd = zlib as unknown as Partial<ZstdApi>;

/** Whether the running Node can produce zstd (feature-detected, never assumed from the version). */
export const ZSTD_AVAILABLE: boolean =
  typeof zstd.zstdCompress === 'function' &&
  typeof zstd.zstdCompressSync === 'function' &&
  typeof zstd.createZstdCompress === 'function' &&
  typeof (zstd.constants as Partial<ZstdApi['constants']> | undefined)?.ZSTD_c_compressionLevel ===
    'number' &&
  typeof (zstd.constants as Partial<ZstdApi['constants']> | undefined)?.ZSTD_e_flush === 'number';

/** One async call with a node-style callback, as a promise (node:zlib's work runs on the thread pool). */
function promised(
  run: (body: Uint8Array, options: object, callback: (error: Error | null, out: Buffer) => void) => void,
  body: Uint8Array,
  options: object,
): Promise<Uint8Array> {
  return new Promise((resolve, reject) =>
    run(body, options, (error, out) => (error === null ? resolve(out) : reject(error))),
  );
}

/**
 * The default `syncBelow`: the body size up to which compressing on the event loop costs less
 * than a round trip through libuv's thread pool. Measured here on a 10 KiB JSON list, node:zlib's
 * async call costs 3–4× the CPU of the synchronous one (a thread hand-off and a fresh encoder
 * state per call, many alive at once under load); that only pays off when other cores can run the
 * pool while the event loop serves other requests. So: 64 KiB on one core, 8 KiB on two, 4 KiB
 * from three (the rule @fastify/compress 9.2 uses too). Streams are always compressed off the loop.
 *
 * @param parallelism - cores this process may run on (`os.availableParallelism()`: affinity counts)
 */
export function defaultSyncBelow(parallelism: number): number {
  const cores = Math.min(Math.max(parallelism, 1), 4);
  return Math.min(Math.max(65536 >> (3 * (cores - 1)), 4096), 65536);
}

/**
 * The encoder of one coding at one level: built once per options, shared by every answer. A
 * buffered body under `syncBelow` bytes is compressed at once (node:zlib's sync API), a larger one
 * on the thread pool (its async API); each stream gets its own compressing stream, fed once per
 * turn of the event loop with what was written during it, sync-flushed (`CoalescingEncoder`).
 *
 * @param coding - br, gzip or zstd
 * @param level - brotli quality, gzip level or zstd level
 * @param syncBelow - buffered bodies shorter than this are compressed synchronously
 */
export function encoderFor(coding: Coding, level: number, syncBelow: number): BodyEncoder {
  switch (coding) {
    case 'br': {
      const params = {
        [zlib.constants.BROTLI_PARAM_QUALITY]: level,
        [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
      };
      const flush = zlib.constants.BROTLI_OPERATION_FLUSH;
      const streamOptions = { params, flush };
      return {
        encode: (body) => {
          // The size hint lets brotli size its window to the body (less state to set up per call).
          const sized = { params: { ...params, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.byteLength } };
          return body.byteLength < syncBelow
            ? zlib.brotliCompressSync(body, sized)
            : promised((b, o, c) => zlib.brotliCompress(b, o, c), body, sized);
        },
        stream: () => new CoalescingEncoder(zlib.createBrotliCompress(streamOptions), flush),
      };
    }
    case 'gzip': {
      const options = { level };
      const flush = zlib.constants.Z_SYNC_FLUSH;
      const streamOptions = { level, flush };
      return {
        encode: (body) =>
          body.byteLength < syncBelow
            ? zlib.gzipSync(body, options)
            : promised((b, o, c) => zlib.gzip(b, o, c), body, options),
        stream: () => new CoalescingEncoder(zlib.createGzip(streamOptions), flush),
      };
    }
    case 'zstd': {
      const api = zstd as ZstdApi;
      const options = { params: { [api.constants.ZSTD_c_compressionLevel]: level } };
      const flush = api.constants.ZSTD_e_flush;
      const streamOptions = { ...options, flush };
      return {
        encode: (body) =>
          body.byteLength < syncBelow
            ? api.zstdCompressSync(body, options)
            : promised((b, o, c) => api.zstdCompress(b, o, c), body, options),
        stream: () => new CoalescingEncoder(api.createZstdCompress(streamOptions) as FlushingZlib, flush),
      };
    }
  }
}
