// Issue 22 items 2 and 5: response-header hooks fail closed (never a 2xx without the headers the
// app asked for; an error answer keeps its status), and every status line has its own reason.
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import {
  AuthenticationRequiredError,
  Endpoint,
  JSONResponse,
  NotFoundError,
  Struct,
  defineMiddleware,
} from '../src/index';
import { defineExtension, defineResponseKind, mountOption, type MountOptionValue } from '../src/extension';
import { exchangeRaw, listen, parseResponses, raw, values, type Wire } from './output-fixtures';

const Item = Struct('Item', { name: v.string() });
class Items extends Endpoint('/items') {
  get = this.operation({ returns: Item }, () => ({ name: 'a' }));
}
class Missing extends Endpoint('/missing-item') {
  get = this.operation({ returns: Item }, (): { name: string } => {
    throw new NotFoundError();
  });
}

const throwing = defineMiddleware({
  responseHeaders: () => {
    throw new Error('hook bug');
  },
});
const tenant = defineMiddleware({
  headers: Struct('TenantHeaders', { x_tenant: v.string() }),
  responseHeaders: (request) => ({ 'x-tenant-echo': request.headers.x_tenant }),
});

class Chunks {}
const ChunksKind = defineResponseKind<Chunks>({
  kind: 'chunks',
  cls: Chunks,
  schema: undefined,
  headers: undefined,
  status: undefined,
  contentType: 'text/plain',
  compile: (ctx) => (_value, sink) => {
    if (!sink.start(ctx.defaultStatus, sink.head(ctx.defaultStatus, 'text/plain', {}))) return;
    sink.write('one\n');
    sink.end('two\n');
  },
});
class Stream extends Endpoint('/stream') {
  get = this.operation({ returns: ChunksKind }, () => new Chunks());
}

/** A custom route with a contribution computing a header, like an assets file under a plugin. */
function customRouteWith(failing: boolean): (w: Wire) => void {
  return (w) =>
    w.include(
      defineExtension({
        name: 'files',
        setup: (wiring) => {
          wiring.addRoute({
            method: 'GET',
            path: '/file.txt',
            owner: 'files',
            operation: 'file',
            handle: (ex) => ex.send(200, ['content-type', 'text/plain'], 'file body'),
          });
          wiring.addContributor((route) =>
            route.path === '/file.txt'
              ? {
                  dynamicHeaders: () => {
                    if (failing) throw new Error('contribution bug');
                    return [['x-signed', 'yes']];
                  },
                }
              : undefined,
          );
        },
      }),
    );
}

describe('a response-header hook failing on a success answer', () => {
  it('turns an operation’s 200 into a logged 500 (was 200 without the headers)', async () => {
    const { port, log } = await listen((w) => {
      w.middleware(throwing);
      w.endpoint(new Items());
    });
    const [res] = parseResponses(await exchangeRaw(port, raw('GET', '/items', {}, true)));
    expect(res!.statusLine).toBe('HTTP/1.1 500 Internal Server Error');
    expect(res!.body.toString()).toBe(
      '{"type":"internal-server-error","title":"Internal server error","status":500}',
    );
    expect(log.lines).toContain('error GET /items failed with an uncaught exception');
    expect(String((log.errors[0] as Error).message)).toBe('a response-header hook failed: hook bug');
  });

  it('turns a custom route’s answer into a 500 when a contribution’s computed header throws', async () => {
    const ok = await listen(customRouteWith(false));
    const [good] = parseResponses(await exchangeRaw(ok.port, raw('GET', '/file.txt', {}, true)));
    expect(good!.status).toBe(200);
    expect(values(good!, 'x-signed')).toEqual(['yes']);
    const { port } = await listen(customRouteWith(true));
    const [res] = parseResponses(await exchangeRaw(port, raw('GET', '/file.txt', {}, true)));
    expect(res!.statusLine).toBe('HTTP/1.1 500 Internal Server Error');
    expect(res!.body.toString()).not.toContain('file body');
  });

  it('turns a stream into a 500 before its head: no body byte leaves', async () => {
    const { port } = await listen((w) => w.endpoint(new Stream(), { middleware: [throwing] }));
    const data = await exchangeRaw(port, raw('GET', '/stream', {}, true));
    const [res] = parseResponses(data);
    expect(res!.statusLine).toBe('HTTP/1.1 500 Internal Server Error');
    expect(data.toString()).not.toContain('one');
  });

  it('answers the 400 Problem when the hook’s own headers fail to bind', async () => {
    const { port } = await listen((w) => w.endpoint(new Items(), { middleware: [tenant] }));
    const [bad, good] = parseResponses(
      await exchangeRaw(port, raw('GET', '/items') + raw('GET', '/items', { 'x-tenant': 'acme' }, true)),
    );
    expect(bad!.statusLine).toBe('HTTP/1.1 400 Bad Request');
    expect(JSON.parse(bad!.body.toString())).toMatchObject({
      type: 'malformed-request',
      detail: 'Missing required field at `header x-tenant`',
    });
    expect(good!.status).toBe(200);
    expect(values(good!, 'x-tenant-echo')).toEqual(['acme']);
  });
});

