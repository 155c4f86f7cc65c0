// Task items carry the trace context of the request that enqueued them (@api/tasks's propagator,
// @api/otel's taskContext()): each run is a CONSUMER span in a trace of its own, linked to the
// request's span — in process, and on BullMQ across two processes on a real redis-server.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import {
  ATTR_MESSAGING_DESTINATION_NAME,
  ATTR_MESSAGING_OPERATION_NAME,
  ATTR_MESSAGING_OPERATION_TYPE,
  ATTR_MESSAGING_SYSTEM,
} from '@opentelemetry/semantic-conventions/incubating';
import * as v from 'valibot';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BaseApp, Endpoint, Struct, WiringError } from '@api/core';
import { TestClient } from '@api/testing';
import {
  backgroundTasks,
  bullmqBackend,
  type BackgroundTasks,
  type BackgroundTasksOptions,
} from '@api/tasks';
import { otel, taskContext } from '../src/index';
import * as own from '../src/tasks/task-context';
import { WidgetEvent } from './fixtures/widget-event';
import { skipRedis, startRedis, type RedisHandle } from '../../../config/test/redis';
import { exporter, REMOTE, spanNamed } from './helpers/tracing';

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
const tracer = trace.getTracer('handlers');

class Widgets extends Endpoint('/widgets/{widget_id}') {
  constructor(private readonly tasks: BackgroundTasks) {
    super();
  }
  post = this.operation(
    { path: Struct('WidgetPath', { widget_id: v.string() }), returns: v.string() },
    async ({ path }) => {
      await this.tasks.add(WidgetEvent, {
        action: path.widget_id === 'bad' ? 'failed' : 'created',
        widgetId: path.widget_id,
      });
      return 'queued';
    },
  );
}

function app(tasksOptions: BackgroundTasksOptions, handle?: (widgetId: string) => void): BaseApp {
  class App extends BaseApp {
    protected override async wire(): Promise<void> {
      this.include(otel());
      const tasks = this.include(
        backgroundTasks({ drainTimeout: 5, ...tasksOptions, propagator: taskContext() }),
      );
      if (handle)
        tasks.register(WidgetEvent, (event) => {
          tracer.startSpan(`record ${event.widgetId}`).end();
          if (event.action === 'failed') throw new Error('the index is down');
          handle(event.widgetId);
        });
      this.includeEndpoint(new Widgets(tasks));
    }
  }
  return new App({ logger: quiet });
}

afterEach(() => exporter.reset());

describe('taskContext() in process', () => {
  it('uses the messaging semantic convention names', () => {
    expect(own.ATTR_MESSAGING_SYSTEM).toBe(ATTR_MESSAGING_SYSTEM);
    expect(own.ATTR_MESSAGING_OPERATION_TYPE).toBe(ATTR_MESSAGING_OPERATION_TYPE);
    expect(own.ATTR_MESSAGING_OPERATION_NAME).toBe(ATTR_MESSAGING_OPERATION_NAME);
    expect(own.ATTR_MESSAGING_DESTINATION_NAME).toBe(ATTR_MESSAGING_DESTINATION_NAME);
  });

  it('each run is a CONSUMER span in its own trace, linked to the request that enqueued it', async () => {
    const done: string[] = [];
    const client = await TestClient.start(app({}, (id) => done.push(id)));
    try {
      const res = await client.post('/widgets/w1', { headers: { traceparent: REMOTE.traceparent } });
      expect(res.status).toBe(200);
      const request = await spanNamed('POST /widgets/{widget_id}');
      expect(request.spanContext().traceId).toBe(REMOTE.traceId);
      const task = await spanNamed('process WidgetEvent');
      expect(done).toEqual(['w1']);
      expect(task.kind).toBe(SpanKind.CONSUMER);
      expect(task.parentSpanContext).toBeUndefined();
      expect(task.spanContext().traceId).not.toBe(REMOTE.traceId);
      expect(task.links.map((l) => [l.context.traceId, l.context.spanId])).toEqual([
        [REMOTE.traceId, request.spanContext().spanId],
      ]);
      expect(task.attributes).toEqual({
        'messaging.system': 'api.tasks',
        'messaging.operation.type': 'process',
        'messaging.operation.name': 'process',
        'messaging.destination.name': 'WidgetEvent',
        'api.task.name': 'WidgetEvent',
        'api.task.attempt': 1,
        'api.task.outcome': 'processed',
      });
      expect(task.status.code).toBe(SpanStatusCode.UNSET);
      // The handler's own span nests under the task's.
      const record = await spanNamed('record w1');
      expect(record.parentSpanContext?.spanId).toBe(task.spanContext().spanId);
    } finally {
      await client.close();
    }
  });

  it('a failed run has the error status', async () => {
    const client = await TestClient.start(app({}, () => undefined));
    try {
      expect((await client.post('/widgets/bad')).status).toBe(200);
      const task = await spanNamed('process WidgetEvent');
      expect(task.status.code).toBe(SpanStatusCode.ERROR);
      expect(task.attributes).toMatchObject({ 'api.task.outcome': 'failed', 'error.type': '_OTHER' });
    } finally {
      await client.close();
    }
  });

  it('refuses options it cannot use (WiringError)', () => {
    expect(() => taskContext({ tracer: {} } as never)).toThrow(
      new WiringError(
        'taskContext(options): unknown option "tracer". Fix: use only tracerProvider, propagator (both default to the globally registered ones).',
      ),
    );
    expect(() => taskContext({ propagator: { extract: () => undefined } } as never)).toThrow(
      /^taskContext\(options\): propagator has no inject\(\) and extract\(\)/,
    );
  });
});

