// Cases from @opentelemetry/instrumentation-http's own server tests, ported to @api: the scheme a
// client used, the connection's peer, and the client's address behind a proxy the app trusts.
import { request } from 'node:http';
import * as v from 'valibot';
import { afterEach, describe, expect, it } from 'vitest';
import { BaseApp, Endpoint, serve, Struct, type AppOptions, type RunningServer } from '@api/core';
import { otel } from '../src/index';
import { exporter, spanNamed } from './helpers/tracing';

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
class Ping extends Endpoint('/ping') {
  get = this.operation({ returns: Struct('Pong', { ok: v.boolean() }) }, () => ({ ok: true }));
}
class App extends BaseApp {
  protected override async wire(): Promise<void> {
    this.include(otel());
    this.includeEndpoint(new Ping());
  }
}

const servers: RunningServer[] = [];
afterEach(async () => {
  exporter.reset();
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
async function listening(options: AppOptions = {}): Promise<RunningServer> {
  const running = await serve(new App({ logger: quiet, env: {}, ...options }), {
    port: 0,
    signals: false,
    quiet: true,
  });
  servers.push(running);
  return running;
}

/** GET with node:http, so the test knows the client's own port (the server's peer port). */
function get(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; localPort: number }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, localPort }));
    });
    let localPort = 0;
    req.on('socket', (socket) => socket.on('connect', () => (localPort = socket.localPort ?? 0)));
    req.on('error', reject);
    req.end();
  });
}

describe('server span attributes (instrumentation-http cases)', () => {
  it('network.peer.address and network.peer.port are the connection peer', async () => {
    const running = await listening();
    const { status, localPort } = await get(`${running.url}/ping`);
    expect(status).toBe(200);
    const span = await spanNamed('GET /ping');
    expect(span.attributes['network.peer.address']).toBe('127.0.0.1');
    expect(span.attributes['network.peer.port']).toBe(localPort);
    expect(span.attributes['client.address']).toBe('127.0.0.1');
    expect(span.attributes['url.scheme']).toBe('http');
  });

  it('client.address ignores X-Forwarded-For unless the app trusts its proxy', async () => {
    const running = await listening();
    await get(`${running.url}/ping`, { 'x-forwarded-for': '203.0.113.9', 'x-forwarded-proto': 'https' });
    const span = await spanNamed('GET /ping');
    expect(span.attributes['client.address']).toBe('127.0.0.1');
    expect(span.attributes['url.scheme']).toBe('http');
  });

  it('client.address and url.scheme follow a trusted proxy; the peer stays the proxy', async () => {
    const running = await listening({ trustProxy: true });
    await get(`${running.url}/ping`, {
      'x-forwarded-for': '203.0.113.9, 10.0.0.2',
      'x-forwarded-proto': 'https',
    });
    const span = await spanNamed('GET /ping');
    expect(span.attributes['client.address']).toBe('203.0.113.9');
    expect(span.attributes['url.scheme']).toBe('https');
    expect(span.attributes['network.peer.address']).toBe('127.0.0.1');
  });

  it('app.fetch: url.scheme is the Request URL’s (a Worker behind TLS), no peer attributes', async () => {
    const app = new App({ logger: quiet, env: {} });
    const res = await app.fetch(new Request('https://worker.example/ping'));
    expect(res.status).toBe(200);
    const span = await spanNamed('GET /ping');
    expect(span.attributes['url.scheme']).toBe('https');
    expect(span.attributes['network.peer.address']).toBeUndefined();
    expect(span.attributes['client.address']).toBeUndefined();
    await app.close();
  });
});
