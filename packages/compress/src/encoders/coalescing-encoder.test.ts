import { once } from 'node:events';
import {
  brotliCompressSync,
  brotliDecompressSync,
  constants,
  gunzipSync,
  gzipSync,
  inflateRawSync,
} from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { CoalescingEncoder } from './coalescing-encoder';
import { encoderFor } from './encoders';

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
/** Until the thread pool has answered: a few turns and a timer. */
const settle = async (): Promise<void> => {
  for (let i = 0; i < 5; i++) {
    await turn();
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
};

function gzipStream(): { encoder: CoalescingEncoder; chunks: Buffer[] } {
  const encoder = encoderFor('gzip', 6, 0).stream() as CoalescingEncoder;
  expect(encoder).toBeInstanceOf(CoalescingEncoder);
  const chunks: Buffer[] = [];
  encoder.on('data', (chunk: Buffer) => chunks.push(chunk));
  return { encoder, chunks };
}

/** Decodes what a sync-flushed gzip stream emitted so far (no trailer yet). */
function partial(chunks: Buffer[]): string {
  // The 10-byte gzip header, then raw deflate blocks that end on a sync flush (no end yet).
  return inflateRawSync(Buffer.concat(chunks).subarray(10), {
    finishFlush: constants.Z_SYNC_FLUSH,
  }).toString();
}

describe('CoalescingEncoder', () => {
  it('hands the writes of one turn to the compressor as one write, flushed at the end of the turn', async () => {
    const { encoder, chunks } = gzipStream();
    for (let n = 0; n < 100; n++) {
      expect(encoder.write(`{"n":${n}}\n`)).toBe(true);
      encoder.flush();
    }
    expect(chunks).toEqual([]); // nothing before the turn ends
    await settle();
    // The gzip header and one sync-flushed block for all hundred items.
    expect(chunks.length).toBe(1);
    expect(partial(chunks)).toBe(Array.from({ length: 100 }, (_, n) => `{"n":${n}}\n`).join(''));
  });

  it('flushes an item written alone in its own turn', async () => {
    const { encoder, chunks } = gzipStream();
    encoder.write('first\n');
    await settle();
    expect(partial(chunks)).toBe('first\n');
    encoder.write('second\n');
    await settle();
    expect(partial(chunks)).toBe('first\nsecond\n');
    encoder.end();
    await once(encoder, 'end');
    expect(gunzipSync(Buffer.concat(chunks)).toString()).toBe('first\nsecond\n');
  });

  it('output is byte-identical after decompression, and close to compressing the whole body', async () => {
    for (const coding of ['gzip', 'br'] as const) {
      const encoder = encoderFor(coding, coding === 'br' ? 4 : 6, 0).stream();
      const chunks: Buffer[] = [];
      encoder.on('data', (chunk: Buffer) => chunks.push(chunk));
      let whole = '';
      for (let n = 0; n < 10_000; n++) {
        const item = `{"n":${n}}\n`;
        whole += item;
        if (!encoder.write(item)) await once(encoder, 'drain');
        encoder.flush();
      }
      encoder.end();
      await once(encoder, 'end');
      const wire = Buffer.concat(chunks);
      const decode = coding === 'gzip' ? gunzipSync : brotliDecompressSync;
      expect(decode(wire).toString()).toBe(whole);
      const atOnce =
        coding === 'gzip'
          ? gzipSync(whole, { level: 6 })
          : brotliCompressSync(whole, { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } });
      expect(wire.length).toBeLessThanOrEqual(atOnce.length * 1.1);
    }
  });

  it('write() returns false past 64 KiB in one turn, and drain follows once the compressor took it', async () => {
    const { encoder, chunks } = gzipStream();
    const item = Buffer.alloc(1024, 'x');
    let accepted = 0;
    while (encoder.write(item)) accepted++;
    // 64 KiB fill the batch (held), another 64 KiB wait in the writable buffer.
    expect(accepted).toBeGreaterThanOrEqual(64);
    expect(accepted).toBeLessThan(130);
    await once(encoder, 'drain');
    encoder.end();
    await once(encoder, 'end');
    expect(gunzipSync(Buffer.concat(chunks)).length).toBe((accepted + 1) * 1024);
  });

  it('flush(callback) hands what was written to the compressor now and calls back after its output', async () => {
    const { encoder, chunks } = gzipStream();
    encoder.write('cut here\n');
    await new Promise<void>((resolve) => encoder.flush(resolve));
    expect(partial(chunks)).toBe('cut here\n');
  });

  it('destroy drops a scheduled batch and frees the compressor', async () => {
    const { encoder, chunks } = gzipStream();
    encoder.write('never sent\n');
    encoder.destroy();
    await settle();
    expect(chunks).toEqual([]);
    expect(encoder.destroyed).toBe(true);
  });
});
