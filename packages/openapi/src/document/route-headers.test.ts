import { describe, expect, it } from 'vitest';
import type { RouteInfo } from '@api/core/extension';
import { factHeaders, withFactHeaders } from './route-headers';

const header = (name: string, statuses: 'all' | number[]) => ({
  name,
  description: `${name} header`,
  schema: { type: 'string' },
  statuses,
});

function route(facts: Record<string, unknown>): RouteInfo {
  return { facts: new Map(Object.entries(facts)) } as unknown as RouteInfo;
}

describe('fact headers', () => {
  it("collects every fact's well-formed responseHeaders, in fact order", () => {
    const found = factHeaders(
      route({
        auth: { kind: 'headers' },
        limits: {
          responseHeaders: [header('ratelimit', 'all'), { name: 'broken' }, header('retry-after', [429])],
        },
        other: { responseHeaders: 'not a list' },
        nothing: null,
      }),
    );
    expect(found.map((h) => h.name)).toEqual(['ratelimit', 'retry-after']);
  });

  it('adds the headers of a status to a copy of the response, keeping its own first', () => {
    const shared = { description: 'Too many', content: { 'application/json': {} } };
    const headers = [header('ratelimit', 'all'), header('retry-after', [429])];
    const out = withFactHeaders(shared, 429, headers);
    expect(out).toEqual({
      description: 'Too many',
      headers: {
        ratelimit: { description: 'ratelimit header', schema: { type: 'string' } },
        'retry-after': { description: 'retry-after header', schema: { type: 'string' } },
      },
      content: { 'application/json': {} },
    });
    expect(Object.keys(out)).toEqual(['description', 'headers', 'content']);
    expect(shared).toEqual({ description: 'Too many', content: { 'application/json': {} } });
    const own = { description: 'OK', headers: { ratelimit: { description: 'own' } } };
    expect(withFactHeaders(own, 200, headers).headers).toEqual({ ratelimit: { description: 'own' } });
    expect(withFactHeaders(shared, 500, [header('retry-after', [429])])).toBe(shared);
  });
});
