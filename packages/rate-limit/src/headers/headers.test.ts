// The field values, checked against the examples of draft-ietf-httpapi-ratelimit-headers.
import { describe, expect, it } from 'vitest';
import { limitItem, limitItemOf, policyField } from './headers';

describe('RateLimit-Policy', () => {
  it('writes the draft examples', () => {
    // RateLimit-Policy: "default";q=100;w=10
    expect(policyField([{ name: 'default', limit: 100, window: 10 }])).toBe('"default";q=100;w=10');
    // RateLimit-Policy: "permin";q=50;w=60,"perhr";q=1000;w=3600 (an SF list serializes with ", ")
    expect(
      policyField([
        { name: 'permin', limit: 50, window: 60 },
        { name: 'perhr', limit: 1000, window: 3600 },
      ]),
    ).toBe('"permin";q=50;w=60, "perhr";q=1000;w=3600');
  });
});

describe('RateLimit', () => {
  it('writes the draft examples', () => {
    // RateLimit: "default";r=50;t=30
    expect(limitItem('default', { remaining: 50, reset: 30 })).toBe('"default";r=50;t=30');
    // RateLimit: "basic";r=60;t=58 (with RateLimit-Policy: "basic";q=100;w=60)
    expect(limitItem('basic', { remaining: 60, reset: 58 })).toBe('"basic";r=60;t=58');
    // Throttled: RateLimit: "default";r=0;t=5
    expect(limitItem('default', { remaining: 0, reset: 5 })).toBe('"default";r=0;t=5');
    expect(limitItemOf('basic')(60, 58)).toBe('"basic";r=60;t=58');
  });
});
