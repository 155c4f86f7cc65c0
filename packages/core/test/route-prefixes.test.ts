// The `prefix` mount option: a Resource or Endpoint under `/v1`, the same class under two
// prefixes, Location and Link following the prefix of the route answering.
import * as v from 'valibot';
import { afterEach, describe, expect, it } from 'vitest';
import { TestClient } from '@api/testing';
import { BaseApp, Created, Endpoint, JSONResponse, Link, Location, Resource, Struct } from '../src/index';
import { expectWiringError } from './expect-wiring-error';
import { memoryLogger, Widget, WidgetIn, WidgetPath } from './fixtures';

const clients: TestClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

class WidgetResource extends Resource('/widgets', { ref: 'widgets' }) {
  create = this.operation({ json: WidgetIn, returns: Created.of(Widget) }, ({ json }) => {
    const id = '1';
    return new Created({
      json: { id, ...json },
      location: Location.fromOperation(WidgetResource, 'readOne', { path: { widget_id: id } }),
      links: [Link.fromRef('widgets.readMany', { rel: 'collection' })],
    });
  });
  readOne = this.operation({ path: WidgetPath, returns: Widget }, ({ path }) => ({
    id: path.widget_id,
    name: 'w',
    priceCents: 1,
  }));
  readMany = this.operation({ returns: v.array(Widget) }, () => []);
}
const Health = Struct('Health', { status: v.string() });
class HealthEndpoint extends Endpoint('/healthz') {
  get = this.operation({ returns: JSONResponse.of(Health) }, () => {
    // A link to another class's operation: the answering route's prefix (none here) picks.
    return new JSONResponse({
      json: { status: 'ok' },
      links: [Link.fromOperation(WidgetResource, 'readMany', { rel: 'related' })],
    });
  });
}

function start(wire: (app: TestApp) => void): TestClient {
  const c = new TestClient(new TestApp(wire));
  clients.push(c);
  return c;
}
class TestApp extends BaseApp {
  constructor(readonly wiring: (app: TestApp) => void) {
    super({ logger: memoryLogger() });
  }
  protected override async wire(): Promise<void> {
    this.wiring(this);
  }
  resource(options?: { prefix?: string }): void {
    this.includeResource(new WidgetResource(), options ?? {});
  }
  endpoint(options?: { prefix?: string }): void {
    this.includeEndpoint(new HealthEndpoint(), options ?? {});
  }
}

describe('mount option prefix', () => {
  it('mounts one class under two prefixes; Location and Link follow the prefix answering', async () => {
    const c = start((app) => {
      app.resource({ prefix: '/v1' });
      app.resource({ prefix: '/api/v2' });
      app.endpoint();
    });
    for (const prefix of ['/v1', '/api/v2']) {
      const res = await c.post(`${prefix}/widgets`, { json: { name: 'a', priceCents: 1 } });
      expect(res.status).toBe(201);
      expect(res.headers.get('location')).toBe(`${prefix}/widgets/1`);
      expect(res.headers.get('link')).toBe(`<${prefix}/widgets>; rel="collection"`);
      expect((await c.get(`${prefix}/widgets/7`)).json()).toEqual({ id: '7', name: 'w', priceCents: 1 });
    }
    expect((await c.get('/widgets')).status).toBe(404);
    // Unprefixed route, class mounted only under prefixes: the first mount's path.
    expect((await c.get('/healthz')).headers.get('link')).toBe('</v1/widgets>; rel="related"');
  });

  it('prefixes an Endpoint, and records the prefix on the catalogue entry', async () => {
    const app = new TestApp((a) => {
      a.endpoint({ prefix: '/v1' });
      a.resource();
    });
    const c = new TestClient(app);
    clients.push(c);
    expect((await c.get('/v1/healthz')).json()).toEqual({ status: 'ok' });
    expect((await c.get('/v1/healthz')).headers.get('link')).toBe('</widgets>; rel="related"');
    expect((await c.get('/healthz')).status).toBe(404);
    expect(app.catalogue.routes.map((r) => [r.path, r.mountPrefix])).toEqual([
      ['/v1/healthz', '/v1'],
      ['/widgets', undefined],
      ['/widgets', undefined],
      ['/widgets/{widget_id}', undefined],
    ]);
  });

  it.each(['v1', '/v1/', '/{version}', '/a//b'])('refuses the prefix %j', async (prefix) => {
    const error = await new TestApp((app) => app.resource({ prefix })).start().catch((e: unknown) => e);
    expectWiringError(
      error,
      'API_WIRING_INVALID_PATH',
      'TestApp.includeResource(WidgetResource): mount option "prefix"',
    );
  });

  it('refuses the same class twice under one prefix (a duplicate route)', async () => {
    const error = await new TestApp((app) => {
      app.resource({ prefix: '/v1' });
      app.resource({ prefix: '/v1' });
    })
      .start()
      .catch((e: unknown) => e);
    expectWiringError(error, 'API_WIRING_DUPLICATE_ROUTE', 'WidgetResource.create');
  });
});
