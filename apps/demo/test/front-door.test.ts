// The startup log's URLs (issue 48 item 4, 44): derived from what the demo mounted, not a hand list
// — a route that is not mounted is not listed; the lines main.ts logs are exactly these.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operatorUrls } from '../src/extensions/front-door';
import { startMetrics } from '../src/metrics';
import { startDemo, type Demo } from './helpers/demo';

let demo: Demo;
beforeAll(async () => {
  demo = await startDemo({ metrics: startMetrics({ OTEL_METRICS_EXPORTER: 'prometheus' }) });
});
afterAll(async () => {
  await demo?.client.close();
});

describe('operatorUrls', () => {
  it('lists the page, docs, probes, metrics, mounted handlers and sockets the demo mounted, aligned', () => {
    expect(operatorUrls('http://127.0.0.1:8000', demo.app.catalogue)).toEqual([
      'the page:             http://localhost:8000/',
      'API docs:             http://localhost:8000/docs',
      'OpenAPI document:     http://localhost:8000/openapi.json',
      'notifications (SSE):  http://localhost:8000/assets/notifications.html',
      'health:               http://localhost:8000/healthz',
      'liveness probe:       http://localhost:8000/livez',
      'readiness probe:      http://localhost:8000/readyz',
      'metrics (Prometheus): http://localhost:8000/metrics',
      'mounted better-auth:  http://localhost:8000/api/auth',
      'mounted mcp-sdk:      http://localhost:8000/mcp-sdk',
      'WebSocket ChatSocket: ws://localhost:8000/chat',
    ]);
  });

  it('leaves out what is not mounted (no metrics exporter, no health probes)', async () => {
    const bare = await startDemo({ health: false });
    try {
      const lines = operatorUrls('http://[::1]:9000', bare.app.catalogue);
      expect(lines.some((l) => /\/metrics$|\/livez$|\/readyz$/.test(l))).toBe(false);
      expect(lines[0]).toBe('the page:             http://localhost:9000/');
      expect(lines).toContain('mounted better-auth:  http://localhost:9000/api/auth');
    } finally {
      await bare.client.close();
    }
  });
});
