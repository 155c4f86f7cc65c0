import { describe, expect, it } from 'vitest';
import { Ring } from './ring';

describe('Ring', () => {
  it('is FIFO across growth and wrap-around', () => {
    const ring = new Ring<string, number>(4);
    const seen: number[] = [];
    let next = 0;
    // Interleave pushes and shifts so the head wraps before the ring grows, then grows mid-wrap.
    for (let round = 0; round < 50; round++) {
      for (let i = 0; i < (round % 7) + 1; i++) ring.push(`r${next}`, next++);
      for (let i = 0; i < (round % 5) + 1 && ring.size > 0; i++) {
        expect(ring.headRoute()).toBe(`r${ring.headItem()}`);
        seen.push(ring.headItem());
        ring.dropHead();
      }
    }
    while (ring.size > 0) {
      seen.push(ring.headItem());
      ring.dropHead();
    }
    expect(seen).toEqual(Array.from({ length: next }, (_, i) => i));
  });

  it('clears', () => {
    const ring = new Ring<string, number>();
    for (let i = 0; i < 40; i++) ring.push('r', i);
    ring.clear();
    expect(ring.size).toBe(0);
    ring.push('x', 1);
    expect([ring.headRoute(), ring.headItem()]).toEqual(['x', 1]);
  });
});
