import { expect } from 'vitest';
import { buffer } from 'node:stream/consumers';
import * as v from 'valibot';
import { BaseApp, Endpoint, NoContent, SetCookie, Struct, WiringError } from '@api/core';
import { defineExtension, type Exchange } from '@api/core/extension';

/** What `run` throws, asserted to be a `WiringError` (a test fails if it throws nothing else). */
export function thrownWiringError(run: () => unknown): WiringError {
  let error: unknown;
  try {
    run();
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(WiringError);
  return error as WiringError;
}

/** A logger that records instead of printing. */
export function quietLogger(): {
  lines: string[];
  info(m: string): void;
  warn(m: string): void;
  error(m: string): void;
} {
  const lines: string[] = [];
  return { lines, info: (m) => lines.push(m), warn: (m) => lines.push(m), error: (m) => lines.push(m) };
}

const Health = Struct('Health', { status: v.string() });
class HealthEndpoint extends Endpoint('/healthz') {
  get = this.operation({ returns: Health }, () => ({ status: 'ok' }));
}
class Login extends Endpoint('/login') {
  post = this.operation(
    { json: Struct('LoginIn', { name: v.string() }), returns: NoContent.of() },
    ({ json }) => new NoContent({ cookies: [new SetCookie('session_id', json.name)] }),
  );
}

/** What the raw streaming route observed about its response. */
export interface StreamObservation {
  started: number;
  closed: number;
  finished: number;
  closedBeforeFinish: number;
  whenClosed: Promise<void>;
}

function observation(): StreamObservation {
  const o = { started: 0, closed: 0, finished: 0, closedBeforeFinish: 0 } as StreamObservation;
  o.whenClosed = new Promise<void>(() => undefined);
  return o;
}

/** The echo body: what the server received. */
export interface Echo {
  method: string;
  url: string;
  rawHeaders: [string, string][];
  body: string;
}

function pairs(raw: readonly string[]): [string, string][] {
  const out: [string, string][] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) out.push([raw[i]!, raw[i + 1]!]);
  return out;
}

async function echo(ex: Exchange): Promise<void> {
  const body = await buffer(ex.req);
  const payload: Echo = {
    method: ex.method,
    url: ex.req.url ?? '',
    rawHeaders: pairs(ex.req.rawHeaders),
    body: body.toString('latin1'),
  };
  ex.send(200, ['content-type', 'application/json'], JSON.stringify(payload));
}

/** The app the package's own tests drive. */
export class TestApp extends BaseApp {
  readonly stream = observation();
  wires = 0;
  closes = 0;

  protected override async wire(): Promise<void> {
    this.wires += 1;
    this.enter({ close: () => void (this.closes += 1) });
    this.includeEndpoint(new HealthEndpoint());
    this.includeEndpoint(new Login());
    const stream = this.stream;
    this.include(
      defineExtension({
        name: 'raw',
        setup: (w) => {
          for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'])
            w.addRoute({ method, path: '/echo', owner: 'raw', operation: `echo${method}`, handle: echo });
          // POST /set-cookies with a JSON list of Set-Cookie lines: answers 204 carrying them.
          w.addRoute({
            method: 'POST',
            path: '/set-cookies',
            owner: 'raw',
            operation: 'setCookies',
            handle: async (ex) => {
              const lines = JSON.parse((await buffer(ex.req)).toString('utf8')) as string[];
              ex.send(
                204,
                lines.flatMap((line) => ['set-cookie', line]),
              );
            },
          });
          w.addRoute({
            method: 'GET',
            path: '/repeats',
            owner: 'raw',
            operation: 'repeats',
            handle: (ex) => {
              ex.send(
                200,
                [
                  'X-Raw',
                  'r1',
                  'x-raw',
                  'r2',
                  'set-cookie',
                  'a=1; Path=/',
                  'set-cookie',
                  'b=2; Expires=Wed, 21 Oct 2065 07:28:00 GMT',
                  'content-type',
                  'text/plain',
                ],
                'hello',
              );
            },
          });
          // An endless NDJSON stream: one line every 10 ms until the client goes away.
          w.addRoute({
            method: 'GET',
            path: '/stream',
            owner: 'raw',
            operation: 'stream',
            handle: (ex) => {
              stream.started += 1;
              let resolveClosed!: () => void;
              stream.whenClosed = new Promise<void>((resolve) => (resolveClosed = resolve));
              if (!ex.sendHead(200, ['content-type', 'application/x-ndjson', 'set-cookie', 'streamed=yes']))
                return;
              let n = 0;
              ex.res.write(`{"n":${n}}\n`);
              const timer = setInterval(() => {
                n += 1;
                ex.res.write(`{"n":${n}}\n`);
              }, 10);
              ex.res.on('finish', () => (stream.finished += 1));
              ex.res.on('close', () => {
                clearInterval(timer);
                stream.closed += 1;
                if (!ex.res.writableFinished) stream.closedBeforeFinish += 1;
                resolveClosed();
              });
            },
          });
          w.addRoute({
            method: 'GET',
            path: '/sse',
            owner: 'raw',
            operation: 'sse',
            handle: (ex) => {
              if (!ex.sendHead(200, ['content-type', 'text/event-stream'])) return;
              // Written in awkward pieces so the decoder has to join them.
              const pieces = [
                ': ping\n\n',
                'event: tick\nid: 1\ndata: {"n"',
                ':1}\n\n',
                'data: line one\r\ndata: line two\r\n\r\n',
                'retry: 500\ndata: "quoted"\n\n',
                'data: 7\n\n',
              ];
              let i = 0;
              const next = (): void => {
                if (i === pieces.length) {
                  ex.res.end();
                  return;
                }
                ex.res.write(pieces[i++]!);
                setTimeout(next, 2);
              };
              next();
            },
          });
        },
      }),
    );
  }
}

/** An app whose wiring fails. */
export class BrokenApp extends BaseApp {
  protected override async wire(): Promise<void> {
    throw new WiringError('BrokenApp.wire: deliberately broken. Fix: none, it is a test.');
  }
}
