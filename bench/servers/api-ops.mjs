// The @api bench app (servers/api.mjs) with production operations turned on, for the overhead
// co-runs of `pnpm bench`: the request log, and @api/otel with no SDK registered. Each variant is a
// small file (api-pino, api-log, api-otel) that calls `serveVariant`.
import { pino } from 'pino';
import { serve } from '@api/core';
import { otel } from '@api/otel';
import { App } from './api.mjs';

/**
 * Builds and (when run as a script) serves one variant.
 *
 * @param {{ requestLog?: boolean, pinoToDevNull?: boolean, otel?: boolean, main: string }} variant
 *   `pinoToDevNull`: the app logs through a real pino instance writing to /dev/null (pino's default
 *   synchronous destination); `requestLog`: core's access log on; `otel`: `otel()` included, and no
 *   SDK registered anywhere, so its cost is the API's no-op tracer.
 */
export async function serveVariant(variant) {
  class Variant extends App {
    async wire() {
      if (variant.otel) this.include(otel());
      await super.wire();
    }
  }
  const logger = variant.pinoToDevNull
    ? pino(pino.destination('/dev/null'))
    : { info: () => {}, warn: () => {}, error: (m, e) => console.error(m, e) };
  const app = new Variant({ logger, requestLog: variant.requestLog === true });
  await app.start();
  if (process.argv[1] === variant.main) {
    await serve(app, { port: Number(process.env.PORT), host: process.env.HOST ?? '127.0.0.1', quiet: true });
    console.log('ready');
  }
  return app;
}
