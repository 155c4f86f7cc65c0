import { afterEach, describe, expect, it, vi } from 'vitest';
import { deferred, FakeTarget, memoryLogger } from '../../test/fakes';
import { Pump, type PumpOptions } from './pump';

const text = (item: unknown): string => `${String(item)}\n`;

function pump(target: FakeTarget, options: Partial<PumpOptions> = {}) {
  const log = memoryLogger();
  const p = new Pump(target, { encode: text, log, label: 'GET /s', ...options });
  return { pump: p, log };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('Pump keepalive', () => {
  it('pings after the idle time, reset by every write', async () => {
    vi.useFakeTimers();
    const target = new FakeTarget();
    const gate = deferred<string>();
    async function* source() {
      yield 'a';
      yield await gate.promise;
      await new Promise(() => undefined);
    }
    const { pump: p } = pump(target, { keepaliveMs: 1000, ping: ':p\n' });
    await p.open(source());
    void p.run();
    await vi.advanceTimersByTimeAsync(900);
    gate.resolve('b');
    await vi.advanceTimersByTimeAsync(900); // 1800 ms since start, 900 since the write of b
    expect(target.text).toBe('a\nb\n');
    target.flush(); // the client read it all
    await vi.advanceTimersByTimeAsync(100);
    expect(target.text).toBe('a\nb\n:p\n');
    target.flush();
    await vi.advanceTimersByTimeAsync(1000);
    expect(target.text).toBe('a\nb\n:p\n:p\n');
    target.disconnect();
  });

  it('skips its ping while the socket has unflushed data', async () => {
    vi.useFakeTimers();
    const target = new FakeTarget(Number.POSITIVE_INFINITY);
    async function* source() {
      yield 'a';
      await new Promise(() => undefined);
    }
    const { pump: p } = pump(target, { keepaliveMs: 1000, ping: ':p\n' });
    await p.open(source());
    void p.run();
    await vi.advanceTimersByTimeAsync(3000);
    expect(target.text).toBe('a\n'); // 'a' is still buffered
    target.writableLength = 0;
    await vi.advanceTimersByTimeAsync(1000);
    expect(target.text).toBe('a\n:p\n');
    target.disconnect();
  });

  it('skips its ping while a write waits for drain, even when the target reports nothing buffered', async () => {
    vi.useFakeTimers();
    // Node 24: an 8 MiB write returned false, its bytes queued below the stream (writableLength 0).
    const target = new FakeTarget(4);
    async function* source() {
      yield 'a big event';
      await new Promise(() => undefined);
    }
    const { pump: p } = pump(target, { keepaliveMs: 1000, ping: ':p\n' });
    await p.open(source());
    void p.run();
    await vi.advanceTimersByTimeAsync(10);
    target.writableLength = 0; // what the target reports; no 'drain' yet
    await vi.advanceTimersByTimeAsync(5000);
    expect(target.text).toBe('a big event\n');
    target.flush(); // 'drain'
    await vi.advanceTimersByTimeAsync(1000);
    expect(target.text).toBe('a big event\n:p\n');
    target.disconnect();
  });

  it('is cleared on disconnect: no timer left, nothing written after close', async () => {
    vi.useFakeTimers();
    const target = new FakeTarget();
    async function* source() {
      yield 'a';
      await new Promise(() => undefined);
    }
    const { pump: p } = pump(target, { keepaliveMs: 1000, ping: ':p\n' });
    await p.open(source());
    const running = p.run();
    await vi.advanceTimersByTimeAsync(10);
    target.disconnect();
    await running;
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(5000);
    expect(target.text).toBe('a\n');
  });
});
