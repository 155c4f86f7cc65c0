import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import {
  BaseApp,
  defineMiddleware,
  Endpoint,
  JSONResponse,
  NoContent,
  Struct,
  type Request,
} from '../src/index';
import { clientFactory, memoryLogger } from './fixtures';

const client = clientFactory();

const Health = Struct('Health', { status: v.string() });
class Plain extends Endpoint('/plain') {
  get = this.operation({ returns: Health }, () => ({ status: 'plain' }));
}
class Scoped extends Endpoint('/scoped') {
  get = this.operation({ returns: Health }, () => ({ status: 'scoped' }));
  post = this.operation({ returns: Health }, () => ({ status: 'posted' }));
}

const seen: { request: Request<unknown>; status: number; ms: number }[] = [];
const TenantHeaders = Struct('TenantHeaders', { x_tenant: v.string() });

const appWide = defineMiddleware({ responseHeaders: { 'x-app': 'demo' } });
const maintenance = defineMiddleware({
  headers: Struct('MaintHeaders', { x_maintenance: v.optional(v.string()) }),
  interceptMethods: ['GET', 'HEAD'],
  intercept: (request) =>
    request.headers.x_maintenance === 'on'
      ? new JSONResponse({ json: { status: 'maintenance' }, statusCode: 503 })
      : undefined,
});
const observer = defineMiddleware({
  observe: (request, status, ms) => void seen.push({ request, status, ms }),
});
const tenant = defineMiddleware({
  headers: TenantHeaders,
  responseHeaders: (request, status) => ({ 'x-tenant-echo': `${request.headers.x_tenant}:${status}` }),
});
const blocker = defineMiddleware({
  interceptMethods: ['POST'],
  intercept: () => new NoContent({ statusCode: 202 }),
});
const failingObserver = defineMiddleware({
  observe: () => {
    throw new Error('observer bug');
  },
});

class App extends BaseApp {
  protected override async wire(): Promise<void> {
    this.includeMiddleware(appWide);
    this.includeMiddleware(maintenance);
    this.includeMiddleware(failingObserver);
    this.includeEndpoint(new Plain());
    this.includeEndpoint(new Scoped(), {
      middleware: [observer, tenant, blocker, defineMiddleware({ responseHeaders: { 'x-scoped': '1' } })],
    });
  }
}

describe('middleware', () => {
  it('bakes constant app-wide headers into every response, 404s included, after the route headers', async () => {
    const c = client(new App({ logger: memoryLogger() }));
    const res = await c.get('/plain');
    expect(res.headers.get('x-app')).toBe('demo');
    const names = res.multiHeaders.map(([k]) => k.toLowerCase());
    expect(names.indexOf('x-app')).toBeGreaterThan(names.indexOf('content-type'));
    expect((await c.get('/missing')).headers.get('x-app')).toBe('demo');
    expect((await c.get('/plain')).headers.get('x-scoped')).toBeUndefined();
  });

  it('runs app-wide intercepts before routing (answering paths that would 404), only for their methods', async () => {
    const c = client(new App({ logger: memoryLogger() }));
    const res = await c.get('/does-not-exist', { headers: { 'x-maintenance': 'on' } });
    expect(res.status).toBe(503);
    expect(res.json()).toEqual({ status: 'maintenance' });
    expect(res.headers.get('x-app')).toBe('demo');
    expect((await c.delete('/plain', { headers: { 'x-maintenance': 'on' } })).status).toBe(405);
  });

  it('computes scoped headers per response from the hook headers; app-wide before scoped in the tail', async () => {
    const c = client(new App({ logger: memoryLogger() }));
    const res = await c.get('/scoped', { headers: { 'x-tenant': 'acme' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-tenant-echo')).toBe('acme:200');
    const names = res.multiHeaders.map(([k]) => k.toLowerCase());
    expect(names.indexOf('x-app')).toBeLessThan(names.indexOf('x-scoped'));
  });

  it('answers 400 when a hook’s required header is missing', async () => {
    const c = client(new App({ logger: memoryLogger() }));
    const res = await c.get('/scoped');
    expect(res.status).toBe(400);
    expect(res.json()).toMatchObject({
      type: 'malformed-request',
      detail: 'Missing required field at `header x-tenant`',
    });
  });

  it('runs scoped intercepts after route resolution, for their methods only', async () => {
    const c = client(new App({ logger: memoryLogger() }));
    const res = await c.post('/scoped', { headers: { 'x-tenant': 'acme' } });
    expect(res.status).toBe(202);
    expect(res.headers.get('content-length')).toBe('0');
  });

  it('observes after the response with method (HEAD stays HEAD), path, status, duration and receivedAt', async () => {
    const logger = memoryLogger();
    const c = client(new App({ logger }));
    seen.length = 0;
    await c.head('/scoped', { headers: { 'x-tenant': 'acme' } });
    // observe runs after the response: wait for it (bounded) rather than for a fixed time
    for (let i = 0; i < 200 && seen.length === 0; i++) await new Promise((r) => setTimeout(r, 5));
    expect(seen).toHaveLength(1);
    expect(seen[0]!.request.method).toBe('HEAD');
    expect(seen[0]!.request.path).toBe('/scoped');
    expect(seen[0]!.request.receivedAt).toBeGreaterThan(0);
    expect(seen[0]!.status).toBe(200);
    expect(seen[0]!.ms).toBeGreaterThanOrEqual(0);
    // the failing app-wide observer was logged and swallowed
    expect(logger.lines.some((l) => l.startsWith('warn') && l.includes('observe hook failed'))).toBe(true);
  });
});
