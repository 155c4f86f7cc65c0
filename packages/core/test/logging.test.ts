// Structured logs: a pino logger passed as it is gets `(obj, msg)` calls with the error under `err`
// and the request's fields beside it; a plain logger gets `(message, error, fields)`; the default
// console logger writes one readable line per message.
import { Writable } from 'node:stream';
import { pino } from 'pino';
import * as v from 'valibot';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BaseApp, Endpoint, Struct, serve, type LogFields } from '../src/index';
import { defineExtension } from '../src/extension';
import { clientFactory } from './fixtures';

/** A real pino instance writing JSON lines to an in-memory stream. */
function pinoToMemory(): { lines: Record<string, unknown>[]; logger: ReturnType<typeof pino> } {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString('utf8').split('\n'))
        if (line !== '') lines.push(JSON.parse(line) as Record<string, unknown>);
      callback();
    },
  });
  return { lines, logger: pino({ base: null, timestamp: false }, stream) };
}

let thrown: Error | undefined;
class Boom extends Endpoint('/boom/{item_id}') {
  get = this.operation({ path: Struct('BoomPath', { item_id: v.string() }), returns: v.string() }, () => {
    thrown = new Error('the store is gone');
    throw thrown;
  });
}
class Odd extends Endpoint('/odd') {
  get = this.operation({ returns: v.string() }, () => {
    // eslint-disable-next-line @typescript-eslint/only-throw-error -- a thrown non-Error is logged too
    throw 'not an error';
  });
}
const announce = defineExtension({
  name: 'announce',
  setup(wiring) {
    wiring.onWired(() => wiring.log.info('wired', { routes: 2 }));
  },
});
class App extends BaseApp {
  protected override async wire(): Promise<void> {
    this.include(announce);
    this.includeEndpoint(new Boom());
    this.includeEndpoint(new Odd());
  }
}

const client = clientFactory();
afterEach(() => {
  thrown = undefined;
  vi.restoreAllMocks();
});

/** Waits until `lines` has one matching `pick` (log lines land with the response, or just after). */
async function lineWhere<T>(lines: T[], pick: (line: T) => boolean): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const hit = lines.find(pick);
    if (hit !== undefined) return hit;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error('no such log line');
}

describe('a pino logger passed as it is', () => {
  it('a 500 logs one JSON line: err with the handler stack, and the request id the response echoes', async () => {
    const { lines, logger } = pinoToMemory();
    const c = client(new App({ logger, requestLog: true }));
    const res = await c.get('/boom/7');
    expect(res.status).toBe(500);
    const id = res.headers.get('x-request-id');
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    await lineWhere(lines, (l) => l.msg === 'request finished');
    const errors = lines.filter((l) => l.level === 50);
    expect(errors).toEqual([
      {
        level: 50,
        method: 'GET',
        path: '/boom/7',
        route: '/boom/{item_id}',
        requestId: id,
        err: { type: 'Error', message: 'the store is gone', stack: thrown!.stack },
        msg: 'GET /boom/7 failed with an uncaught exception',
      },
    ]);
    expect((errors[0]!.err as { stack: string }).stack).toContain('logging.test.ts');
  });

  it('a thrown non-Error is structured too; extension lines are JSON with their fields', async () => {
    const { lines, logger } = pinoToMemory();
    const c = client(new App({ logger }));
    expect((await c.get('/odd')).status).toBe(500);
    const line = await lineWhere(lines, (l) => l.level === 50);
    expect(line).toEqual({
      level: 50,
      method: 'GET',
      path: '/odd',
      route: '/odd',
      err: { type: 'string', message: 'not an error', stack: '' }, // pino's serializer: no stack
      msg: 'GET /odd failed with an uncaught exception',
    });
    // Request ids are off (no request log, no `requestId` source): none is logged or echoed.
    expect(lines).toContainEqual({ level: 30, routes: 2, msg: 'wired' });
  });
});

describe('a plain logger', () => {
  it('gets (message, error, fields): the error itself, the request fields beside it', async () => {
    const calls: [string, unknown, LogFields | undefined][] = [];
    const logger = {
      info: () => undefined,
      warn: () => undefined,
      error: (message: string, error?: unknown, fields?: LogFields) =>
        void calls.push([message, error, fields]),
    };
    const c = client(new App({ logger }));
    const res = await c.get('/boom/x', { headers: { 'x-request-id': 'ignored-when-off' } });
    expect(res.status).toBe(500);
    expect(res.headers.get('x-request-id')).toBeUndefined();
    await lineWhere(calls, () => true);
    expect(calls).toEqual([
      [
        'GET /boom/x failed with an uncaught exception',
        thrown,
        { method: 'GET', path: '/boom/x', route: '/boom/{item_id}' },
      ],
    ]);
  });
});

describe('the default console logger', () => {
  it('writes one readable line per message: the message, then key=value fields, then the stack', async () => {
    const errors: unknown[][] = [];
    const infos: unknown[][] = [];
    vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void errors.push(args));
    vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void infos.push(args));
    const c = client(new App({ requestLog: true }));
    const res = await c.get('/boom/a%20b', { headers: { 'x-request-id': 'req-42' } });
    expect(res.status).toBe(500);
    await lineWhere(infos, (args) => String(args[0]).startsWith('request finished'));
    expect(errors).toEqual([
      [
        'GET /boom/a%20b failed with an uncaught exception method=GET path=/boom/a%20b route=/boom/{item_id} requestId=req-42',
        thrown,
      ],
    ]);
    expect(infos[0]).toEqual(['wired routes=2']);
    expect(String(infos[1]![0])).toMatch(
      /^request finished method=GET route=\/boom\/\{item_id\} path=\/boom\/a%20b status=500 durationMs=[\d.]+ bytes=\d+ requestId=req-42$/,
    );
  });
});

describe('serve()', () => {
  it('writes its lines through the app logger (pino JSON lines, not bare console text)', async () => {
    const { lines, logger } = pinoToMemory();
    const server = await serve(new App({ logger }), { port: 0, signals: false });
    await server.close();
    expect(lines.map((l) => l.msg)).toEqual([
      'wired',
      `App listening on ${server.url}`,
      'App shutting down: no new connections, finishing in-flight requests',
      'App stopped',
    ]);
  });
});
