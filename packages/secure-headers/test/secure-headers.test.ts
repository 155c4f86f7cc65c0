// Over a real socket: the preset on every answer, per-mount blocks, and the docs page's own CSP.
import * as v from 'valibot';
import { afterEach, describe, expect, it } from 'vitest';
import { TestClient } from '@api/testing';
import { BaseApp, Endpoint, NotFoundError, Struct, WiringError } from '@api/core';
import { openapi } from '@api/openapi';
import { SecureHeaders, secureHeaders } from '../src/index';

const Note = Struct('Note', { text: v.string() });
class Notes extends Endpoint('/notes') {
  get = this.operation({ returns: Note, meta: { exceptions: [NotFoundError] } }, () => {
    throw new NotFoundError();
  });
  post = this.operation({ json: Note, returns: Note }, ({ json }) => json);
}
class Widget extends Endpoint('/widget') {
  get = this.operation({ returns: Note }, () => ({ text: 'embed me' }));
}
class Raw extends Endpoint('/raw') {
  get = this.operation({ returns: Note }, () => ({ text: 'raw' }));
}

const PRESET: [string, string][] = [
  ['strict-transport-security', 'max-age=31536000; includeSubDomains'],
  ['x-content-type-options', 'nosniff'],
  ['referrer-policy', 'no-referrer'],
  ['cross-origin-opener-policy', 'same-origin'],
  ['cross-origin-resource-policy', 'same-origin'],
  ['x-frame-options', 'DENY'],
];
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

class App extends BaseApp {
  protected override async wire(): Promise<void> {
    this.include(secureHeaders());
    this.includeEndpoint(new Notes());
    this.includeEndpoint(new Widget(), {
      secureHeaders: new SecureHeaders({ frameOptions: false, crossOriginResourcePolicy: 'cross-origin' }),
    });
    this.includeEndpoint(new Raw(), { secureHeaders: false });
    this.include(openapi({ title: 'T', version: '1' }));
  }
}

const clients: TestClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});
async function client(app: BaseApp = new App({ logger: quiet })): Promise<TestClient> {
  const c = await TestClient.start(app);
  clients.push(c);
  return c;
}

function pick(res: { headers: { get(name: string): string | undefined } }, names: readonly string[]) {
  return names.map((n) => [n, res.headers.get(n)]);
}
const NAMES = [...PRESET.map(([n]) => n), 'content-security-policy'];

describe('secureHeaders()', () => {
  it('puts the preset on every answer: success, error, 404, 405, automatic OPTIONS', async () => {
    const c = await client();
    const expected = [...PRESET, ['content-security-policy', undefined]];
    for (const res of [
      await c.post('/notes', { json: { text: 'a' } }),
      await c.post('/notes', { json: { text: 1 } }),
      await c.get('/notes'),
      await c.get('/nowhere'),
      await c.put('/notes'),
      await c.options('/notes'),
    ])
      expect(pick(res, NAMES)).toEqual(expected);
  });

  it('lets a mount replace the block or drop it', async () => {
    const c = await client();
    expect(pick(await c.get('/widget'), NAMES)).toEqual([
      ['strict-transport-security', 'max-age=31536000; includeSubDomains'],
      ['x-content-type-options', 'nosniff'],
      ['referrer-policy', 'no-referrer'],
      ['cross-origin-opener-policy', 'same-origin'],
      ['cross-origin-resource-policy', 'cross-origin'],
      ['x-frame-options', undefined],
      ['content-security-policy', undefined],
    ]);
    expect(pick(await c.get('/raw'), NAMES).every(([, value]) => value === undefined)).toBe(true);
  });

  it('leaves the docs page its own CSP, nosniff and referrer-policy (one of each), adding the rest', async () => {
    const c = await client();
    const docs = await c.get('/docs');
    expect(docs.status).toBe(200);
    expect(docs.headers.getAll('content-security-policy')).toHaveLength(1);
    expect(docs.headers.get('content-security-policy')).toMatch(/^default-src 'self'; script-src 'self'/);
    expect(docs.headers.getAll('x-content-type-options')).toEqual(['nosniff']);
    expect(docs.headers.getAll('referrer-policy')).toEqual(['no-referrer']);
    expect(docs.headers.get('x-frame-options')).toBe('DENY');
    expect(docs.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
    const document = await c.get('/openapi.json');
    expect(document.headers.getAll('x-content-type-options')).toEqual(['nosniff']);
  });

  it('takes a CSP for JSON-only APIs, and SecureHeaders.with changes a block', async () => {
    const api = new SecureHeaders({ contentSecurityPolicy: "default-src 'none'; frame-ancestors 'none'" });
    class Api extends BaseApp {
      protected override async wire(): Promise<void> {
        this.include(secureHeaders(api));
        this.includeEndpoint(new Notes());
        this.includeEndpoint(new Widget(), { secureHeaders: api.with({ frameOptions: 'SAMEORIGIN' }) });
      }
    }
    const c = await client(new Api({ logger: quiet }));
    expect((await c.get('/notes')).headers.get('content-security-policy')).toBe(
      "default-src 'none'; frame-ancestors 'none'",
    );
    const widget = await c.get('/widget');
    expect(pick(widget, ['x-frame-options', 'content-security-policy'])).toEqual([
      ['x-frame-options', 'SAMEORIGIN'],
      ['content-security-policy', "default-src 'none'; frame-ancestors 'none'"],
    ]);
  });
});

describe('startup mistakes', () => {
  it.each([
    [
      { frameOptions: 'ALLOW' },
      "new SecureHeaders(options): frameOptions cannot be \"ALLOW\". Fix: use one of 'DENY', 'SAMEORIGIN', or false to leave x-frame-options out.",
    ],
    [{ strictTransportSecurity: 'max-age=1; evil\r\nx: y' }, /strictTransportSecurity cannot be/],
    [{ contentSecurityPolicy: "default-src 'none'\n" }, /contentSecurityPolicy cannot be/],
    [{ hsts: 'max-age=1' }, /unknown option "hsts"\. Fix: use only strictTransportSecurity, /],
    [{ referrerPolicy: 'never' }, /referrerPolicy cannot be "never"/],
  ])('refuses %j', (options, message) => {
    expect(() => new SecureHeaders(options as never)).toThrow(message);
  });

  it('refuses a second install and a mount option that is not a block', async () => {
    class Twice extends BaseApp {
      protected override async wire(): Promise<void> {
        this.include(secureHeaders());
        this.include(secureHeaders());
      }
    }
    await expect(new TestClient(new Twice({ logger: quiet })).start()).rejects.toMatchObject({
      code: 'API_WIRING_DUPLICATE',
      where: 'Twice.include(secureHeaders())',
      problem: 'secure headers are already installed app-wide',
    });
    class Wrong extends BaseApp {
      protected override async wire(): Promise<void> {
        this.include(secureHeaders());
        this.includeEndpoint(new Notes(), { secureHeaders: { frameOptions: 'DENY' } as never });
      }
    }
    const c = new TestClient(new Wrong({ logger: quiet }));
    const started = c.start();
    await expect(started).rejects.toThrow(WiringError);
    await expect(started).rejects.toMatchObject({
      code: 'API_WIRING_MOUNT_OPTION',
      where: 'Wrong.includeEndpoint(Notes)',
    });
    await c.close();
  });
});
