// The background queue in the demo: POST /widgets enqueues a WidgetEvent handled after the
// response (and drained at shutdown), POST /widgets/{widget_id}/reindex uses tryAdd → 202 / 503.
import { describe, expect, it } from 'vitest';
import type { RecordedExchange } from './helpers/conformance';
import { checkContract } from './helpers/contract';
import { AUTH, startDemo, until } from './helpers/demo';

const exchanges: RecordedExchange[] = [];

describe('POST /widgets enqueues a WidgetEvent', () => {
  it('POST /widgets then shutdown: the queue recorded ["created:<id>"]', async () => {
    const { client, taskLog } = await startDemo({ exchanges });
    const res = await client.post('/widgets', { json: { name: 'gear', priceCents: 1 }, headers: AUTH });
    expect(res.status).toBe(201);
    const { id } = res.json<{ id: string }>();
    await client.close();
    expect(taskLog).toEqual([`created:${id}`]);
  });

  it('a refused create (409, 422) enqueues nothing', async () => {
    const { client, taskLog } = await startDemo({ exchanges });
    const first = await client.post('/widgets', { json: { name: 'dup', priceCents: 1 }, headers: AUTH });
    expect(
      (await client.post('/widgets', { json: { name: 'dup', priceCents: 2 }, headers: AUTH })).status,
    ).toBe(409);
    expect(
      (await client.post('/widgets', { json: { name: 'x', priceCents: -1 }, headers: AUTH })).status,
    ).toBe(422);
    await client.close();
    expect(taskLog).toEqual([`created:${first.json<{ id: string }>().id}`]);
  });
});

describe('POST /widgets/{widget_id}/reindex', () => {
  it('202 {widgetId, queued: true}; processed in the background', async () => {
    const { client, taskLog } = await startDemo({ exchanges });
    const res = await client.post('/widgets/w1/reindex', { headers: AUTH });
    expect(res.status).toBe(202);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.json()).toEqual({ widgetId: 'w1', queued: true });
    await until(() => taskLog.length === 1);
    expect(taskLog).toEqual(['reindexed:w1']);
    await client.close();
  });

  it('503 service-unavailable Problem + retry-after: 1 when the queue is full; the accepted items still run', async () => {
    const { app, client, taskLog } = await startDemo({
      exchanges,
      tasks: { maxsize: 2, drainTimeout: 5 },
      reindexDelayMs: 150,
    });
    expect((await client.post('/widgets/w1/reindex', { headers: AUTH })).status).toBe(202);
    await until(() => app.tasks.stats().inFlight === 1); // the worker holds w1; two places left
    expect((await client.post('/widgets/w2/reindex', { headers: AUTH })).status).toBe(202);
    expect((await client.post('/widgets/w3/reindex', { headers: AUTH })).status).toBe(202);
    const full = await client.post('/widgets/w4/reindex', { headers: AUTH });
    expect(full.status).toBe(503);
    expect(full.headers.get('retry-after')).toBe('1');
    // Core's own Problem (ServiceUnavailableError): the Problem media type, its exact body.
    expect(full.headers.get('content-type')).toBe('application/problem+json');
    expect(full.text).toBe('{"type":"service-unavailable","title":"Service unavailable","status":503}');
    await client.close();
    expect(taskLog).toEqual(['reindexed:w1', 'reindexed:w2', 'reindexed:w3']);
    expect(app.tasks.stats()).toEqual({
      queued: 0,
      inFlight: 0,
      processed: 3,
      failed: 0,
      interrupted: 0,
      dropped: 0,
    });
  });

  it('needs the bearer token (401 before anything is enqueued)', async () => {
    const { client, taskLog } = await startDemo({ exchanges });
    const res = await client.post('/widgets/w1/reindex');
    expect(res.status).toBe(401);
    expect(res.json()).toEqual({
      type: 'authentication-required',
      title: 'Authentication required',
      status: 401,
    });
    const bad = await client.post('/widgets/w1/reindex', { headers: { authorization: 'Bearer nope' } });
    expect(bad.status).toBe(401);
    expect(bad.json()).toEqual({ type: 'invalid-token', title: 'Invalid token', status: 401 });
    await client.close();
    expect(taskLog).toEqual([]);
  });
});

describe('shutdown drain (drainTimeout 1 s)', () => {
  it('waits at most 1 s for a stuck item, aborts it, and logs one WARN with the counts (no ERROR)', async () => {
    const warnings: string[] = [];
    const errors: string[] = [];
    const logger = {
      info: () => undefined,
      warn: (m: string) => void warnings.push(m),
      error: (m: string) => void errors.push(m),
    };
    const { app, client, taskLog } = await startDemo({ logger, reindexDelayMs: 60_000 });
    expect((await client.post('/widgets/slow/reindex', { headers: AUTH })).status).toBe(202);
    expect((await client.post('/widgets/next/reindex', { headers: AUTH })).status).toBe(202);
    await until(() => app.tasks.stats().inFlight === 1);
    const started = performance.now();
    await client.close();
    const took = performance.now() - started;
    expect(took).toBeGreaterThanOrEqual(990);
    expect(took).toBeLessThan(5_000); // 1 s + 100 ms grace + teardown, with room for a loaded machine
    expect(taskLog).toEqual([]);
    expect(warnings).toEqual([
      'BackgroundTasks: the task drain deadline (drainTimeout 1 s; not the HTTP shutdown cap) reached before the queue drained: queued 1, dropped 1, interrupted 1 (1 in flight stopped on its signal)',
    ]);
    // The aborted handler rejected on its signal: interrupted, not a failure (no ERROR line); the
    // one still queued was dropped.
    expect(errors).toEqual([]);
    expect(app.tasks.stats()).toEqual({
      queued: 0,
      inFlight: 0,
      processed: 0,
      failed: 0,
      interrupted: 1,
      dropped: 1,
    });
  });
});

describe('OpenAPI contract', () => {
  it('the 201, 202, 401, 409, 422 and 503 responses of this file match /openapi.json', async () => {
    const report = await checkContract(exchanges);
    expect(report.violations).toEqual([]);
    for (const pair of [
      'WidgetResource_create 201',
      'WidgetResource_create 409',
      'WidgetResource_create 422',
      'ReindexEndpoint_post 202',
      'ReindexEndpoint_post 401',
      'ReindexEndpoint_post 503',
    ])
      expect(report.covered, pair).toContain(pair);
  }, 60_000);
});
