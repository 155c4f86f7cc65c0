// The HTTP server metrics of the stable semantic conventions, WebSocket sessions and task metrics,
// read through the SDK's in-memory exporter (a real MeterProvider, registered globally). No
// `otelMetricProducer()` here: this is the fallback, every request recorded through the metrics
// API's instruments (metric-producer.test.ts: the same metrics aggregated in process).
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import * as v from 'valibot';
import { WebSocket as Client } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BaseApp, Endpoint, Resource, Struct } from '@api/core';
import { TestClient } from '@api/testing';
import { backgroundTasks } from '@api/tasks';
import { websocket, WebSocketEndpoint } from '@api/ws';
import { HTTP_DURATION_BUCKETS, otel, otelMetricProducer, taskContext, taskQueueMetrics } from '../src/index';
import { collected, points, type Histogram } from './helpers/metrics';

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
const Widget = Struct('Widget', { id: v.string() });
const Job = Struct('Job', { n: v.number() });

let release: () => void = () => undefined;
class Widgets extends Resource('/widgets') {
  readOne = this.operation(
    { path: Struct('WidgetPath', { widget_id: v.string() }), returns: Widget },
    ({ path }) => ({ id: path.widget_id }),
  );
}
class Held extends Endpoint('/held') {
  get = this.operation({ returns: Widget }, async () => {
    await new Promise<void>((resolve) => (release = resolve));
    return { id: 'held' };
  });
}
class Boom extends Endpoint('/boom') {
  get = this.operation({ returns: Widget }, () => {
    throw new Error('boom');
  });
}
class Room extends WebSocketEndpoint('/rooms/{room}', { inbound: 'string', outbound: 'string' }) {
  handle = this.handler({}, async ({ websocket }) => {
    for await (const message of websocket) if (message === 'bye') return websocket.close(4001, 'done');
  });
}
const ran: number[] = [];
class App extends BaseApp {
  protected override async wire(): Promise<void> {
    this.include(otel());
    this.includeResource(new Widgets());
    this.includeEndpoint(new Held());
    this.includeEndpoint(new Boom());
    this.include(websocket(new Room(), { pingInterval: 0 }));
    const tasks = this.include(backgroundTasks({ drainTimeout: 1, propagator: taskContext() }));
    tasks.register(Job, async (job) => {
      await sleep(5);
      ran.push(job.n);
    });
    taskQueueMetrics(tasks, { name: 'jobs' });
    class Enqueue extends Endpoint('/jobs') {
      post = this.operation({ json: Job }, ({ json }) => tasks.add(Job, json));
    }
    this.includeEndpoint(new Enqueue());
  }
}

let client: TestClient;
beforeAll(async () => {
  client = await TestClient.start(new App({ logger: quiet }));
});
afterAll(() => client.close());

describe('http.server.request.duration', () => {
  it('is a histogram in seconds with the semconv buckets, by route template, method, scheme, status', async () => {
    expect((await client.get('/widgets/a')).status).toBe(200);
    expect((await client.get('/widgets/b')).status).toBe(200);
    expect((await client.get('/boom')).status).toBe(500);
    expect((await client.get('/nowhere')).status).toBe(404);
    const metric = await collected('http.server.request.duration');
    expect(metric?.descriptor).toMatchObject({ unit: 's', description: 'Duration of HTTP server requests.' });
    const byAttributes = new Map(
      (metric!.dataPoints as Array<{ attributes: Record<string, unknown>; value: Histogram }>).map((p) => [
        JSON.stringify(p.attributes),
        p.value,
      ]),
    );
    const ok = byAttributes.get(
      JSON.stringify({
        'http.request.method': 'GET',
        'url.scheme': 'http',
        'http.route': '/widgets/{widget_id}',
        'http.response.status_code': 200,
      }),
    );
    expect(ok?.count).toBe(2);
    expect(ok?.buckets.boundaries).toEqual(HTTP_DURATION_BUCKETS);
    // Seconds, not milliseconds: two quick requests on loopback take well under a second.
    expect(ok!.sum).toBeGreaterThan(0);
    expect(ok!.sum).toBeLessThan(2);
    const failed = byAttributes.get(
      JSON.stringify({
        'http.request.method': 'GET',
        'url.scheme': 'http',
        'http.route': '/boom',
        'http.response.status_code': 500,
        'error.type': '500',
      }),
    );
    expect(failed?.count).toBe(1);
    // Unrouted: no http.route (never the raw path).
    const missed = byAttributes.get(
      JSON.stringify({
        'http.request.method': 'GET',
        'url.scheme': 'http',
        'http.response.status_code': 404,
      }),
    );
    expect(missed?.count).toBe(1);
    expect([...byAttributes.keys()].some((k) => k.includes('/widgets/a'))).toBe(false);
  });
});

