import { describe, expectTypeOf, it } from 'vitest';
import { Endpoint, type MountOptions } from '@api/core';
import type { RequestHead } from '@api/core/extension';
import { mcp, type McpEndpoint, type McpOptions } from './index';
import type { Extension } from '@api/core/extension';

class Ping extends Endpoint('/ping') {
  get = this.operation({}, () => undefined);
}

describe('mcp() types', () => {
  it('returns the endpoint from include', () => {
    expectTypeOf(mcp).returns.toEqualTypeOf<Extension<McpEndpoint>>();
    expectTypeOf<McpEndpoint['tools']>().toEqualTypeOf<readonly Readonly<Record<string, unknown>>[]>();
  });

  it('types the options', () => {
    expectTypeOf<McpOptions['tools']>().toEqualTypeOf<
      'all' | readonly (string | (abstract new (...args: never[]) => object))[] | undefined
    >();
    expectTypeOf<McpOptions['names']>().toEqualTypeOf<Readonly<Record<string, string>> | undefined>();
    expectTypeOf<McpOptions['bindSessionTo']>().toEqualTypeOf<((req: RequestHead) => string) | undefined>();
    expectTypeOf<{ tools: [typeof Ping, 'Ping.get'] }>().toMatchTypeOf<McpOptions>();
    expectTypeOf<{ tools: 'some' }>().not.toMatchTypeOf<McpOptions>();
    expectTypeOf<{ tools: [42] }>().not.toMatchTypeOf<McpOptions>();
    expectTypeOf<{ names: { 'Ping.get': 1 } }>().not.toMatchTypeOf<McpOptions>();
    expectTypeOf<{ maxSessions: '10' }>().not.toMatchTypeOf<McpOptions>();
    // The endpoint's own mount options: not a prefix (the path is `path`).
    expectTypeOf<{ prefix: '/v1' }>().not.toMatchTypeOf<McpOptions>();
  });

  it('adds the mcp mount option: false only', () => {
    expectTypeOf<{ mcp: false }>().toMatchTypeOf<MountOptions<Ping>>();
    expectTypeOf<{ mcp: true }>().not.toMatchTypeOf<MountOptions<Ping>>();
  });
});
