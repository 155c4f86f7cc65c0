// The demo served by `serve()` (node:http, or the runtime's node:http layer), plus the suite's
// probes, on a free port; prints `READY <url>` once it listens. Run under each runtime by run.mjs.
import { serve } from '@api/core';
import { DemoApp } from '../../../apps/demo/src/app';
import { probes, state } from './probes';
import { WsStateProbe, wsProbes } from './ws-probes';

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

class RuntimeDemo extends DemoApp {
  protected override async wire(): Promise<void> {
    await super.wire();
    for (const Probe of probes) this.includeEndpoint(new Probe());
    this.includeEndpoint(new WsStateProbe());
    for (const probe of wsProbes) this.include(probe);
  }
}

const app = new RuntimeDemo({
  logger: process.env.RUNTIME_VERBOSE ? undefined : quiet,
  answerDelayMs: 0,
  taskLog: state.tasks,
});
const running = await serve(app, { port: 0, quiet: true });
console.log(`READY ${running.url}`);
