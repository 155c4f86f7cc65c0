// Prefix routes on the extension point (`wiring.addPrefixRoute`): the catalogue entry, the
// lookup (whole segments, trailing slash, the root prefix) and every wiring mistake.
import { describe, expect, it } from 'vitest';
import { TestClient } from '@api/testing';
import { BaseApp, mountFetch } from '../src/index';
import { defineExtension, type PrefixRoute, type RouteCatalogue } from '../src/extension';
import { expectWiringError } from './expect-wiring-error';
import { memoryLogger } from './fixtures';

const text = (body: string) => new Response(body, { headers: { 'content-type': 'text/plain' } });

function prefixApp(...routes: Omit<PrefixRoute, 'owner' | 'handle'>[]): BaseApp {
  class App extends BaseApp {
    protected override async wire(): Promise<void> {
      this.include(
        defineExtension({
          name: 'prefixes',
          setup: (wiring) => {
            for (const route of routes)
              wiring.addPrefixRoute({
                owner: `owner of ${route.prefix}`,
                ...route,
                handle: (ex) => ex.send(200, ['content-type', 'text/plain'], `${route.prefix} ${ex.path}`),
              });
          },
        }),
      );
    }
  }
  return new App({ logger: memoryLogger() });
}

describe('wiring.addPrefixRoute', () => {
  it('is one catalogue entry of kind prefix, method * (or one per listed method), hidden from documents when asked', async () => {
    let catalogue: RouteCatalogue | undefined;
    class App extends BaseApp {
      protected override async wire(): Promise<void> {
        this.include(mountFetch('/api/auth', () => text('auth'), { name: 'better-auth' }));
        this.include(
          defineExtension({
            name: 'rpc',
            setup: (wiring) => {
              wiring.addPrefixRoute({
                prefix: '/rpc',
                owner: 'rpc',
                operation: 'call',
                methods: ['POST', 'GET'],
                hidden: true,
                handle: (ex) => ex.send(200, [], 'rpc'),
              });
              wiring.onWired((c) => {
                catalogue = c;
              });
            },
          }),
        );
      }
    }
    await new App({ logger: memoryLogger() }).start();
    const rows = catalogue!.routes.map((r) => [r.kind, r.method, r.path, r.owner, r.operation, r.hidden]);
    expect(rows).toEqual([
      // mountFetch leaves the choice to documents (@api/openapi's prefixRoutes).
      ['prefix', '*', '/api/auth', 'better-auth', 'fetch', false],
      ['prefix', 'POST', '/rpc', 'rpc', 'call', true],
      ['prefix', 'GET', '/rpc', 'rpc', 'call', true],
    ]);
  });

  it('owns whole segments only; the root prefix owns what no route answers', async () => {
    const client = new TestClient(prefixApp({ prefix: '/a/b' }, { prefix: '/c' }));
    try {
      expect((await client.get('/a/b/c/d')).text).toBe('/a/b /a/b/c/d');
      expect((await client.get('/a/b')).text).toBe('/a/b /a/b');
      expect((await client.get('/a/bc')).status).toBe(404);
      expect((await client.get('/a')).status).toBe(404);
      expect((await client.get('/c/%7E')).text).toBe('/c /c/~');
    } finally {
      await client.close();
    }
    const root = new TestClient(prefixApp({ prefix: '/' }));
    try {
      expect((await root.get('/anything/at/all')).text).toBe('/ /anything/at/all');
      expect((await root.get('/')).text).toBe('/ /');
    } finally {
      await root.close();
    }
  });

  it.each([
    [[{ prefix: '/api' }, { prefix: '/api' }], 'owner of /api (prefix route)'],
    [[{ prefix: '/api' }, { prefix: '/api/auth' }], 'owner of /api/auth (prefix route)'],
    [[{ prefix: '/api/auth' }, { prefix: '/api' }], 'owner of /api (prefix route)'],
    [[{ prefix: '/x' }, { prefix: '/' }], 'owner of / (prefix route)'],
  ])('refuses overlapping prefixes %j', async (routes, where) => {
    const error = await prefixApp(...routes)
      .start()
      .catch((e: unknown) => e);
    expectWiringError(error, 'API_WIRING_PREFIX_OVERLAP', where);
  });

  it('keeps /api and /apix apart (not an overlap)', async () => {
    await expect(prefixApp({ prefix: '/api' }, { prefix: '/apix' }).start()).resolves.toBeUndefined();
  });

  it.each([
    ['api', 'API_WIRING_INVALID_PATH'],
    ['/api/', 'API_WIRING_INVALID_PATH'],
    ['/a//b', 'API_WIRING_INVALID_PATH'],
    ['/items/{item_id}', 'API_WIRING_INVALID_PATH'],
    ['/sp ace', 'API_WIRING_INVALID_PATH'],
  ] as const)('refuses the prefix %j', async (prefix, code) => {
    const error = await prefixApp({ prefix })
      .start()
      .catch((e: unknown) => e);
    expectWiringError(error, code, `owner of ${prefix}.handle (prefix route)`);
  });

  it('refuses bad methods, a path source, and a handler that is not a function', async () => {
    expectWiringError(
      await prefixApp({ prefix: '/a', methods: ['get'] })
        .start()
        .catch((e: unknown) => e),
      'API_WIRING_HTTP_METHOD',
      'owner of /a.handle (prefix route): methods',
    );
    expectWiringError(
      await prefixApp({ prefix: '/a', methods: [] })
        .start()
        .catch((e: unknown) => e),
      'API_WIRING_INVALID_ARGUMENT',
      'owner of /a.handle (prefix route)',
    );
    expectWiringError(
      () => mountFetch('/a', 'nope' as never),
      'API_WIRING_INVALID_ARGUMENT',
      'mountFetch("/a")',
    );
    expectWiringError(
      () => mountFetch('/a', () => text(''), { stripPrefix: 'yes' as never }),
      'API_WIRING_INVALID_ARGUMENT',
      'mountFetch("/a")',
    );
  });
});