let redis: RedisHandle;
beforeAll(async () => {
  if (!skipRedis) redis = await startRedis();
}, 20_000);
afterAll(async () => {
  if (!skipRedis) await redis.stop();
});

interface PrintedSpan {
  readonly name: string;
  readonly kind: number;
  readonly context: { traceId: string; spanId: string };
  readonly parent: { traceId: string; spanId: string } | undefined;
  readonly links: { traceId: string; spanId: string }[];
  readonly attributes: Record<string, unknown>;
}

/** The worker process: its spans, printed one JSON line each. */
async function startWorker(queue: string): Promise<{ child: ChildProcess; spans: () => PrintedSpan[] }> {
  const fixture = fileURLToPath(new URL('./fixtures/task-worker.ts', import.meta.url));
  const child = spawn(process.execPath, ['--conditions=@api/source', '--import', 'tsx', fixture], {
    cwd: fileURLToPath(new URL('..', import.meta.url)),
    env: { ...process.env, REDIS_PORT: String(redis.port), QUEUE: queue },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
  for (let i = 0; !out.includes('ready\n'); i++) {
    if (i > 4000 || child.exitCode !== null) throw new Error(`the worker did not start:\n${out}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  const spans = (): PrintedSpan[] =>
    out
      .split('\n')
      .filter((line) => line.startsWith('span '))
      .map((line) => JSON.parse(line.slice(5)) as PrintedSpan);
  return { child, spans };
}

describe.skipIf(skipRedis)('taskContext() on BullMQ, across two processes', () => {
  it('the worker process’s span for the item is linked to the request span of the process that added it', async () => {
    const queue = `otel-${process.pid}`;
    const worker = await startWorker(queue);
    const client = await TestClient.start(
      app({
        backend: bullmqBackend({
          connection: { host: '127.0.0.1', port: redis.port },
          queueName: queue,
          worker: false,
        }),
      }),
    );
    try {
      const res = await client.post('/widgets/w7', { headers: { traceparent: REMOTE.traceparent } });
      expect(res.status).toBe(200);
      const request = await spanNamed('POST /widgets/{widget_id}');
      for (let i = 0; i < 2000 && worker.spans().length < 2; i++) await new Promise((r) => setTimeout(r, 5));
      const spans = worker.spans();
      const task = spans.find((s) => s.name === 'process WidgetEvent');
      expect(task).toBeDefined();
      expect(task!.kind).toBe(SpanKind.CONSUMER);
      expect(task!.parent).toBeUndefined();
      expect(task!.links).toEqual([{ traceId: REMOTE.traceId, spanId: request.spanContext().spanId }]);
      expect(task!.attributes).toMatchObject({
        'messaging.system': 'bullmq',
        'messaging.destination.name': queue,
        'api.task.name': 'WidgetEvent',
        'api.task.outcome': 'processed',
      });
      const record = spans.find((s) => s.name === 'record w7');
      expect(record?.parent).toEqual(task!.context);
    } finally {
      await client.close();
      const exited = new Promise((resolve) => worker.child.once('exit', resolve));
      worker.child.kill('SIGTERM');
      await exited;
    }
  }, 60_000);
});
