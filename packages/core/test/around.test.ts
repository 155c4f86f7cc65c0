// `around` contributions wrap the rest of a request's run: a context entered there (an
// AsyncLocalStorage store, as a tracer's context manager uses) covers the handler, its awaits, the
// resume after the body was read, and the unrouted answers (404, 405, OPTIONS) too.
import { AsyncLocalStorage } from 'node:async_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import {
  BaseApp,
  Endpoint,
  MethodNotAllowedError,
  NotFoundError,
  Struct,
  defineExceptionHandler,
} from '../src/index';
import { defineExtension, type AroundHook } from '../src/extension';
import { clientFactory, memoryLogger } from './fixtures';

const als = new AsyncLocalStorage<string>();
const seenByHandlers: (string | undefined)[] = [];

class Ctx extends Endpoint('/ctx') {
  get = this.operation({ returns: v.string() }, async () => {
    await sleep(5);
    return als.getStore() ?? 'none';
  });
  post = this.operation(
    { json: Struct('Note', { text: v.string() }), returns: v.string() },
    async ({ json }) => `${json.text} in ${als.getStore() ?? 'none'}`,
  );
}

/** Records the store the funnel's custom handlers see for the router's own answers. */
const notFound = defineExceptionHandler({
  exception: NotFoundError,
  handleException: () => void seenByHandlers.push(als.getStore()),
});
const notAllowed = defineExceptionHandler({
  exception: MethodNotAllowedError,
  handleException: () => void seenByHandlers.push(als.getStore()),
});

function tracing(around: AroundHook): ReturnType<typeof defineExtension<void>> {
  return defineExtension({ name: 'tracing', setup: (wiring) => wiring.addContributor(() => ({ around })) });
}

function app(...arounds: AroundHook[]): BaseApp {
  class App extends BaseApp {
    protected override async wire(): Promise<void> {
      for (const around of arounds) this.include(tracing(around));
      this.includeExceptionHandler(notFound);
      this.includeExceptionHandler(notAllowed);
      this.includeEndpoint(new Ctx());
    }
  }
  return new App({ logger: memoryLogger() });
}

const client = clientFactory();
const enterStore: AroundHook = (ex, next) =>
  als.run(`${ex.method} ${ex.route?.path ?? '(unrouted)'}`, next, ex);

describe('around contributions', () => {
  it('cover the handler and what it awaits, and the run after the body was read', async () => {
    const c = client(app(enterStore));
    expect((await c.get('/ctx')).json()).toBe('GET /ctx');
    const posted = await c.post('/ctx', { json: { text: 'hi' } });
    expect(posted.status).toBe(200);
    expect(posted.json()).toBe('hi in POST /ctx');
  });

  it('cover unrouted answers: 404, 405 and the automatic OPTIONS', async () => {
    seenByHandlers.length = 0;
    const entered: string[] = [];
    const c = client(
      app((ex, next) => {
        entered.push(`${ex.method} ${ex.path}`);
        enterStore(ex, next);
      }),
    );
    expect((await c.get('/nowhere')).status).toBe(404);
    expect((await c.delete('/ctx')).status).toBe(405);
    expect((await c.options('/ctx')).status).toBe(204);
    expect(seenByHandlers).toEqual(['GET (unrouted)', 'DELETE /ctx']);
    expect(entered).toEqual(['GET /nowhere', 'DELETE /ctx', 'OPTIONS /ctx']);
  });

  it('nest in order: the first contribution is outermost', async () => {
    const order: string[] = [];
    const c = client(
      app(
        (ex, next) => {
          order.push('outer in');
          next(ex);
          order.push('outer out');
        },
        (ex, next) => {
          order.push('inner in');
          next(ex);
          order.push('inner out');
        },
      ),
    );
    expect((await c.get('/ctx')).status).toBe(200);
    expect(order).toEqual(['outer in', 'inner in', 'inner out', 'outer out']);
  });

  it('fail closed: a throw before next, or no next at all, is a logged 500', async () => {
    for (const [around, logged] of [
      [
        () => {
          throw new Error('tracer broke');
        },
        'error GET /ctx failed with an uncaught exception',
      ],
      [() => undefined, 'error GET /ctx failed with an uncaught exception'],
    ] as const) {
      expect((await answers500(around)).lines).toEqual([logged]);
    }
  });

  it('a hook passing next() another object than its exchange is a logged 500 naming the contract', async () => {
    const logger = await answers500((ex, next) => next({ ...ex }));
    expect(logger.lines).toEqual(['error GET /ctx failed with an uncaught exception']);
    expect((logger.errors[0] as Error).message).toBe(
      'an around hook called next() with another object than the exchange it was given',
    );
  });

  it('a throw after the run began is logged; the answer stands', async () => {
    const logger = memoryLogger();
    class App extends BaseApp {
      protected override async wire(): Promise<void> {
        this.include(
          tracing((ex, next) => {
            next(ex);
            throw new Error('span export failed');
          }),
        );
        this.includeEndpoint(new Ctx());
      }
    }
    const res = await client(new App({ logger })).get('/ctx');
    expect(res.status).toBe(200);
    expect(logger.lines).toEqual(['warn GET /ctx: an around hook failed after the run began']);
    expect((logger.errors[0] as Error).message).toBe('span export failed');
  });
});

/** GET /ctx under one around hook: asserts the plain 500 Problem and returns what was logged. */
async function answers500(around: AroundHook): Promise<ReturnType<typeof memoryLogger>> {
  const logger = memoryLogger();
  class App extends BaseApp {
    protected override async wire(): Promise<void> {
      this.include(tracing(around));
      this.includeEndpoint(new Ctx());
    }
  }
  const res = await client(new App({ logger })).get('/ctx');
  expect(res.status).toBe(500);
  expect(res.json()).toEqual({ type: 'internal-server-error', title: 'Internal server error', status: 500 });
  return logger;
}
