import { describe, expect, it } from 'vitest';
import { LightEmitter } from './light-emitter';

describe('LightEmitter', () => {
  it('calls a lone listener with its arguments and this, and only for its event', () => {
    const emitter = new LightEmitter();
    const calls: unknown[][] = [];
    emitter.on('close', function (this: unknown, ...args: unknown[]) {
      calls.push([this, ...args]);
    });
    expect(emitter.emit('finish')).toBe(false);
    expect(emitter.emit('close', 1, 'a')).toBe(true);
    expect(calls).toEqual([[emitter, 1, 'a']]);
    expect(emitter.listenerCount('close')).toBe(1);
    expect(emitter.eventNames()).toEqual(['close']);
  });

  it('keeps every listener, in order, once a second one comes (same event or another)', () => {
    const emitter = new LightEmitter();
    const seen: string[] = [];
    emitter.on('close', () => seen.push('close 1'));
    emitter.on('finish', () => seen.push('finish'));
    emitter.on('close', () => seen.push('close 2'));
    emitter.prependListener('close', () => seen.push('close 0'));
    emitter.emit('finish');
    emitter.emit('close');
    expect(seen).toEqual(['finish', 'close 0', 'close 1', 'close 2']);
    expect(emitter.listenerCount('close')).toBe(3);
  });

  it('removes a lone listener (also a once one, by the listener given), and runs a once listener once', () => {
    const emitter = new LightEmitter();
    let n = 0;
    const count = (): void => void n++;
    emitter.on('close', count);
    emitter.off('close', () => undefined);
    emitter.off('finish', count);
    expect(emitter.emit('close')).toBe(true);
    emitter.off('close', count);
    expect(emitter.emit('close')).toBe(false);
    emitter.once('close', count);
    emitter.emit('close');
    emitter.emit('close');
    expect(n).toBe(2);
    emitter.once('close', count);
    emitter.removeListener('close', count);
    expect(emitter.emit('close')).toBe(false);
    expect(emitter.listenerCount('close')).toBe(0);
  });

  it('lists and clears a lone listener as any other', () => {
    const emitter = new LightEmitter();
    const listener = (): void => undefined;
    emitter.once('drain', listener);
    expect(emitter.listeners('drain')).toEqual([listener]);
    expect(emitter.rawListeners('drain')).toHaveLength(1);
    emitter.removeAllListeners('drain');
    expect(emitter.emit('drain')).toBe(false);
    emitter.on('drain', listener);
    emitter.on('close', listener);
    emitter.removeAllListeners();
    expect(emitter.eventNames()).toEqual([]);
    // After a clear the slot serves again.
    emitter.on('close', listener);
    expect(emitter.emit('close')).toBe(true);
  });
});
