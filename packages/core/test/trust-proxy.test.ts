// Issue 42 item 6: one trust-proxy setting (`new App({ trustProxy })`, else APP_TRUST_FORWARDED)
// for URL building and the client's address; both given to extensions through the wiring surface.
import * as v from 'valibot';
import { afterEach, describe, expect, it } from 'vitest';
import {
  BaseApp,
  Created,
  Endpoint,
  Location,
  serve,
  Struct,
  type AppOptions,
  type RunningServer,
} from '../src/index';
import { defineExtension, type Wiring } from '../src/extension';
import { expectWiringError } from './expect-wiring-error';
import { memoryLogger } from './fixtures';

const Seen = Struct('Seen', { id: v.string() });

/** An extension route answering what the wiring surface says of the request (a rate limiter's key). */
const whoAmI = defineExtension({
  name: 'who-am-i',
  setup(wiring: Wiring) {
    wiring.addRoute({
      method: 'GET',
      path: '/who',
      owner: 'who',
      operation: 'who',
      handle: (ex) =>
        ex.send(
          200,
          ['content-type', 'application/json'],
          JSON.stringify({
            trust: wiring.trustProxy,
            client: wiring.clientAddress(ex.req) ?? null,
            scheme: wiring.requestScheme(ex.req),
          }),
        ),
    });
  },
});

class Things extends Endpoint('/things') {
  post = this.operation(
    { returns: Created.of(Seen) },
    () => new Created({ json: { id: '1' }, location: Location.fromPath('/things/1') }),
  );
}

class App extends BaseApp {
  protected override async wire(): Promise<void> {
    this.include(whoAmI);
    this.includeEndpoint(new Things());
  }
}

const servers: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
async function listening(options: AppOptions): Promise<RunningServer> {
  const running = await serve(new App({ logger: memoryLogger(), ...options }), {
    port: 0,
    signals: false,
    quiet: true,
  });
  servers.push(running);
  return running;
}
async function who(url: string, headers: Record<string, string> = {}): Promise<unknown> {
  return (await fetch(`${url}/who`, { headers })).json();
}

const XFF = { 'x-forwarded-for': '203.0.113.7, 198.51.100.2', 'x-forwarded-proto': 'https' };

describe('trustProxy', () => {
  it('off (default): the connection tells the address and scheme; forwarded headers are ignored', async () => {
    const running = await listening({ env: {} });
    expect(await who(running.url, XFF)).toEqual({ trust: false, client: '127.0.0.1', scheme: 'http' });
  });

  it('true: the first X-Forwarded-For address and X-Forwarded-Proto', async () => {
    const running = await listening({ trustProxy: true });
    expect(await who(running.url, XFF)).toEqual({ trust: true, client: '203.0.113.7', scheme: 'https' });
    expect(await who(running.url)).toEqual({ trust: true, client: '127.0.0.1', scheme: 'http' });
  });

  it('a hop count: the address that many proxies in from the connection', async () => {
    const one = await listening({ trustProxy: 1 });
    expect(await who(one.url, XFF)).toEqual({ trust: 1, client: '198.51.100.2', scheme: 'https' });
    const two = await listening({ trustProxy: 2 });
    expect(await who(two.url, XFF)).toEqual({ trust: 2, client: '203.0.113.7', scheme: 'https' });
    // More hops than the header has: its first address.
    const five = await listening({ trustProxy: 5 });
    expect(await who(five.url, XFF)).toEqual({ trust: 5, client: '203.0.113.7', scheme: 'https' });
  });

  it('APP_TRUST_FORWARDED sets it when the option is absent; the option wins over it', async () => {
    const fromEnv = await listening({ env: { APP_TRUST_FORWARDED: '1' } });
    expect(await who(fromEnv.url, XFF)).toEqual({ trust: true, client: '203.0.113.7', scheme: 'https' });
    const off = await listening({ env: { APP_TRUST_FORWARDED: '1' }, trustProxy: false });
    expect(await who(off.url, XFF)).toEqual({ trust: false, client: '127.0.0.1', scheme: 'http' });
  });

  it('is the one setting URL building reads too', async () => {
    const on = await listening({ trustProxy: true, env: {} });
    const res = await fetch(`${on.url}/things`, {
      method: 'POST',
      headers: { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'api.example' },
    });
    expect(res.headers.get('location')).toBe('https://api.example/things/1');
    const off = await listening({ trustProxy: false, env: { APP_TRUST_FORWARDED: '1' } });
    const plain = await fetch(`${off.url}/things`, {
      method: 'POST',
      headers: { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'api.example' },
    });
    expect(plain.headers.get('location')).toBe('/things/1');
  });

  it('app.fetch: a hop count reads the same X-Forwarded-For entry as over a socket (no peer known)', async () => {
    const app = new App({ logger: memoryLogger(), trustProxy: 1 });
    const res = await app.fetch(new Request('http://worker.example/who', { headers: XFF }));
    expect(await res.json()).toEqual({ trust: 1, client: '198.51.100.2', scheme: 'https' });
    const two = new App({ logger: memoryLogger(), trustProxy: 2 });
    const both = await two.fetch(new Request('http://worker.example/who', { headers: XFF }));
    expect(await both.json()).toEqual({ trust: 2, client: '203.0.113.7', scheme: 'https' });
    await app.close();
    await two.close();
  });

  it("app.fetch: the Request's URL tells the scheme (a Worker behind TLS)", async () => {
    const app = new App({ logger: memoryLogger(), env: {} });
    const res = await app.fetch(new Request('https://worker.example/who'));
    expect(await res.json()).toEqual({ trust: false, client: null, scheme: 'https' });
    const plain = await app.fetch(new Request('http://worker.example/who'));
    expect(await plain.json()).toEqual({ trust: false, client: null, scheme: 'http' });
    await app.close();
  });

  it('wiring refuses anything but a boolean or a whole number of hops', () => {
    for (const bad of [-1, 1.5, 'yes', null])
      expectWiringError(
        () => new App({ trustProxy: bad as never }),
        'API_WIRING_INVALID_ARGUMENT',
        'new App(options)',
      );
  });
});
