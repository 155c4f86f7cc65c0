import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as v from 'valibot';
import { afterEach, describe, expect, it } from 'vitest';
import { TestClient } from '@api/testing';
import { BaseApp, BaseFactory, Endpoint, serve, Struct, WiringError } from '../src/index';
import { expectWiringError } from './expect-wiring-error';
import { defineExtension } from '../src/extension';
import { memoryLogger } from './fixtures';

const events: string[] = [];
afterEach(() => {
  events.length = 0;
});

function resource(name: string): { close(): void } {
  events.push(`open ${name}`);
  return { close: () => void events.push(`close ${name}`) };
}
function asyncResource(name: string): AsyncDisposable {
  events.push(`open ${name}`);
  return { [Symbol.asyncDispose]: async () => void events.push(`close ${name}`) };
}

class Factory extends BaseFactory {
  createDb(): { close(): void } {
    return this.enter(resource('db'));
  }
  async createQueue(): Promise<AsyncDisposable> {
    return this.aenter(Promise.resolve(asyncResource('queue')));
  }
}

const Health = Struct('Health', { status: v.string() });
class HealthEndpoint extends Endpoint('/healthz') {
  get = this.operation({ returns: Health }, () => ({ status: 'ok' }));
}

class App extends BaseApp.withFactory(Factory) {
  wires = 0;
  protected override async wire(): Promise<void> {
    this.wires++;
    this.factory.createDb();
    await this.factory.createQueue();
    this.enter(resource('app-sync'));
    await this.aenter(asyncResource('app-async'));
    this.includeEndpoint(new HealthEndpoint());
  }
}

describe('BaseApp lifecycle', () => {
  it('runs wire() once and tears down in exact reverse order of opening, sync and async interleaved', async () => {
    const app = new App({ logger: memoryLogger() });
    const client = new TestClient(app);
    await client.start();
    await client.start();
    expect((await client.get('/healthz')).json()).toEqual({ status: 'ok' });
    expect(app.wires).toBe(1);
    await client.close();
    expect(events).toEqual([
      'open db',
      'open queue',
      'open app-sync',
      'open app-async',
      'close app-async',
      'close app-sync',
      'close queue',
      'close db',
    ]);
  });

  it('uses a prebuilt factory when one is supplied', async () => {
    const built: string[] = [];
    class StubFactory extends Factory {
      override createDb(): { close(): void } {
        built.push('stub');
        return { close: () => undefined };
      }
    }
    const stub = new StubFactory(new (await import('../src/index')).ExitStacks());
    const app = new App({ factory: stub, logger: memoryLogger() });
    await new TestClient(app).start();
    expect(built).toEqual(['stub']);
    await app.close();
  });

  it('tears down what was entered when wire() fails partway, and rethrows', async () => {
    class Failing extends BaseApp.withFactory(Factory) {
      protected override async wire(): Promise<void> {
        this.factory.createDb();
        await this.aenter(asyncResource('half'));
        throw new WiringError('Failing.wire: boom. Fix: none.');
      }
    }
    const client = new TestClient(new Failing({ logger: memoryLogger() }));
    await expect(client.start()).rejects.toBeInstanceOf(WiringError);
    expect(events).toEqual(['open db', 'open half', 'close half', 'close db']);
  });

  it('rejects mounting outside wire()', () => {
    class Late extends BaseApp {
      protected override async wire(): Promise<void> {}
      mountLate(): void {
        this.includeEndpoint(new HealthEndpoint());
      }
    }
    const late = () => new Late().mountLate();
    expect(expectWiringError(late, 'API_WIRING_APP_STATE', 'Late.includeEndpoint').problem).toBe(
      'called outside wire()',
    );
  });
});

describe('BaseFactory.open', () => {
  it('works with await using and unwinds async first, each stack in reverse', async () => {
    {
      await using factory = await Factory.open();
      factory.createDb();
      await factory.createQueue();
    }
    expect(events).toEqual(['open db', 'open queue', 'close queue', 'close db']);
  });

  it('unwinds a callback scope even when it throws', async () => {
    await expect(
      Factory.open(async (factory) => {
        factory.createDb();
        throw new Error('inside');
      }),
    ).rejects.toThrow('inside');
    expect(events).toEqual(['open db', 'close db']);
  });
});

