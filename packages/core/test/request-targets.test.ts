// Issue 22 item 3: request targets. Absolute-form routes like origin-form (RFC 9112 §3.2.2) and
// percent-encodings compare in normalized form (RFC 3986 §6.2.2), over raw sockets.
import * as v from 'valibot';
import { afterEach, describe, expect, it } from 'vitest';
import {
  BaseApp,
  Created,
  Endpoint,
  JSONResponse,
  Location,
  Resource,
  Struct,
  defineMiddleware,
  serve,
  type RunningServer,
} from '../src/index';
import { memoryLogger, rawExchange } from './fixtures';

const Pong = Struct('Pong', { pong: v.boolean() });
const Item = Struct('Item', { id: v.string() });
const ItemPath = Struct('ItemPath', { item_id: v.string() });

class Ping extends Endpoint('/ping') {
  get = this.operation({ returns: Pong }, () => ({ pong: true }));
}
class Items extends Resource('/items') {
  readOne = this.operation({ path: ItemPath, returns: Item }, ({ path }) => ({ id: path.item_id }));
  create = this.operation(
    { returns: Created.of(Item) },
    () =>
      new Created({
        json: { id: 'n1' },
        location: Location.fromOperation(Items, 'readOne', { path: { item_id: 'n1' } }),
      }),
  );
}
class Admin extends Endpoint('/admin') {
  get = this.operation({ returns: Pong }, () => ({ pong: true }));
}

class App extends BaseApp {
  protected override async wire(): Promise<void> {
    // A path-based guard: it must see the same path the router matches, whatever the spelling.
    this.includeMiddleware(
      defineMiddleware({
        interceptMethods: ['GET'],
        intercept: (request) =>
          request.path === '/admin'
            ? new JSONResponse({ json: { denied: true }, statusCode: 403 })
            : undefined,
      }),
    );
    this.includeEndpoint(new Ping());
    this.includeResource(new Items());
    this.includeEndpoint(new Admin());
  }
}

const servers: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
async function listening(env: Record<string, string> = {}): Promise<RunningServer> {
  const running = await serve(new App({ logger: memoryLogger(), env }), {
    port: 0,
    signals: false,
    quiet: true,
  });
  servers.push(running);
  return running;
}

/** One request on a fresh socket; the answer split into status line, lower-cased headers and body. */
async function send(
  port: number,
  head: string,
): Promise<{ status: string; headers: Record<string, string>; body: string }> {
  const { text } = await rawExchange(port, head, /\r\n\r\n[\s\S]*\}$|\r\n\r\n$/);
  const end = text.indexOf('\r\n\r\n');
  const [status, ...lines] = text.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  // rawExchange reads latin1; bodies are UTF-8.
  return { status: status!, headers, body: Buffer.from(text.slice(end + 4), 'latin1').toString('utf8') };
}