describe('a response-header hook failing on an error answer', () => {
  it('is logged and skipped: a route raising 404 answers 404 (was 400)', async () => {
    const { port, log } = await listen((w) => w.endpoint(new Missing(), { middleware: [tenant] }));
    const [res] = parseResponses(await exchangeRaw(port, raw('GET', '/missing-item', {}, true)));
    expect(res!.statusLine).toBe('HTTP/1.1 404 Not Found');
    expect(JSON.parse(res!.body.toString())).toMatchObject({ type: 'not-found', status: 404 });
    expect(values(res!, 'x-tenant-echo')).toEqual([]);
    expect(log.lines).toContain(
      'error GET /missing-item: a response-header hook failed while the 404 error answer was assembled (its headers are left out)',
    );
  });

  it('keeps an unrouted 404 (and a 405) under a throwing app-wide hook', async () => {
    const { port, log } = await listen((w) => {
      w.middleware(throwing);
      w.endpoint(new Items());
    });
    const [notFound, notAllowed] = parseResponses(
      await exchangeRaw(port, raw('GET', '/nowhere') + raw('DELETE', '/items', {}, true)),
    );
    expect(notFound!.statusLine).toBe('HTTP/1.1 404 Not Found');
    expect(notAllowed!.statusLine).toBe('HTTP/1.1 405 Method Not Allowed');
    expect(values(notAllowed!, 'allow')).toEqual(['GET, HEAD, OPTIONS']);
    expect(log.lines.filter((l) => l.includes('response-header hook failed'))).toHaveLength(2);
  });

  it('keeps a 401 when an error-header hook throws', async () => {
    const gate: MountOptionValue = {
      [mountOption]: () => ({
        before: () => {
          throw new AuthenticationRequiredError();
        },
        errorHeaders: () => {
          throw new Error('challenge bug');
        },
      }),
    };
    const { port, log } = await listen((w) => w.endpoint(new Items(), { gate } as object));
    const [res] = parseResponses(await exchangeRaw(port, raw('GET', '/items', {}, true)));
    expect(res!.statusLine).toBe('HTTP/1.1 401 Unauthorized');
    expect(log.lines).toContain(
      'error GET /items: an error-header hook failed on the 401 answer (its headers are left out)',
    );
  });
});

describe('status lines', () => {
  it('a header value node refuses (outside Latin-1) is a 500 with its own reason phrase (was "500 OK")', async () => {
    class Euro extends Endpoint('/euro') {
      get = this.operation(
        { returns: JSONResponse.of(Item) },
        () => new JSONResponse({ json: { name: 'a' }, rawHeaders: { 'x-price': '5 €' } }),
      );
      post = this.operation(
        { returns: JSONResponse.of(Item) },
        () => new JSONResponse({ json: { name: 'a' }, statusCode: 201, rawHeaders: { 'x-price': '5 €' } }),
      );
    }
    const { port, log } = await listen((w) => w.endpoint(new Euro()));
    const [get, post] = parseResponses(
      await exchangeRaw(port, raw('GET', '/euro') + raw('POST', '/euro', { 'content-length': '0' }, true)),
    );
    expect(get!.statusLine).toBe('HTTP/1.1 500 Internal Server Error');
    expect(post!.statusLine).toBe('HTTP/1.1 500 Internal Server Error');
    expect(log.lines.filter((l) => l.startsWith('error'))).toHaveLength(2);
  });

  it('a custom route’s and a stream’s refused value get the same', async () => {
    class Odd {}
    const OddKind = defineResponseKind<Odd>({
      kind: 'odd',
      cls: Odd,
      schema: undefined,
      headers: undefined,
      status: undefined,
      contentType: undefined,
      compile: () => (_value, sink) => {
        if (sink.start(202, ['x-odd', '\u2603'])) sink.end('never');
      },
    });
    class OddEndpoint extends Endpoint('/odd') {
      get = this.operation({ returns: OddKind }, () => new Odd());
    }
    const { port } = await listen((w) => {
      w.include(
        defineExtension({
          name: 'snow',
          setup: (wiring) =>
            wiring.addRoute({
              method: 'GET',
              path: '/snow',
              owner: 'snow',
              operation: 'snow',
              handle: (ex) => ex.send(203, ['x-snow', '\u2603'], 'x'),
            }),
        }),
      );
      w.endpoint(new OddEndpoint());
    });
    const answers = parseResponses(
      await exchangeRaw(port, raw('GET', '/snow') + raw('GET', '/odd', {}, true)),
    );
    expect(answers.map((a) => a.statusLine)).toEqual([
      'HTTP/1.1 500 Internal Server Error',
      'HTTP/1.1 500 Internal Server Error',
    ]);
  });
});