describe('serve()', () => {
  it('serves over a real socket and is usable as a plain listener', async () => {
    const running = await serve(new App({ logger: memoryLogger() }), {
      port: 0,
      signals: false,
      quiet: true,
    });
    const res = await fetch(`${running.url}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
    await running.close();
    expect(events.at(-1)).toBe('close db');
  });

  it('works as a plain http.createServer listener, starting the app on the first request', async () => {
    const app = new App({ logger: memoryLogger() });
    const server = createServer(app.listener);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    expect(app.serving).toBe(false);
    const [a, b] = await Promise.all([
      fetch(`http://127.0.0.1:${port}/healthz`),
      fetch(`http://127.0.0.1:${port}/healthz`),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(await a.json()).toEqual({ status: 'ok' });
    expect(app.wires).toBe(1);
    expect(app.serving).toBe(true);
    await new Promise((resolve) => server.close(resolve));
    await app.close();
    expect(events.at(-1)).toBe('close db');
  });

  it('stops waiting for a stuck request at the shutdown deadline, then tears down', async () => {
    class Stuck extends Endpoint('/stuck') {
      get = this.operation({ returns: Health }, () => {
        events.push('stuck started');
        return new Promise<never>(() => undefined);
      });
    }
    class StuckApp extends BaseApp {
      protected override async wire(): Promise<void> {
        this.enter(resource('svc'));
        this.includeEndpoint(new Stuck());
      }
    }
    const running = await serve(
      new StuckApp({ logger: memoryLogger(), limits: { shutdownTimeoutMs: 300 } }),
      {
        port: 0,
        signals: false,
        quiet: true,
      },
    );
    const pending = fetch(`${running.url}/stuck`).then(
      () => 'answered',
      () => 'connection closed',
    );
    while (!events.includes('stuck started')) await new Promise((r) => setTimeout(r, 5));
    const started = Date.now();
    await running.close();
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(await pending).toBe('connection closed');
    expect(events).toEqual(['open svc', 'stuck started', 'close svc']);
  });

  it('at the cap with no upload still arriving, the drain phase starts at once (no grace wait)', async () => {
    class Stuck extends Endpoint('/stuck') {
      get = this.operation({ returns: Health }, () => {
        events.push('stuck started');
        return new Promise<never>(() => undefined);
      });
    }
    const drainPhase = defineExtension({
      name: 'drain-probe',
      setup: (wiring) => wiring.onDrain(() => void events.push('drain began')),
    });
    class StuckApp extends BaseApp {
      protected override async wire(): Promise<void> {
        this.include(drainPhase);
        this.includeEndpoint(new Stuck());
      }
    }
    const logger = {
      info: () => undefined,
      error: () => undefined,
      // The cap's line: anything that waited a timer before the drain would let this
      // macrotask run first. Ordering, not a duration: load cannot flip it.
      warn: (message: string) => {
        events.push(message.startsWith('StuckApp: shutdown cap') ? 'cap reached' : message);
        setImmediate(() => events.push('next macrotask'));
      },
    };
    const running = await serve(new StuckApp({ logger, limits: { shutdownTimeoutMs: 100 } }), {
      port: 0,
      signals: false,
      quiet: true,
    });
    const pending = fetch(`${running.url}/stuck`).catch(() => 'connection closed');
    while (!events.includes('stuck started')) await new Promise((r) => setTimeout(r, 5));
    await running.close();
    expect(await pending).toBe('connection closed');
    expect(events).toEqual(['stuck started', 'cap reached', 'drain began', 'next macrotask']);
  });

  it('finishes in-flight requests before tearing the app down', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    class Slow extends Endpoint('/slow') {
      get = this.operation({ returns: Health }, async () => {
        events.push('handler started');
        await gate;
        events.push('handler finished');
        return { status: 'slow' };
      });
    }
    class SlowApp extends BaseApp {
      protected override async wire(): Promise<void> {
        this.enter(resource('svc'));
        this.includeEndpoint(new Slow());
      }
    }
    const running = await serve(new SlowApp({ logger: memoryLogger() }), {
      port: 0,
      signals: false,
      quiet: true,
    });
    const pending = fetch(`${running.url}/slow`);
    while (!events.includes('handler started')) await new Promise((r) => setTimeout(r, 5));
    const closed = running.close();
    await new Promise((r) => setTimeout(r, 50));
    expect(events).not.toContain('close svc');
    release();
    const res = await pending;
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'slow' });
    await closed;
    expect(events).toEqual(['open svc', 'handler started', 'handler finished', 'close svc']);
  });
});
