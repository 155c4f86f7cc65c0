import { Transform, type TransformCallback } from 'node:stream';
import type { StreamEncoder } from '@api/core/extension';

/** A node:zlib compressing stream whose every write is sync-flushed (its `flush` option). */
export type FlushingZlib = StreamEncoder & { flush(kind: number, callback?: () => void): void };

type Done = (error?: Error | null) => void;

/**
 * The writable high-water mark: a batch this large goes to the compressor without waiting for
 * more, and writes past it wait (`write()` returns false). Large enough that a flush block per
 * batch is noise (brotli at quality 4 with 16 KiB batches lost 11% to whole-body compression on
 * 10,000 NDJSON lines; 64 KiB batches lose under 3%), small enough to bound what one response holds.
 */
const BATCH_BYTES = 64 * 1024;

/**
 * One streamed answer's encoder: what is written during one turn of the event loop reaches the
 * compressor as one write, at the end of that turn (`setImmediate`), and leaves it flushed.
 *
 * Core writes a stream item by item and calls `flush()` after each; flushing a zlib stream per
 * item costs a thread-pool round trip, a flush block and a chunk on the wire each (10,000 items
 * of 6 bytes: twice the identity bytes, 10–40× its time). Here `flush()` without a callback
 * means "out by the end of this turn": items a producer has ready at once are compressed
 * together (within a few bytes of compressing the whole body at once), an item written alone
 * still leaves in the turn it was written (an `EventSource` sees it at once), and nothing is
 * held longer than one turn. The inner stream's `flush` option makes each batch's write a sync
 * flush (`Z_SYNC_FLUSH`, `BROTLI_OPERATION_FLUSH`, `ZSTD_e_flush`), which keeps the dictionary:
 * a per-item full flush would reset it.
 *
 * Backpressure: a batch that reached the high-water mark holds its write's callback until the
 * compressor took it, so further writes queue (and `write()` returns false) instead of
 * growing the batch; the compressor's output waits while the response does not read
 * (`pause`/`resume`), which in turn holds the compressor's input. `flush(callback)` (core's cut
 * of a failed stream) hands everything written so far to the compressor now and calls back once
 * its output was pushed.
 */
export class CoalescingEncoder extends Transform implements StreamEncoder {
  readonly #inner: FlushingZlib;
  readonly #flushKind: number;
  readonly #pending: Buffer[] = [];
  #pendingBytes = 0;
  #scheduled: NodeJS.Immediate | undefined = undefined;
  /** The callback of the write that filled the batch: called once the compressor took it. */
  #held: Done | undefined = undefined;
  /** `_flush`'s callback, once the compressor ended. */
  #innerEnded: (() => void) | undefined = undefined;

  /**
   * @param inner - the compressing stream, created with a sync-flush `flush` option
   * @param flushKind - that flush kind, for an explicit `flush(callback)`
   */
  constructor(inner: FlushingZlib, flushKind: number) {
    super({ writableHighWaterMark: BATCH_BYTES });
    this.#inner = inner;
    this.#flushKind = flushKind;
    inner.on('data', (chunk: Buffer) => {
      if (!this.push(chunk)) inner.pause();
    });
    inner.once('end', () => this.#innerEnded?.());
    inner.on('error', (error: Error) => this.destroy(error));
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: Done): void {
    this.#add(chunk, done);
  }

  override _writev(chunks: { chunk: Buffer }[], done: Done): void {
    for (let i = 0; i < chunks.length - 1; i++) this.#take(chunks[i]!.chunk);
    this.#add(chunks[chunks.length - 1]!.chunk, done);
  }

  /** Never called (`_write` is ours); Transform's contract asks for it. */
  override _transform(chunk: Buffer, encoding: BufferEncoding, done: TransformCallback): void {
    this._write(chunk, encoding, done);
  }

  #take(chunk: Buffer): void {
    this.#pending.push(chunk);
    this.#pendingBytes += chunk.length;
    this.#scheduled ??= setImmediate(this.#batch);
  }

  #add(chunk: Buffer, done: Done): void {
    this.#take(chunk);
    if (this.#pendingBytes >= this.writableHighWaterMark) this.#held = done;
    else done();
  }

  /** Hands the turn's writes to the compressor as one (sync-flushed) write. */
  readonly #batch = (): void => {
    if (this.#scheduled !== undefined) {
      clearImmediate(this.#scheduled);
      this.#scheduled = undefined;
    }
    const pending = this.#pending;
    if (pending.length === 0 || this.destroyed) return;
    const data = pending.length === 1 ? pending[0]! : Buffer.concat(pending, this.#pendingBytes);
    pending.length = 0;
    this.#pendingBytes = 0;
    const held = this.#held;
    this.#held = undefined;
    this.#inner.write(data, held === undefined ? undefined : () => held());
  };

  /**
   * Without a callback (core, after each item): nothing to do — what was written leaves by the
   * end of this turn. With one: everything written so far goes to the compressor now, flushed,
   * and `callback` runs once its output was pushed.
   */
  flush(kind?: number | (() => void), callback?: () => void): void {
    const done = typeof kind === 'function' ? kind : callback;
    if (done === undefined) return;
    if (this.destroyed || this.writableEnded) {
      if (this.readableEnded || this.destroyed) process.nextTick(done);
      else this.once('end', done);
      return;
    }
    // An empty write queues behind what the writable side still buffers: once it is taken,
    // everything before it is in the batch.
    this.write(Buffer.alloc(0), () => {
      this.#batch();
      this.#inner.flush(this.#flushKind, done);
    });
  }

  override _read(): void {
    this.#inner.resume();
  }

  /** The end: the last batch, then the compressor's trailer, then this stream ends. */
  override _flush(done: TransformCallback): void {
    this.#batch();
    this.#innerEnded = () => done();
    this.#inner.end();
  }

  override _destroy(error: Error | null, done: (error?: Error | null) => void): void {
    if (this.#scheduled) clearImmediate(this.#scheduled);
    this.#scheduled = undefined;
    this.#pending.length = 0;
    this.#held = undefined;
    this.#inner.destroy();
    done(error);
  }
}
