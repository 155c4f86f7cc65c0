// The ArkType app over the wire: CRUD, paging, and validation Problems that never quote the value
// (ArkType's own messages do: `must be a number (was "<script>")`).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TestClient } from '@api/testing';
import { ArkTypeApp } from '../src/app';

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
let client: TestClient;

beforeEach(async () => {
  client = await TestClient.start(new ArkTypeApp({ logger: quiet, openapi: false }));
});
afterEach(async () => {
  await client.close();
});

describe('widgets on ArkType models', () => {
  it('creates (201 + Location), reads, lists with paging, replaces, patches and deletes', async () => {
    const created = await client.post('/widgets', { json: { name: 'Sprocket', priceCents: 250 } });
    expect(created.status).toBe(201);
    expect(created.headers.get('content-type')).toBe('application/json');
    const { id } = created.json<{ id: string }>();
    expect(created.text).toBe(`{"id":"${id}","name":"Sprocket","priceCents":250}`);
    expect(created.headers.get('location')).toBe(`/widgets/${id}`);
    expect((await client.get(`/widgets/${id}`)).json()).toEqual({ id, name: 'Sprocket', priceCents: 250 });
    await client.post('/widgets', { json: { name: 'b', priceCents: 1 } });
    const page = await client.get('/widgets', { params: { limit: 1, offset: 1 } });
    expect(page.status).toBe(200);
    expect(page.json<{ name: string }[]>().map((w) => w.name)).toEqual(['b']);
    expect((await client.put(`/widgets/${id}`, { json: { name: 'y', priceCents: 2 } })).json()).toEqual({
      id,
      name: 'y',
      priceCents: 2,
    });
    expect((await client.patch(`/widgets/${id}`, { json: { priceCents: 3 } })).json()).toEqual({
      id,
      name: 'y',
      priceCents: 3,
    });
    const deleted = await client.delete(`/widgets/${id}`);
    expect(deleted.text).toBe(`{"id":"${id}","deleted":true}`);
    const gone = await client.get(`/widgets/${id}`);
    expect(gone.status).toBe(404);
    expect(gone.headers.get('content-type')).toBe('application/problem+json');
    expect(gone.json()).toEqual({ type: 'not-found', title: 'Not found', status: 404 });
  });

  it('a bad query is 400 at `query parameter limit`', async () => {
    const bad = await client.get('/widgets', { params: { limit: 101 } });
    expect(bad.status).toBe(400);
    expect(bad.headers.get('content-type')).toBe('application/problem+json');
    const body = bad.json<{ type: string; params: { issues: { path: string }[] } }>();
    expect(body.type).toBe('malformed-request');
    expect(body.params.issues.map((i) => i.path)).toEqual(['query parameter limit']);
  });

  it('a bad body is 422 with field paths, and never echoes the submitted values', async () => {
    const bad = await client.post('/widgets', { json: { name: '', priceCents: '<script>' } });
    expect(bad.status).toBe(422);
    expect(bad.headers.get('content-type')).toBe('application/problem+json');
    expect(bad.text).not.toContain('<script>');
    const body = bad.json<{
      type: string;
      title: string;
      params: { issues: { path: string; message: string }[] };
    }>();
    expect(body.type).toBe('validation-failed');
    expect(body.params.issues.map((i) => i.path).sort()).toEqual(['$.name', '$.priceCents']);
    const missing = await client.post('/widgets', { json: { name: 'x' } });
    expect(missing.status).toBe(422);
    expect(missing.json()).toMatchObject({
      params: { issues: [{ path: '$.priceCents', message: 'Missing required field' }] },
    });
  });

  it('an unknown path slot value is a 404, a wrong method a 405', async () => {
    expect((await client.get('/widgets/unknown')).status).toBe(404);
    const wrong = await client.delete('/widgets');
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('POST, GET, HEAD, OPTIONS');
  });
});
