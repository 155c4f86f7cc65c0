import { EventEmitter } from 'node:events';
import type { Logger } from '@api/core/extension';

/** A response-like target: records writes, models a send buffer that `flush()` empties. */
export class FakeTarget extends EventEmitter {
  readonly chunks: (string | Uint8Array)[] = [];
  writableLength = 0;
  ended = false;
  destroyed = false;
  /** How many times the head was flushed ahead of any body. */
  headsFlushed = 0;
  /** write() returns false once this many bytes are buffered. */
  constructor(readonly highWaterMark = Number.POSITIVE_INFINITY) {
    super();
  }

  write(chunk: string | Uint8Array): boolean {
    if (this.ended || this.destroyed) throw new Error('write after the response closed');
    this.chunks.push(chunk);
    this.writableLength += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.byteLength;
    return this.writableLength < this.highWaterMark;
  }

  flushHeaders(): void {
    if (this.chunks.length > 0) throw new Error('flushHeaders after a write');
    this.headsFlushed++;
  }

  /** The client read everything: the buffer empties and `drain` fires. */
  flush(): void {
    this.writableLength = 0;
    this.emit('drain');
  }

  end(): void {
    if (this.ended) throw new Error('ended twice');
    this.ended = true;
    this.emit('close');
  }

  /** A cut connection: no terminating chunk. */
  cut(): void {
    this.destroyed = true;
    this.emit('close');
  }

  /** The client goes away. */
  disconnect(): void {
    this.destroyed = true;
    this.emit('close');
  }

  get text(): string {
    return this.chunks.map((c) => (typeof c === 'string' ? c : Buffer.from(c).toString())).join('');
  }
}

export interface LogLine {
  readonly level: 'info' | 'warn' | 'error';
  readonly message: string;
  readonly error: unknown;
}

/** A logger that keeps its lines. */
export function memoryLogger(): Logger & { lines: LogLine[] } {
  const lines: LogLine[] = [];
  return {
    lines,
    info: (message) => lines.push({ level: 'info', message, error: undefined }),
    warn: (message, error) => lines.push({ level: 'warn', message, error }),
    error: (message, error) => lines.push({ level: 'error', message, error }),
  };
}

/** Resolves after pending promise jobs and one macrotask. */
export const tick = (ms = 0): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** A promise with its resolvers. */
export function deferred<T = void>(): {
  promise: Promise<T>;
  resolve: (value: T) => void;
  reject: (e: unknown) => void;
} {
  let resolve!: (value: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}
