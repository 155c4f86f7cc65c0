// A child process for the readiness test: an app with health probes, a slow route; SIGTERM flips
// readiness to 503, keeps serving for `drainDelayMs`, then shuts down.
import * as v from 'valibot';
import { BaseApp, Endpoint, serve, Struct } from '../../src/index';

class Slow extends Endpoint('/slow') {
  get = this.operation({ returns: Struct('Done', { done: v.boolean() }) }, async () => {
    console.log('slow started');
    await new Promise((resolve) => setTimeout(resolve, 600));
    return { done: true };
  });
}
class App extends BaseApp {
  protected override async wire(): Promise<void> {
    this.includeEndpoint(new Slow());
  }
}
const running = await serve(new App({ health: true }), { port: 0, drainDelayMs: 1000 });
console.log(`port=${running.port}`);
