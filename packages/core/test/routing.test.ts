import * as v from 'valibot';
import { afterEach, describe, expect, it } from 'vitest';
import { TestClient } from '@api/testing';
import { BaseApp, Endpoint, JSONResponse, Resource, Struct } from '../src/index';
import { memoryLogger, Widget, WidgetPath } from './fixtures';

const clients: TestClient[] = [];
async function client(app: BaseApp<unknown>): Promise<TestClient> {
  const c = new TestClient(app);
  clients.push(c);
  return c;
}
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

class Widgets extends Resource('/widgets') {
  readMany = this.operation({ returns: v.array(Widget) }, () => [{ id: '1', name: 'a', priceCents: 1 }]);
  readOne = this.operation({ path: WidgetPath, returns: Widget }, ({ path }) => ({
    id: path.widget_id,
    name: 'w',
    priceCents: 2,
  }));
  delete = this.operation({ path: WidgetPath, returns: Widget }, ({ path }) => ({
    id: path.widget_id,
    name: 'gone',
    priceCents: 0,
  }));
}
class Featured extends Endpoint('/widgets/featured') {
  get = this.operation({ returns: Widget }, () => ({ id: 'featured', name: 'f', priceCents: 3 }));
}
const PartPath = Struct('PartPath', { widget_id: v.string(), part_id: v.pipe(v.number(), v.integer()) });
class Parts extends Resource('/widgets/{widget_id}/parts') {
  readOne = this.operation(
    { path: PartPath, returns: Struct('Part', { widgetId: v.string(), partId: v.number() }) },
    ({ path }) => ({
      widgetId: path.widget_id,
      partId: path.part_id,
    }),
  );
}
// Two mounts at one path with disjoint methods.
class WidgetWrites extends Resource('/widgets') {
  create = this.operation(
    { returns: JSONResponse.of(Widget) },
    () => new JSONResponse({ json: { id: 'new', name: 'n', priceCents: 0 }, statusCode: 201 }),
  );
}

class App extends BaseApp {
  protected override async wire(): Promise<void> {
    this.includeResource(new Widgets());
    this.includeEndpoint(new Featured());
    this.includeResource(new Parts());
    this.includeResource(new WidgetWrites());
  }
}

const NOT_FOUND = { type: 'not-found', title: 'Not found', status: 404 };

describe('router', () => {
  it('matches static routes exactly and prefers them over templates', async () => {
    const c = await client(new App({ logger: memoryLogger() }));
    const featured = await c.get('/widgets/featured');
    expect(featured.status).toBe(200);
    expect(featured.json()).toEqual({ id: 'featured', name: 'f', priceCents: 3 });
    const one = await c.get('/widgets/42');
    expect(one.json()).toEqual({ id: '42', name: 'w', priceCents: 2 });
    expect((await c.get('/widgets')).json()).toEqual([{ id: '1', name: 'a', priceCents: 1 }]);
  });

  it('extends item routes with the path fields beyond the mount slots', async () => {
    const c = await client(new App({ logger: memoryLogger() }));
    const res = await c.get('/widgets/w1/parts/7');
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({ widgetId: 'w1', partId: 7 });
  });

  it('answers an unrouted path with the not-found Problem', async () => {
    const c = await client(new App({ logger: memoryLogger() }));
    for (const path of ['/nope', '/widgets/1/2', '/widgets/', '/widgets/w1/parts']) {
      const res = await c.get(path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get('content-type')).toBe('application/problem+json');
      expect(res.json()).toEqual(NOT_FOUND);
    }
  });

  it('prefers a static segment over a slot, and tries the slot when the static branch leads nowhere', async () => {
    // One node with both a static child ("main") and a slot: the router backtracks there.
    const ShopItem = Struct('ShopItem', { shop_id: v.string(), item_id: v.string() });
    const Sku = Struct('Sku', { sku: v.string() });
    class ShopItems extends Endpoint('/shops/{shop_id}/items/{item_id}') {
      get = this.operation(
        { path: ShopItem, returns: v.string() },
        ({ path }) => `${path.shop_id} ${path.item_id}`,
      );
    }
    class MainStock extends Endpoint('/shops/main/stock/{sku}') {
      get = this.operation({ path: Sku, returns: v.string() }, ({ path }) => `stock ${path.sku}`);
    }
    class Shops extends BaseApp {
      protected override async wire(): Promise<void> {
        this.includeEndpoint(new ShopItems());
        this.includeEndpoint(new MainStock());
      }
    }
    const c = await client(new Shops({ logger: memoryLogger() }));
    expect((await c.get('/shops/main/stock/9')).json()).toBe('stock 9');
    // "main" leads to stock/{sku} only: the slot takes "main" instead.
    expect((await c.get('/shops/main/items/3')).json()).toBe('main 3');
    expect((await c.get('/shops/other/items/3')).json()).toBe('other 3');
    const miss = await c.get('/shops/other/stock/9');
    expect(miss.status).toBe(404);
    expect(miss.json()).toEqual(NOT_FOUND);
    const wrongMethod = await c.post('/shops/main/items/3');
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });

  it('answers 404 when a path value fails conversion', async () => {
    const c = await client(new App({ logger: memoryLogger() }));
    const res = await c.get('/widgets/w1/parts/not-a-number');
    expect(res.status).toBe(404);
    expect(res.json()).toEqual(NOT_FOUND);
  });

  it('never splits a segment on an encoded slash and decodes after matching', async () => {
    const c = await client(new App({ logger: memoryLogger() }));
    const res = await c.get('/widgets/a%2Fb');
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({ id: 'a/b', name: 'w', priceCents: 2 });
  });

  it('answers 405 with Allow in registration order, HEAD after GET, then OPTIONS', async () => {
    const c = await client(new App({ logger: memoryLogger() }));
    const res = await c.put('/widgets/1', { json: {} });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, DELETE, HEAD, OPTIONS');
    expect(res.json()).toEqual({ type: 'method-not-allowed', title: 'Method not allowed', status: 405 });
    const collection = await c.patch('/widgets', { json: {} });
    expect(collection.headers.get('allow')).toBe('GET, POST, HEAD, OPTIONS');
  });

  it('dispatches two mounts at one path by method', async () => {
    const c = await client(new App({ logger: memoryLogger() }));
    const created = await c.post('/widgets');
    expect(created.status).toBe(201);
    expect(created.json()).toEqual({ id: 'new', name: 'n', priceCents: 0 });
  });

  it('serves HEAD from GET with the same headers and no body', async () => {
    const c = await client(new App({ logger: memoryLogger() }));
    const get = await c.get('/widgets/9');
    const head = await c.head('/widgets/9');
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(head.headers.get('content-length')).toBe(get.headers.get('content-length'));
    expect(head.headers.get('content-type')).toBe('application/json');
    const missing = await c.head('/nope');
    expect(missing.status).toBe(404);
    expect(missing.body.length).toBe(0);
  });

  it('answers OPTIONS automatically: 204 + Allow on known paths, 404 elsewhere', async () => {
    const c = await client(new App({ logger: memoryLogger() }));
    const res = await c.options('/widgets');
    expect(res.status).toBe(204);
    expect(res.headers.get('allow')).toBe('GET, POST, HEAD, OPTIONS');
    expect(res.headers.get('content-length')).toBeUndefined();
    expect(res.body.length).toBe(0);
    expect((await c.options('/nope')).status).toBe(404);
  });

  it('treats a trailing slash as another path', async () => {
    const c = await client(new App({ logger: memoryLogger() }));
    expect((await c.get('/widgets/featured/')).status).toBe(404);
  });
});
