// The demo's wire behaviour on the target runtime (served with serve(): node:http, or the
// runtime's node:http layer): core, auth, cors, openapi, assets and the in-process queue.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { AUTH, state, until, wire } from './http';

const PUBLIC = new URL('../../../apps/demo/public/', import.meta.url);

describe('core', () => {
  it('creates a widget (201, Location, Link), reads it back, refuses bad input (422) and unknown ids (404)', async () => {
    const name = `sprocket-${Date.now()}`;
    const created = await wire('POST', '/widgets', { json: { name, priceCents: 250 }, headers: AUTH });
    expect(created.status).toBe(201);
    const widget = created.json<{ id: string }>();
    expect(widget).toEqual({ id: widget.id, name, priceCents: 250 });
    expect(created.headers.location).toBe(`/widgets/${widget.id}`);
    expect(created.headers.link).toBe(`</widgets/${widget.id}>; rel="self", </widgets>; rel="collection"`);
    const read = await wire('GET', `/widgets/${widget.id}`, { headers: AUTH });
    expect(read.status).toBe(200);
    expect(read.json()).toEqual(widget);

    const invalid = await wire('POST', '/widgets', { json: { name, priceCents: 'x' }, headers: AUTH });
    expect(invalid.status).toBe(422);
    expect(invalid.headers['content-type']).toBe('application/problem+json');
    expect(invalid.json()).toMatchObject({ type: 'validation-failed', status: 422 });

    const missing = await wire('GET', '/widgets/999999', { headers: AUTH });
    expect(missing.status).toBe(404);
    expect(missing.json()).toMatchObject({ type: 'widget-not-found', status: 404 });
  });

  it('answers 405 with Allow, HEAD with the GET head and no body, an unknown path 404', async () => {
    const wrong = await wire('PUT', '/healthz');
    expect(wrong.status).toBe(405);
    expect(wrong.headers.allow).toBe('GET, HEAD, OPTIONS');
    const get = await wire('GET', '/healthz');
    const head = await wire('HEAD', '/healthz');
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe(get.headers['content-length']);
    expect(head.body.length).toBe(0);
    const unknown = await wire('GET', '/nope');
    expect(unknown.status).toBe(404);
    expect(unknown.json()).toEqual({ type: 'not-found', title: 'Not found', status: 404 });
  });
});

describe('auth and cookies', () => {
  it('refuses a missing bearer token with 401 and a challenge', async () => {
    const res = await wire('GET', '/me');
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Bearer');
    expect(res.json()).toMatchObject({ type: 'authentication-required', status: 401 });
    const me = await wire('GET', '/me', { headers: AUTH });
    expect(me.status).toBe(200);
    expect(me.json()).toMatchObject({ id: 'user-id', name: 'user-name' });
  });

  it('starts a cookie session (Set-Cookie) and authenticates by the cookie', async () => {
    const login = await wire('POST', '/session', { json: { token: 'token' } });
    expect(login.status).toBe(204);
    expect(login.headers['set-cookie']).toEqual(['session_id=token; Path=/; Secure; HttpOnly; SameSite=Lax']);
    const profile = await wire('GET', '/profile', { headers: { cookie: 'session_id=token' } });
    expect(profile.status).toBe(200);
    expect(profile.json()).toMatchObject({ id: 'user-id' });
    expect((await wire('GET', '/profile')).status).toBe(401);
  });
});

describe('cors', () => {
  it('sends the wildcard on every answer and a preflight block on OPTIONS', async () => {
    expect((await wire('GET', '/healthz')).headers['access-control-allow-origin']).toBe('*');
    expect((await wire('GET', '/nope')).headers['access-control-allow-origin']).toBe('*');
    const pre = await wire('OPTIONS', '/widgets', {
      headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers['access-control-allow-headers']).toBe('content-type, authorization');
    expect(pre.headers['access-control-allow-origin']).toBe('*');
  });
});

describe('openapi', () => {
  it('serves the 3.1 document and the offline docs page', async () => {
    const doc = await wire('GET', '/openapi.json');
    expect(doc.status).toBe(200);
    const body = doc.json<{ openapi: string; paths: Record<string, unknown> }>();
    expect(body.openapi).toBe('3.1.0');
    expect(Object.keys(body.paths)).toContain('/widgets/{widget_id}');
    const docs = await wire('GET', '/docs');
    expect(docs.status).toBe(200);
    expect(docs.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(docs.text()).toContain('data-url="./openapi.json"');
  });
});

describe('assets', () => {
  const index = readFileSync(new URL('index.html', PUBLIC));
  const etag = `"${createHash('sha256').update(index).digest('hex').slice(0, 32)}"`;

  it('serves a file with its type and strong ETag, gzip on request, 304 on a match', async () => {
    const plain = await wire('GET', '/assets/index.html');
    expect(plain.status).toBe(200);
    expect(plain.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(plain.headers.etag).toBe(etag);
    expect(plain.body.equals(index)).toBe(true);
    const gzipped = await wire('GET', '/assets/index.html', { headers: { 'accept-encoding': 'gzip' } });
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzipped.body).equals(index)).toBe(true);
    const cached = await wire('GET', '/assets/index.html', { headers: { 'if-none-match': etag } });
    expect(cached.status).toBe(304);
    expect(cached.body.length).toBe(0);
  });
});

describe('compression', () => {
  it('compresses a JSON answer with br when asked and leaves it plain otherwise', async () => {
    const plain = await wire('GET', '/openapi.json');
    const br = await wire('GET', '/openapi.json', { headers: { 'accept-encoding': 'br' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(br.headers['content-encoding']).toBe('br');
    expect(Number(br.headers['content-length'])).toBeLessThan(plain.body.length);
  });
});

describe('background tasks (in process)', () => {
  it('processes the created event after answering', async () => {
    const created = await wire('POST', '/widgets', {
      json: { name: `queued-${Date.now()}`, priceCents: 1 },
      headers: AUTH,
    });
    expect(created.status).toBe(201);
    const { id } = created.json<{ id: string }>();
    await until(async () => (await state()).tasks.includes(`created:${id}`));
  });
});

describe('demo streams', () => {
  it('answers a question as NDJSON, one chunk per word', async () => {
    const res = await wire('POST', '/questions', { json: { text: 'hello streams' } });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/x-ndjson');
    expect(res.headers['transfer-encoding']).toBe('chunked');
    const lines = res.text().split('\n').filter(Boolean);
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines) expect(JSON.parse(line)).toHaveProperty('text');
  });
});
