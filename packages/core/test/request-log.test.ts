// The request log (`requestLog: true`) and request ids: one line per finished request with the
// bytes that went on the wire, one per closed upgraded connection with its close code; the
// caller's `x-request-id` echoed only when well-formed; nothing at all when neither is asked for.
import { connect, type Socket } from 'node:net';
import * as v from 'valibot';
import { afterEach, describe, expect, it } from 'vitest';
import {
  BaseApp,
  Endpoint,
  Struct,
  WiringError,
  serve,
  type LogFields,
  type RunningServer,
} from '../src/index';
import { expectWiringError } from './expect-wiring-error';
import { defineExtension } from '../src/extension';
import { clientFactory, rawExchange } from './fixtures';

interface Line {
  readonly message: string;
  readonly fields: LogFields | undefined;
}

function recorder(): {
  lines: Line[];
  logger: { info: (m: string, f?: LogFields) => void; warn(): void; error(): void };
} {
  const lines: Line[] = [];
  return {
    lines,
    logger: { info: (message, fields) => void lines.push({ message, fields }), warn() {}, error() {} },
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/; // version 4 layout

let release: (() => void) | undefined;
class Items extends Endpoint('/items/{item_id}') {
  get = this.operation(
    { path: Struct('ItemPath', { item_id: v.string() }), returns: Struct('Item', { id: v.string() }) },
    ({ path }) => ({ id: path.item_id }),
  );
}
class WhoAmI extends Endpoint('/whoami') {
  get = this.operation(
    { requestId: true, returns: Struct('Who', { requestId: v.string() }) },
    ({ requestId }) => ({
      requestId,
    }),
  );
}
class Hang extends Endpoint('/hang') {
  get = this.operation({ returns: v.string() }, async () => {
    await new Promise<void>((resolve) => (release = resolve));
    return 'late';
  });
}

/** Upgrade routes written against the extension point: one reports a close code, one does not. */
const sockets = defineExtension({
  name: 'raw-sockets',
  setup(wiring) {
    for (const [path, code] of [
      ['/socket', 4001],
      ['/silent', undefined],
    ] as const) {
      wiring.addUpgradeRoute({
        path,
        owner: 'RawSocket',
        handle(ex) {
          // The route's header block (its tail, and the request id) goes on the 101 it writes.
          const block = ex.routeHeaders(101);
          const { socket, end } = ex.takeOver();
          let head = 'HTTP/1.1 101 Switching Protocols\r\nupgrade: raw\r\nconnection: Upgrade\r\n';
          for (let i = 0; i < block.length; i += 2) head += `${block[i]}: ${block[i + 1]}\r\n`;
          socket.write(`${head}\r\n`);
          socket.once('data', () => {
            socket.end('bye\n');
            if (code !== undefined) socket.once('close', () => end({ code }));
          });
        },
      });
    }
  },
});

class App extends BaseApp {
  protected override async wire(): Promise<void> {
    this.include(sockets);
    this.includeEndpoint(new Items());
    this.includeEndpoint(new Hang());
  }
}
class WithIds extends BaseApp {
  protected override async wire(): Promise<void> {
    this.includeEndpoint(new Items());
    this.includeEndpoint(new WhoAmI());
  }
}

const client = clientFactory();
const servers: RunningServer[] = [];
afterEach(async () => {
  release?.();
  release = undefined;
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function served(app: BaseApp): Promise<RunningServer> {
  const server = await serve(app, { port: 0, signals: false, quiet: true });
  servers.push(server);
  return server;
}

async function lineWhere(lines: Line[], pick: (line: Line) => boolean): Promise<Line> {
  for (let i = 0; i < 200; i++) {
    const hit = lines.find(pick);
    if (hit !== undefined) return hit;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`no such line in ${JSON.stringify(lines)}`);
}

describe('the request log', () => {
  it('writes one line per finished request; bytes are what went on the wire', async () => {
    const { lines, logger } = recorder();
    const { port } = await served(new App({ logger, requestLog: true }));
    const { text } = await rawExchange(
      port,
      'GET /items/42 HTTP/1.1\r\nHost: x\r\nx-request-id: abc-1\r\nConnection: close\r\n\r\n',
      /\{"id":"42"\}$/,
    );
    expect(text).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(text).toContain('\r\nx-request-id: abc-1\r\n');
    const line = await lineWhere(lines, (l) => l.message === 'request finished');
    expect(line.fields).toEqual({
      method: 'GET',
      route: '/items/{item_id}',
      path: '/items/42',
      status: 200,
      durationMs: expect.any(Number),
      bytes: Buffer.byteLength(text, 'latin1'),
      requestId: 'abc-1',
    });
    expect(lines).toHaveLength(1);
  });

  it('logs unrouted answers without a route, 405 with the path’s route', async () => {
    const { lines, logger } = recorder();
    const c = client(new App({ logger, requestLog: true }));
    const missing = await c.get('/nowhere');
    expect(missing.status).toBe(404);
    const id = missing.headers.get('x-request-id');
    expect(id).toMatch(UUID);
    expect((await lineWhere(lines, (l) => l.fields?.path === '/nowhere')).fields).toEqual({
      method: 'GET',
      path: '/nowhere',
      status: 404,
      durationMs: expect.any(Number),
      bytes: expect.any(Number),
      requestId: id,
    });
    expect((await c.delete('/items/1')).status).toBe(405);
    expect((await lineWhere(lines, (l) => l.fields?.method === 'DELETE')).fields).toMatchObject({
      route: '/items/{item_id}',
      status: 405,
    });
  });

  it('logs a request whose client went away before the answer: status 0, aborted', async () => {
    const { lines, logger } = recorder();
    const { port } = await served(new App({ logger, requestLog: true }));
    const socket = connect(port, '127.0.0.1');
    socket.write('GET /hang HTTP/1.1\r\nHost: x\r\nx-request-id: gone-1\r\n\r\n');
    for (let i = 0; i < 200 && release === undefined; i++) await new Promise((r) => setTimeout(r, 5));
    expect(release).toBeDefined();
    socket.destroy();
    expect((await lineWhere(lines, (l) => l.fields?.path === '/hang')).fields).toMatchObject({
      route: '/hang',
      status: 0,
      requestId: 'gone-1',
      aborted: true,
    });
  });

  it('logs an upgraded connection once, when it closes: lifetime and the close code its route reported', async () => {
    const { lines, logger } = recorder();
    const { port } = await served(new App({ logger, requestLog: true }));
    for (const [path, code] of [
      ['/socket', 4001],
      ['/silent', undefined],
    ] as const) {
      const socket: Socket = connect(port, '127.0.0.1');
      socket.write(
        `GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: raw\r\nx-request-id: up-1\r\n\r\n`,
      );
      let received = '';
      await new Promise<void>((resolve) =>
        socket.on('data', (chunk: Buffer) => {
          received += chunk.toString('latin1');
          if (received.endsWith('\r\n\r\n')) resolve();
        }),
      );
      expect(received).toContain('\r\nx-request-id: up-1\r\n');
      await new Promise((resolve) => setTimeout(resolve, 100));
      socket.write('done');
      await new Promise<void>((resolve) => socket.on('end', resolve));
      socket.end();
      const line = await lineWhere(lines, (l) => l.fields?.path === path);
      expect(line).toEqual({
        message: 'connection closed',
        fields: {
          method: 'GET',
          route: path,
          path,
          status: 101,
          durationMs: expect.any(Number),
          requestId: 'up-1',
          ...(code === undefined ? {} : { closeCode: code }),
        },
      });
      // The lifetime spans the 100 ms the client waited (asserted with 2x margin).
      expect(line.fields!.durationMs).toBeGreaterThanOrEqual(50);
    }
    // One line per connection: nothing at the takeover itself.
    expect(lines.map((l) => l.message)).toEqual(['connection closed', 'connection closed']);
  });
});

describe('request ids', () => {
  it('the caller’s well-formed id is echoed and bound; a bad one is replaced, never echoed', async () => {
    const c = client(new WithIds({ logger: recorder().logger }));
    const good = await c.get('/whoami', { headers: { 'x-request-id': 'Root=1-67891233:abc/DEF_0.9~@+' } });
    expect(good.headers.get('x-request-id')).toBe('Root=1-67891233:abc/DEF_0.9~@+');
    expect(good.json()).toEqual({ requestId: 'Root=1-67891233:abc/DEF_0.9~@+' });
    const longest = 'a'.repeat(128);
    expect(
      (await c.get('/whoami', { headers: { 'x-request-id': longest } })).headers.get('x-request-id'),
    ).toBe(longest);
    for (const bad of ['a'.repeat(129), 'two words', 'a,b', '<script>', '"quoted"', 'semi;colon']) {
      const res = await c.get('/whoami', { headers: { 'x-request-id': bad } });
      const id = res.headers.get('x-request-id');
      expect(id).toMatch(UUID);
      expect(res.json()).toEqual({ requestId: id });
    }
  });

  it('control characters, and an id sent twice, are replaced or refused, never echoed (raw socket)', async () => {
    const { port } = await served(new WithIds({ logger: recorder().logger }));
    const exchange = async (headers: string): Promise<string> =>
      (
        await rawExchange(
          port,
          `GET /whoami HTTP/1.1\r\nHost: x\r\n${headers}Connection: close\r\n\r\n`,
          /\}$/,
        )
      ).text;
    // A tab is legal inside a header value: the app sees the id and replaces it.
    for (const headers of ['x-request-id: abc\tdef\r\n', 'x-request-id: a\r\nx-request-id: b\r\n']) {
      const text = await exchange(headers);
      const echoed = /\r\nx-request-id: ([^\r]*)\r\n/.exec(text)?.[1];
      expect(echoed).toMatch(UUID);
      expect(text.endsWith(`{"requestId":"${echoed}"}`)).toBe(true);
    }
    // Other control characters never reach the app: node's parser refuses the request (400).
    for (const control of ['\x01', '\x7f']) {
      const text = await exchange(`x-request-id: abc${control}def\r\n`);
      expect(text).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
      expect(text).not.toContain('x-request-id');
      expect(text).not.toContain('abc');
    }
  });

  it('a route binding requestId turns ids on for every response (404 included), without log lines', async () => {
    const { lines, logger } = recorder();
    const c = client(new WithIds({ logger }));
    expect(
      (await c.get('/items/1', { headers: { 'x-request-id': 'i-1' } })).headers.get('x-request-id'),
    ).toBe('i-1');
    expect((await c.get('/nowhere')).headers.get('x-request-id')).toMatch(UUID);
    expect(lines).toEqual([]);
  });

  it('fresh ids are UUID-shaped and never repeat', async () => {
    const c = client(new App({ requestLog: true, logger: recorder().logger }));
    const ids = new Set<string>();
    for (let i = 0; i < 300; i++) {
      const id = (await c.get('/nowhere')).headers.get('x-request-id')!;
      expect(id).toMatch(UUID);
      ids.add(id);
    }
    expect(ids.size).toBe(300);
  });

  it('are off without the request log and without a requestId source: nothing echoed', async () => {
    const c = client(new App({ logger: recorder().logger }));
    const res = await c.get('/items/1', { headers: { 'x-request-id': 'i-1' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBeUndefined();
    expect((await c.get('/nowhere')).headers.get('x-request-id')).toBeUndefined();
  });

  it('requestId is declared with true (WiringError otherwise)', async () => {
    class Bad extends Endpoint('/bad') {
      get = this.operation({ requestId: false as unknown as true, returns: v.string() }, () => 'x');
    }
    class BadApp extends BaseApp {
      protected override async wire(): Promise<void> {
        this.includeEndpoint(new Bad());
      }
    }
    const error: unknown = await new BadApp({ logger: recorder().logger }).start().catch((e: unknown) => e);
    expect(expectWiringError(error, 'API_WIRING_INVALID_ARGUMENT', 'Bad.get').message).toBe(
      'Bad.get: the requestId source is declared with true, got a boolean. Fix: requestId: true, or leave it out.',
    );
  });
});
