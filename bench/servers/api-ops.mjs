// The @api bench app (servers/api.mjs) with production operations turned on, for the overhead
// co-runs of `pnpm bench`: the request log, and @api/otel with no SDK registered. Each variant is a
// small file (api-pino, api-log, api-otel) that calls `serveVariant`.
import { pino } from 'pino';
import { serve } from '@api/core';
import { otel } from '@api/otel';
import { App } from './api.mjs';

/**
 * Registers the OpenTelemetry metrics SDK (a reader nobody collects from: what recording costs,
 * without exporting), for the `api-metrics` variant.
 */
async function registerMetricsSdk() {
  const { metrics } = await import('@opentelemetry/api');
  const { MeterProvider, MetricReader } = await import('@opentelemetry/sdk-metrics');
  class IdleReader extends MetricReader {
    async onForceFlush() {}
    async onShutdown() {}
  }
  metrics.setGlobalMeterProvider(new MeterProvider({ readers: [new IdleReader()] }));
}

/**
 * Builds and (when run as a script) serves one variant.
 *
 * @param {{ requestLog?: boolean, pinoToDevNull?: boolean, otel?: boolean | 'no-metrics',
 *   metricsSdk?: boolean, options?: object, main: string }} variant
 *   `pinoToDevNull`: the app logs through a real pino instance writing to /dev/null (pino's default
 *   synchronous destination); `requestLog`: core's access log on; `otel`: `otel()` included, and no
 *   trace SDK registered anywhere, so its cost is the API's no-op tracer (`'no-metrics'`:
 *   `otel({ metrics: false })`); `metricsSdk`: the metrics SDK registered (recording for real);
 *   `options`: more app options (`limits.deadlineMs`, `loadShedding`, …).
 */
export async function serveVariant(variant) {
  if (variant.metricsSdk) await registerMetricsSdk();
  class Variant extends App {
    async wire() {
      if (variant.otel) this.include(otel(variant.otel === 'no-metrics' ? { metrics: false } : {}));
      await super.wire();
    }
  }
  const logger = variant.pinoToDevNull
    ? pino(pino.destination('/dev/null'))
    : { info: () => {}, warn: () => {}, error: (m, e) => console.error(m, e) };
  const app = new Variant({ logger, requestLog: variant.requestLog === true, ...variant.options });
  await app.start();
  if (process.argv[1] === variant.main) {
    await serve(app, { port: Number(process.env.PORT), host: process.env.HOST ?? '127.0.0.1', quiet: true });
    console.log('ready');
  }
  return app;
}
