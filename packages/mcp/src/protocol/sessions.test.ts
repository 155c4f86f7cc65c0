import { describe, expect, it } from 'vitest';
import { digest, Sessions, subtleDigest } from './sessions';

describe('Sessions', () => {
  it('answers a session only to the binding that opened it, until it idles out', () => {
    let now = 0;
    const sessions = new Sessions(10, 1000, () => now);
    const s = sessions.open('a', '2025-11-25')!;
    expect(sessions.use(s.id, 'b')).toBeUndefined();
    expect(sessions.use(s.id, 'a')).toBe(s);
    now = 1000;
    expect(sessions.use(s.id, 'a')).toBe(s); // used at 0: idle exactly 1000 ms is still open
    now = 2001;
    expect(sessions.use(s.id, 'a')).toBeUndefined();
    expect(sessions.size).toBe(0);
  });

  it('at the cap, sweeps idle sessions first, then refuses', () => {
    let now = 0;
    const sessions = new Sessions(2, 1000, () => now);
    const first = sessions.open('a', 'v')!;
    now = 500;
    sessions.open('a', 'v');
    expect(sessions.open('a', 'v')).toBeUndefined();
    now = 1200; // the first is idle, the second not
    expect(sessions.open('a', 'v')).toBeDefined();
    expect(sessions.use(first.id, 'a')).toBeUndefined();
    expect(sessions.size).toBe(2);
  });

  it('closes only for the binding that opened it', () => {
    const sessions = new Sessions(2, 1000);
    const s = sessions.open('a', 'v')!;
    expect(sessions.close(s.id, 'b')).toBe(false);
    expect(sessions.close(s.id, 'a')).toBe(true);
    expect(sessions.size).toBe(0);
  });

  it('digests with SHA-256', async () => {
    const abc = 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad';
    expect(digest('abc')).toBe(abc); // node:crypto here: synchronous
    expect(await subtleDigest('abc')).toBe(abc); // the Web Crypto fallback agrees
    expect(await subtleDigest('Bearer ada')).toBe(digest('Bearer ada'));
  });
});
