// Without an SDK the package starts none: requests are served as before and handlers see no
// active span (the API's no-op tracer). An SDK the app registers later still gets every span.
import { trace } from '@opentelemetry/api';
import { InMemorySpanExporter, NodeTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-node';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BaseApp, Endpoint } from '@api/core';
import { TestClient } from '@api/testing';
import { otel, taskContext } from '../src/index';

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
class Probe extends Endpoint('/probe') {
  get = this.operation({ returns: v.string() }, () => {
    const span = trace.getActiveSpan();
    return span === undefined ? 'no active span' : `recording: ${span.isRecording()}`;
  });
}
class App extends BaseApp {
  protected override async wire(): Promise<void> {
    this.include(otel());
    this.includeEndpoint(new Probe());
  }
}

let client: TestClient;
beforeAll(async () => {
  client = await TestClient.start(new App({ logger: quiet }));
});
afterAll(() => client.close());

describe('otel without an SDK', () => {
  it('serves as before; handlers see no active span', async () => {
    const res = await client.get('/probe', {
      headers: { traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' },
    });
    expect(res.status).toBe(200);
    expect(res.json()).toBe('no active span');
  });

  it('task items carry nothing and run as they are', () => {
    const propagation = taskContext();
    expect(propagation.capture()).toBeUndefined();
    let ran = 0;
    const task = { name: 'Item', backend: 'in-process', queue: undefined, attempt: 1 };
    expect(propagation.restore({ traceparent: 'x' }, task, () => (ran++, 'processed'))).toBe('processed');
    expect(ran).toBe(1);
  });

  it('an SDK registered after wiring gets the spans (the tracer follows the global provider)', async () => {
    const exporter = new InMemorySpanExporter();
    new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).register();
    expect((await client.get('/probe')).json()).toBe('recording: true');
    for (let i = 0; i < 200 && exporter.getFinishedSpans().length === 0; i++)
      await new Promise((resolve) => setTimeout(resolve, 5));
    expect(exporter.getFinishedSpans().map((s) => s.name)).toEqual(['GET /probe']);
  });
});
