// The table of requests both the demo and the zod app answer (the demo's widget contract tests,
// apps/demo/test/demo.test.ts, as data): each step runs against a client and may use the ids the
// earlier creates returned. same-answers.test.ts runs it against both apps and compares.
import type { TestClient, TestResponse } from '@api/testing';

export const AUTH = { authorization: 'Bearer token' } as const;

export interface Step {
  readonly name: string;
  /** `ids`: the `id` of every widget created so far, in order. */
  readonly send: (client: TestClient, ids: readonly string[]) => Promise<TestResponse>;
  /**
   * `'validation'`: a 400/422 from the models. Compared byte for byte like every step: core words
   * the zod issues as valibot words the same constraint.
   */
  readonly kind?: 'validation';
}

const json = (body: object) => ({ json: body, headers: AUTH });
const id = (ids: readonly string[], n: number): string => ids[n] ?? `missing-${n}`;

export const STEPS: readonly Step[] = [
  { name: 'GET /featured-widget with none: 404', send: (c) => c.get('/featured-widget') },
  { name: 'GET /widgets empty', send: (c) => c.get('/widgets', { headers: AUTH }) },
  { name: 'POST /widgets', send: (c) => c.post('/widgets', json({ name: 'Sprocket', priceCents: 250 })) },
  { name: 'POST /widgets b', send: (c) => c.post('/widgets', json({ name: 'b', priceCents: 1 })) },
  { name: 'POST /widgets c', send: (c) => c.post('/widgets', json({ name: 'c', priceCents: 1 })) },
  { name: 'GET /widgets/{id}', send: (c, ids) => c.get(`/widgets/${id(ids, 0)}`, { headers: AUTH }) },
  { name: 'GET /widgets defaults', send: (c) => c.get('/widgets', { headers: AUTH }) },
  {
    name: 'GET /widgets?limit=1&offset=1',
    send: (c) => c.get('/widgets', { params: { limit: 1, offset: 1 }, headers: AUTH }),
  },
  {
    name: 'GET /widgets?limit=101: 400',
    send: (c) => c.get('/widgets', { params: { limit: 101 }, headers: AUTH }),
    kind: 'validation',
  },
  {
    name: 'GET /widgets?offset=-1: 400',
    send: (c) => c.get('/widgets', { params: { offset: -1 }, headers: AUTH }),
    kind: 'validation',
  },
  {
    name: 'PUT /widgets/{id}',
    send: (c, ids) => c.put(`/widgets/${id(ids, 1)}`, json({ name: 'y', priceCents: 2 })),
  },
  {
    name: 'PATCH /widgets/{id}',
    send: (c, ids) => c.patch(`/widgets/${id(ids, 1)}`, json({ priceCents: 3 })),
  },
  {
    name: 'PATCH /widgets/{id} empty',
    send: (c, ids) => c.patch(`/widgets/${id(ids, 1)}`, json({})),
  },
  {
    name: 'POST /widgets duplicate: 409',
    send: (c) => c.post('/widgets', json({ name: 'Sprocket', priceCents: 2 })),
  },
  {
    name: 'PUT rename onto a taken name: 409',
    send: (c, ids) => c.put(`/widgets/${id(ids, 1)}`, json({ name: 'c', priceCents: 2 })),
  },
  {
    name: 'PATCH rename onto a taken name: 409',
    send: (c, ids) => c.patch(`/widgets/${id(ids, 1)}`, json({ name: 'c' })),
  },
  {
    name: 'POST /widgets invalid: 422',
    send: (c) => c.post('/widgets', json({ name: '', priceCents: -1 })),
    kind: 'validation',
  },
  {
    name: 'POST /widgets wrong types: 422',
    send: (c) => c.post('/widgets', json({ name: 5, priceCents: '<script>' })),
    kind: 'validation',
  },
  {
    name: 'POST /widgets missing field: 422',
    send: (c) => c.post('/widgets', json({ name: 'no price' })),
    kind: 'validation',
  },
  {
    name: 'POST /widgets priceCents 2^53 + 1: 422',
    send: (c) =>
      c.post('/widgets', {
        content: '{"name":"big","priceCents": 9007199254740993}',
        headers: { ...AUTH, 'content-type': 'application/json' },
      }),
    kind: 'validation',
  },
  {
    name: 'POST /widgets not JSON: 400',
    send: (c) =>
      c.post('/widgets', { content: '{"name":', headers: { ...AUTH, 'content-type': 'application/json' } }),
  },
  {
    name: 'POST /widgets text/plain: 415',
    send: (c) => c.post('/widgets', { content: 'x', headers: { ...AUTH, 'content-type': 'text/plain' } }),
  },
  {
    name: 'POST /widgets anonymous: 401',
    send: (c) => c.post('/widgets', { json: { name: 'x', priceCents: 1 } }),
  },
  { name: 'GET /widgets anonymous: 401', send: (c) => c.get('/widgets') },
  {
    name: 'GET /widgets bad token: 401',
    send: (c) => c.get('/widgets', { headers: { authorization: 'Bearer wrong' } }),
  },
  { name: 'GET /featured-widget', send: (c) => c.get('/featured-widget') },
  { name: 'DELETE /widgets/{id}', send: (c, ids) => c.delete(`/widgets/${id(ids, 2)}`, { headers: AUTH }) },
  {
    name: 'GET /widgets/{id} deleted: 404',
    send: (c, ids) => c.get(`/widgets/${id(ids, 2)}`, { headers: AUTH }),
  },
  {
    name: 'DELETE /widgets/{id} again: 404',
    send: (c, ids) => c.delete(`/widgets/${id(ids, 2)}`, { headers: AUTH }),
  },
  {
    name: 'PUT /widgets/{unknown}: 404',
    send: (c) => c.put('/widgets/unknown', json({ name: 'z', priceCents: 1 })),
  },
  { name: 'DELETE /widgets: 405', send: (c) => c.delete('/widgets', { headers: AUTH }) },
  { name: 'GET /widgets listed last', send: (c) => c.get('/widgets', { headers: AUTH }) },
];

/** The headers whose values the apps must share (the demo adds CORS, security, rate-limit … on top). */
export const COMPARED_HEADERS = ['content-type', 'location', 'link', 'www-authenticate', 'allow'] as const;

export interface Answer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly body: string;
}

/**
 * Runs every step in order and returns each answer with the created ids replaced by `<id0>`, `<id1>` …
 * (both apps make random UUIDs), so two apps' answers compare as strings.
 */
export async function runSteps(client: TestClient): Promise<Answer[]> {
  const ids: string[] = [];
  const answers: { status: number; headers: Record<string, string | undefined>; body: string }[] = [];
  for (const step of STEPS) {
    const res = await step.send(client, ids);
    if (res.status === 201) ids.push(res.json<{ id: string }>().id);
    const headers: Record<string, string | undefined> = {};
    for (const h of COMPARED_HEADERS) headers[h] = res.headers.get(h) ?? undefined;
    answers.push({ status: res.status, headers, body: res.text });
  }
  const swap = (s: string): string => ids.reduce((out, x, n) => out.split(x).join(`<id${n}>`), s);
  return answers.map((a) => ({
    status: a.status,
    headers: Object.fromEntries(Object.entries(a.headers).map(([k, v]) => [k, v && swap(v)])),
    body: swap(a.body),
  }));
}
