import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { BaseApp, defineMiddleware, Endpoint, Resource, Struct } from '@api/core';
import { assets } from '../src/index';
import { headerPairs, memoryLogger, parseRaw, rawGet, started, tree } from './helpers';

const Widget = Struct('Widget', { id: v.string() });
const WidgetPath = Struct('WidgetPath', { id: v.string() });

class Widgets extends Resource('/widgets') {
  readOne = this.operation({ path: WidgetPath, returns: Widget }, ({ path }) => ({ id: path.id }));
  updateFull = this.operation({ path: WidgetPath, json: Widget, returns: Widget }, ({ json }) => json);
}

describe('assets: routes among the app’s routes', () => {
  it('an asset /widgets/5.txt wins over /widgets/{id} for its own path only', async () => {
    const dir = tree({ '5.txt': 'five' });
    class App extends BaseApp {
      protected override async wire(): Promise<void> {
        this.includeResource(new Widgets());
        this.include(assets({ directory: dir, path: '/widgets' }));
      }
    }
    const client = await started(new App({ logger: memoryLogger() }));
    const asset = await client.get('/widgets/5.txt');
    expect(asset.text).toBe('five');
    expect(asset.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect((await client.head('/widgets/5.txt')).headers.get('content-length')).toBe('4');
    expect((await client.get('/widgets/6.txt')).json()).toEqual({ id: '6.txt' });
    expect((await client.get('/widgets/5')).json()).toEqual({ id: '5' });
    expect((await client.get('/widgets/5.txt.bak')).json()).toEqual({ id: '5.txt.bak' });
    // The exact path belongs to the asset for every method (core's router: exact before templates).
    const put = await client.put('/widgets/5.txt', { json: { id: 'x' } });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    expect((await client.put('/widgets/6.txt', { json: { id: 'x' } })).json()).toEqual({ id: 'x' });
  });

  it('a file named {id}.txt beside an endpoint /widgets/{id}: its own paths are the file, every other one the endpoint', async () => {
    const dir = tree({ '{id}.txt': 'the file' });
    class App extends BaseApp {
      protected override async wire(): Promise<void> {
        this.includeResource(new Widgets());
        this.include(assets({ directory: dir, path: '/widgets' }));
      }
    }
    const client = await started(new App({ logger: memoryLogger() }));
    const raw = parseRaw(await rawGet(client.url, '/widgets/{id}.txt'));
    expect(raw.status).toBe('HTTP/1.1 200 OK');
    expect(raw.body).toBe('the file');
    expect((await client.get('/widgets/%7Bid%7D.txt')).text).toBe('the file');
    expect((await client.get('/widgets/7.txt')).json()).toEqual({ id: '7.txt' });
  });

  it('is covered by app-wide middleware: headers on 200, 304, HEAD and 405; observe sees asset answers', async () => {
    const dir = tree({ 'a.css': 'a { color: red }\n'.repeat(40) });
    const observed: number[] = [];
    class App extends BaseApp {
      protected override async wire(): Promise<void> {
        this.includeMiddleware(defineMiddleware({ responseHeaders: { 'x-app': 'demo' } }));
        this.includeMiddleware(
          defineMiddleware({
            responseHeaders: (request) => ({ 'x-seen': request.method }),
            observe: (_request, status) => void observed.push(status),
          }),
        );
        this.include(assets({ directory: dir }));
      }
    }
    const client = await started(new App({ logger: memoryLogger() }));
    const ok = await client.get('/assets/a.css', { headers: { 'accept-encoding': 'gzip' } });
    const etag = ok.headers.get('etag')!;
    expect(headerPairs(ok)).toEqual([
      ['content-type', 'text/css; charset=utf-8'],
      ['content-encoding', 'gzip'],
      ['etag', etag],
      ['vary', 'accept-encoding'],
      ['x-app', 'demo'],
      ['x-seen', 'GET'],
      ['content-length', String(ok.body.length)],
    ]);
    const not = await client.get('/assets/a.css', {
      headers: { 'accept-encoding': 'gzip', 'if-none-match': etag },
    });
    expect(not.status).toBe(304);
    expect(headerPairs(not)).toEqual([
      ['etag', etag],
      ['vary', 'accept-encoding'],
      ['x-app', 'demo'],
      ['x-seen', 'GET'],
    ]);
    const head = await client.head('/assets/a.css');
    expect(head.headers.get('x-app')).toBe('demo');
    expect(head.headers.get('x-seen')).toBe('HEAD');
    const refused = await client.delete('/assets/a.css');
    expect(refused.status).toBe(405);
    expect(refused.headers.get('x-app')).toBe('demo');
    // App-wide observe sees every answer, the 405 included.
    await expect.poll(() => observed).toEqual([200, 304, 200, 405]);
  });

  it('enters the catalogue as hidden custom GET routes owned by assets', async () => {
    const dir = tree({ 'a.txt': 'a', 'b/c.txt': 'c' });
    class App extends BaseApp {
      protected override async wire(): Promise<void> {
        this.include(assets({ directory: dir, path: '/static' }));
      }
    }
    const app = new App({ logger: memoryLogger() });
    await started(app);
    expect(
      app.catalogue.routes.map((r) => ({
        method: r.method,
        path: r.path,
        kind: r.kind,
        owner: r.owner,
        operation: r.operation,
        hidden: r.hidden,
      })),
    ).toEqual([
      {
        method: 'GET',
        path: '/static/a.txt',
        kind: 'custom',
        owner: 'assets',
        operation: 'asset',
        hidden: true,
      },
      {
        method: 'GET',
        path: '/static/b/c.txt',
        kind: 'custom',
        owner: 'assets',
        operation: 'asset',
        hidden: true,
      },
    ]);
  });

  it('serves two directories side by side', async () => {
    const css = tree({ 'a.css': 'a{}' });
    const img = tree({ 'a.svg': '<svg/>' });
    class App extends BaseApp {
      protected override async wire(): Promise<void> {
        this.include(assets({ directory: css, path: '/css' }));
        this.include(assets({ directory: img, path: '/img' }));
      }
    }
    const client = await started(new App({ logger: memoryLogger() }));
    expect((await client.get('/css/a.css')).text).toBe('a{}');
    expect((await client.get('/img/a.svg')).text).toBe('<svg/>');
  });
});