describe('absolute-form targets', () => {
  it('route like origin-form: exact, templated, with a query, upper-case scheme, https', async () => {
    const { port } = await listening();
    for (const target of [
      'http://localhost/ping',
      'HTTP://LOCALHOST:80/ping',
      'https://api.example/ping?x=1',
      `http://127.0.0.1:${port}/ping`,
    ]) {
      const res = await send(port, `GET ${target} HTTP/1.1\r\nhost: localhost\r\n\r\n`);
      expect(res.status, target).toBe('HTTP/1.1 200 OK');
      expect(res.body, target).toBe('{"pong":true}');
    }
    const item = await send(port, 'GET http://localhost/items/a%20b HTTP/1.1\r\nhost: localhost\r\n\r\n');
    expect(item.status).toBe('HTTP/1.1 200 OK');
    expect(item.body).toBe('{"id":"a b"}');
    // An authority without a path is "/": here the ordinary 404.
    const root = await send(port, 'GET http://localhost HTTP/1.1\r\nhost: localhost\r\n\r\n');
    expect(root.status).toBe('HTTP/1.1 404 Not Found');
    expect(root.body).toBe('{"type":"not-found","title":"Not found","status":404}');
  });

  it('never builds Location from the target authority: relative by default, the Host under APP_TRUST_FORWARDED', async () => {
    const plain = await listening();
    const res = await send(
      plain.port,
      'POST http://evil.example/items HTTP/1.1\r\nhost: good.example\r\ncontent-length: 0\r\n\r\n',
    );
    expect(res.status).toBe('HTTP/1.1 201 Created');
    expect(res.headers.location).toBe('/items/n1');
    const forwarded = await listening({ APP_TRUST_FORWARDED: '1' });
    const res2 = await send(
      forwarded.port,
      'POST http://evil.example/items HTTP/1.1\r\nhost: good.example\r\ncontent-length: 0\r\n\r\n',
    );
    expect(res2.status).toBe('HTTP/1.1 201 Created');
    expect(res2.headers.location).toBe('http://good.example/items/n1');
  });

  it('refuses userinfo or an empty host with 400 and closes the connection', async () => {
    const { port } = await listening();
    for (const target of ['http://user:pw@localhost/ping', 'http:///ping']) {
      const { text, ended } = await rawExchange(
        port,
        `GET ${target} HTTP/1.1\r\nhost: localhost\r\n\r\n`,
        /(?!)/, // read until the server closes
      );
      expect(ended, target).toBe(true);
      expect(text, target).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
      expect(text.toLowerCase(), target).toContain('\r\nconnection: close\r\n');
      expect(text, target).toContain(
        '"detail":"The request target is not a valid absolute URI (userinfo or an empty host)"',
      );
    }
  });
});

describe('percent-encoded paths', () => {
  it('an encoded unreserved character equals the plain one', async () => {
    const { port } = await listening();
    for (const path of ['/pin%67', '/%70ing', '/%70%69%6E%67', '/%70%69%6e%67']) {
      const res = await send(port, `GET ${path} HTTP/1.1\r\nhost: x\r\n\r\n`);
      expect(res.status, path).toBe('HTTP/1.1 200 OK');
      expect(res.body, path).toBe('{"pong":true}');
    }
  });

  it('binds slot values the same whatever the case of their hex digits; %2F stays data', async () => {
    const { port } = await listening();
    for (const [path, id] of [
      ['/items/caf%c3%a9', 'café'],
      ['/items/caf%C3%A9', 'café'],
      ['/%69tems/%7e%41', '~A'],
      ['/items/a%2fb', 'a/b'],
      ['/items/a%2Fb', 'a/b'],
    ] as const) {
      const res = await send(port, `GET ${path} HTTP/1.1\r\nhost: x\r\n\r\n`);
      expect(res.status, path).toBe('HTTP/1.1 200 OK');
      expect(JSON.parse(res.body), path).toEqual({ id });
    }
    // An encoded "/" never splits a segment: /items/a%2Fb/c has two segments after /items.
    const deeper = await send(port, 'GET /items/a%2Fb/c HTTP/1.1\r\nhost: x\r\n\r\n');
    expect(deeper.status).toBe('HTTP/1.1 404 Not Found');
    // A "%" that starts no valid triplet stays as sent: the slot cannot be decoded → bare 404.
    const broken = await send(port, 'GET /items/%zz HTTP/1.1\r\nhost: x\r\n\r\n');
    expect(broken.status).toBe('HTTP/1.1 404 Not Found');
  });

  it('hooks see the normalized path: an intercept guarding /admin also guards /%61dmin', async () => {
    const { port } = await listening();
    for (const target of ['/admin', '/%61dmin', '/%61%64%6D%69%6E', 'http://x/%61dmin']) {
      const res = await send(port, `GET ${target} HTTP/1.1\r\nhost: x\r\n\r\n`);
      expect(res.status, target).toMatch(/^HTTP\/1\.1 403 /);
      expect(res.body, target).toBe('{"denied":true}');
    }
  });
});
