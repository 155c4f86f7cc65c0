// The fields of the IETF httpapi draft "RateLimit header fields for HTTP"
// (draft-ietf-httpapi-ratelimit-headers): `RateLimit-Policy` lists each policy's quota and window,
// `RateLimit` each policy's remaining units and seconds until one more is available. Both are
// Structured Field lists (RFC 9651) of String items with Integer parameters.
import type { Standing } from '../gcra/gcra';

/** What the fields need of a policy. */
export interface PolicyFacts {
  readonly name: string;
  readonly limit: number;
  readonly window: number;
}

/**
 * The `RateLimit-Policy` value of a route: one item per policy, `"name";q=<limit>;w=<window>`.
 *
 * @example
 * policyField([{ name: 'default', limit: 100, window: 10 }]); // → '"default";q=100;w=10'
 */
export function policyField(policies: readonly PolicyFacts[]): string {
  return policies.map((p) => `"${p.name}";q=${p.limit};w=${p.window}`).join(', ');
}

/**
 * One `RateLimit` item: `"name";r=<remaining>;t=<reset>` (`t=0` when the bucket is full).
 *
 * @example
 * limitItem('default', { remaining: 50, reset: 30 }); // → '"default";r=50;t=30'
 */
export function limitItem(name: string, standing: Standing): string {
  return limitItemOf(name)(standing.remaining, standing.reset);
}

/**
 * The `RateLimit` item writer of one policy (`limitItem`), its quoted name written once, at
 * wiring: a request formats only its two numbers.
 *
 * @example
 * limitItemOf('default')(50, 30); // → '"default";r=50;t=30'
 */
export function limitItemOf(name: string): (remaining: number, reset: number) => string {
  const opening = `"${name}";r=`;
  return (remaining, reset) => `${opening}${remaining};t=${reset}`;
}
