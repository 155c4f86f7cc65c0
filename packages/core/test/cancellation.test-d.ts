// The `signal` source's type: an AbortSignal in the handler's input, only where declared; the
// new options' types.
import * as v from 'valibot';
import { describe, expectTypeOf, it } from 'vitest';
import { BaseApp, Endpoint, Struct, type AppOptions, type LoadSheddingOptions } from '../src/index';

const Done = Struct('Done', { done: v.boolean() });

describe('signal: true', () => {
  it('binds an AbortSignal, and nothing where it is not declared', () => {
    class Jobs extends Endpoint('/jobs') {
      get = this.operation({ signal: true, returns: Done }, (input) => {
        expectTypeOf(input.signal).toEqualTypeOf<AbortSignal>();
        return { done: !input.signal.aborted };
      });
      post = this.operation({ returns: Done }, (input) => {
        expectTypeOf(input).not.toHaveProperty('signal');
        return { done: true };
      });
    }
    expectTypeOf(new Jobs()).toBeObject();
  });

  it('takes only true', () => {
    class Bad extends Endpoint('/bad') {
      // @ts-expect-error -- the signal source is declared with true
      get = this.operation({ signal: false, returns: Done }, () => ({ done: true }));
    }
    expectTypeOf(new Bad()).toBeObject();
  });
});

describe('app options for running behind a load balancer', () => {
  it('type health, loadShedding, trustProxy and limits.deadlineMs', () => {
    const options: AppOptions = {
      health: { livePath: '/live', readyPath: '/ready' },
      loadShedding: { maxEventLoopDelayMs: 200 },
      trustProxy: 1,
      limits: { deadlineMs: 5000 },
    };
    expectTypeOf(options.loadShedding).toEqualTypeOf<LoadSheddingOptions | undefined>();
    class App extends BaseApp {
      protected override async wire(): Promise<void> {}
    }
    expectTypeOf(new App(options)).toBeObject();
    // @ts-expect-error -- trustProxy is a boolean or a hop count
    const bad: AppOptions = { trustProxy: 'yes' };
    expectTypeOf(bad).toBeObject();
  });
});
