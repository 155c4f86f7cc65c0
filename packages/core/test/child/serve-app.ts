// A child process for the signal tests: serves a tiny app, prints its port, shuts down on signals.
import * as v from 'valibot';
import { BaseApp, Endpoint, serve, Struct } from '../../src/index';

class Slow extends Endpoint('/slow') {
  get = this.operation({ returns: Struct('Done', { done: v.boolean() }) }, async () => {
    console.log('slow started');
    await new Promise((resolve) => setTimeout(resolve, 300));
    return { done: true };
  });
}
class App extends BaseApp {
  protected override async wire(): Promise<void> {
    this.includeEndpoint(new Slow());
  }
}
const running = await serve(new App(), { port: 0 });
console.log(`port=${running.port}`);
