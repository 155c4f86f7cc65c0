// Issue 49: methods are case-sensitive (RFC 9110 §9.1). `allowMethods: ['get']` used to be
// rewritten to GET; now it is a WiringError at startup, as core refuses 'get' for interceptMethods.
// Over a raw socket: what a browser's preflight gets, byte for byte.
import { connect } from 'node:net';
import * as v from 'valibot';
import { afterEach, describe, expect, it } from 'vitest';
import { BaseApp, Endpoint, serve, Struct, WiringError, type RunningServer } from '@api/core';
import { CORS, cors, type CORSOptions } from './index';

const Ok = Struct('Ok', { ok: v.boolean() });
class Widgets extends Endpoint('/widgets') {
  get = this.operation({ returns: Ok }, () => ({ ok: true }));
  put = this.operation({ returns: Ok }, () => ({ ok: true }));
}
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

function appWith(options: CORSOptions): BaseApp {
  class App extends BaseApp {
    protected override async wire(): Promise<void> {
      this.include(cors(options));
      this.includeEndpoint(new Widgets());
    }
  }
  return new App({ logger: quiet });
}

const servers: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function started(options: CORSOptions): Promise<RunningServer> {
  const server = await serve(appWith(options), { port: 0, signals: false, quiet: true });
  servers.push(server);
  return server;
}

/** A preflight on a raw socket; the status line and header lines, minus date and connection. */
function preflight(port: number, method: string): Promise<string[]> {
  const head = [
    'OPTIONS /widgets HTTP/1.1',
    'Host: test',
    'Origin: https://app.example',
    `Access-Control-Request-Method: ${method}`,
    'Connection: close',
    '',
    '',
  ].join('\r\n');
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(head));
    const chunks: Buffer[] = [];
    socket.on('data', (d: Buffer) => chunks.push(d));
    socket.on('error', reject);
    socket.on('close', () => {
      const raw = Buffer.concat(chunks).toString('latin1');
      resolve(
        raw
          .slice(0, raw.indexOf('\r\n\r\n'))
          .split('\r\n')
          .filter((line) => !/^(date|connection|keep-alive):/i.test(line)),
      );
    });
  });
}

describe('CORS allowMethods on the wire', () => {
  it("refuses allowMethods: ['get'] at startup with the coded error suggesting 'GET'", async () => {
    const error: unknown = await started({
      allowOrigins: ['https://app.example'],
      allowMethods: ['get'],
    }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(WiringError);
    expect(error).toMatchObject({
      code: 'API_WIRING_HTTP_METHOD',
      where: 'App.include(cors())',
      fix: "write 'GET'",
    });
    expect(() => new CORS({ allowMethods: ['put'] })).toThrow(
      /allowMethods names "put"; methods are case-sensitive/,
    );
  });

  it('answers a preflight for a configured method with exactly the CORS block', async () => {
    const { port } = await started({ allowOrigins: ['https://app.example'], allowMethods: ['GET', 'PUT'] });
    expect(await preflight(port, 'PUT')).toEqual([
      'HTTP/1.1 204 No Content',
      'allow: GET, PUT, HEAD, OPTIONS',
      'access-control-allow-origin: https://app.example',
      'access-control-allow-methods: GET, PUT',
      'access-control-allow-headers: content-type, authorization',
      'access-control-max-age: 600',
      'vary: Origin',
    ]);
  });

  it('gives a preflight asking for a lower-case method no CORS headers (it is another method)', async () => {
    const { port } = await started({ allowOrigins: ['https://app.example'], allowMethods: ['GET', 'PUT'] });
    expect(await preflight(port, 'put')).toEqual([
      'HTTP/1.1 204 No Content',
      'allow: GET, PUT, HEAD, OPTIONS',
    ]);
  });
});