describe('http.server.active_requests', () => {
  it('counts requests in flight by method and scheme', async () => {
    const pending = client.get('/held');
    for (let i = 0; i < 200; i++) {
      const [[, value] = [{}, 0]] = await points('http.server.active_requests');
      if (value === 1) break;
      await sleep(5);
    }
    expect(await points('http.server.active_requests')).toEqual([
      [{ 'http.request.method': 'GET', 'url.scheme': 'http' }, 1],
    ]);
    release();
    expect((await pending).status).toBe(200);
    expect(await points('http.server.active_requests')).toEqual([
      [{ 'http.request.method': 'GET', 'url.scheme': 'http' }, 0],
    ]);
  });
});

describe('WebSocket sessions', () => {
  it('counts open sessions and records their duration with the close code', async () => {
    const socket = new Client(`${client.url.replace(/^http/, 'ws')}/rooms/blue`);
    await once(socket, 'open');
    for (let i = 0; i < 200 && (await points('api.websocket.active_sessions'))[0]?.[1] !== 1; i++)
      await sleep(5);
    expect(await points('api.websocket.active_sessions')).toEqual([[{ 'http.route': '/rooms/{room}' }, 1]]);
    socket.send('bye');
    await once(socket, 'close');
    for (let i = 0; i < 200 && (await points('api.websocket.active_sessions'))[0]?.[1] !== 0; i++)
      await sleep(5);
    expect(await points('api.websocket.active_sessions')).toEqual([[{ 'http.route': '/rooms/{room}' }, 0]]);
    const durations = await points<Histogram>('api.websocket.session.duration');
    expect(durations.map(([a, h]) => [a, h.count])).toEqual([
      [{ 'http.route': '/rooms/{room}', 'websocket.close.code': 4001 }, 1],
    ]);
  });
});

describe('task metrics', () => {
  it('record each run’s duration and report the queue depth from its stats', async () => {
    const depth = await points('api.task.queue.depth');
    expect(depth).toEqual([
      [{ 'messaging.destination.name': 'jobs', 'api.task.state': 'queued' }, 0],
      [{ 'messaging.destination.name': 'jobs', 'api.task.state': 'in_flight' }, 0],
    ]);
    expect((await client.post('/jobs', { json: { n: 1 } })).status).toBe(204);
    for (let i = 0; i < 400 && ran.length < 1; i++) await sleep(5);
    for (let i = 0; i < 200 && (await points('messaging.process.duration')).length === 0; i++) await sleep(5);
    const runs = await points<Histogram>('messaging.process.duration');
    expect(runs.map(([a, h]) => [a, h.count])).toEqual([
      [
        {
          'messaging.system': 'api.tasks',
          'messaging.destination.name': 'Job',
          'api.task.name': 'Job',
          'api.task.outcome': 'processed',
        },
        1,
      ],
    ]);
    expect(runs[0]![1].sum).toBeGreaterThan(0.004);
  });
});

describe('otel({ metrics: false })', () => {
  it('records nothing', async () => {
    class Off extends BaseApp {
      protected override async wire(): Promise<void> {
        this.include(otel({ metrics: false }));
        this.includeResource(new Widgets());
      }
    }
    const before = (await points<Histogram>('http.server.request.duration')).reduce(
      (n, [, h]) => n + h.count,
      0,
    );
    const off = await TestClient.start(new Off({ logger: quiet }));
    try {
      expect((await off.get('/widgets/z')).status).toBe(200);
    } finally {
      await off.close();
    }
    const after = (await points<Histogram>('http.server.request.duration')).reduce(
      (n, [, h]) => n + h.count,
      0,
    );
    expect(after).toBe(before);
  });
});

// Last: from here on a producer exists in this process.
describe('a producer made after an app was wired', () => {
  it('leaves that app on the instruments; an app wired after it aggregates', async () => {
    const widgets = { 'http.route': '/widgets/{widget_id}', 'http.response.status_code': 200 };
    const sdkCount = async () =>
      (await points<Histogram>('http.server.request.duration'))
        .filter(([a]) => a['http.route'] === widgets['http.route'] && a['http.response.status_code'] === 200)
        .reduce((n, [, h]) => n + h.count, 0);
    const producer = otelMetricProducer();
    const before = await sdkCount();
    expect((await client.get('/widgets/late')).status).toBe(200);
    expect(await sdkCount()).toBe(before + 1);
    class Later extends BaseApp {
      protected override async wire(): Promise<void> {
        this.include(otel());
        this.includeResource(new Widgets());
      }
    }
    const later = await TestClient.start(new Later({ logger: quiet }));
    try {
      expect((await later.get('/widgets/x')).status).toBe(200);
    } finally {
      await later.close();
    }
    expect(await sdkCount()).toBe(before + 1);
    const { resourceMetrics } = await producer.collect();
    const aggregated = resourceMetrics.scopeMetrics
      .flatMap((s) => s.metrics)
      .filter((m) => m.descriptor.name === 'http.server.request.duration')
      .flatMap((m) => m.dataPoints as Array<{ attributes: Record<string, unknown>; value: Histogram }>)
      .map((p) => [p.attributes, p.value.count]);
    expect(aggregated).toEqual([[{ 'http.request.method': 'GET', 'url.scheme': 'http', ...widgets }, 1]]);
  });
});
