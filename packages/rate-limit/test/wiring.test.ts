// Startup mistakes: coded WiringErrors naming the place and the fix.
import { describe, expect, it } from 'vitest';
import { BaseApp, WiringError } from '@api/core';
import type { Extension } from '@api/core/extension';
import { TestClient } from '@api/testing';
import {
  memoryStore,
  perOperation,
  RateLimit,
  rateLimit,
  rateLimits,
  redisStore,
  type RedisClient,
} from '../src/index';
import { Notes, perAddress, tokenAuth, Widgets } from './fixtures/app';
import { memoryLogger } from './fixtures/logger';

/** What a test's `wire()` may call (BaseApp's mount methods are protected). */
interface Wire {
  include(extension: Extension<unknown>): void;
  includeEndpoint(endpoint: object, options?: Record<string, unknown>): void;
  includeResource(resource: object, options?: Record<string, unknown>): void;
}

async function startFails(wire: (app: Wire) => void): Promise<WiringError> {
  class App extends BaseApp {
    protected override async wire(): Promise<void> {
      wire({
        include: (extension) => void this.include(extension),
        includeEndpoint: (endpoint, options) => this.includeEndpoint(endpoint as never, options as never),
        includeResource: (resource, options) => this.includeResource(resource as never, options as never),
      });
    }
  }
  const client = new TestClient(new App({ logger: memoryLogger() }));
  try {
    await client.start();
  } catch (error) {
    expect(error).toBeInstanceOf(WiringError);
    return error as WiringError;
  } finally {
    await client.close();
  }
  throw new Error('start() did not fail');
}

const fakeRedis: RedisClient = {
  status: 'ready',
  evalsha: () => Promise.resolve([1, 0]),
  eval: () => Promise.resolve([1, 0]),
  on: () => undefined,
  once: () => undefined,
  off: () => undefined,
  quit: () => Promise.resolve(),
  disconnect: () => undefined,
};

describe('new RateLimit', () => {
  it.each([
    [{ name: 'a b', limit: 1, window: 1 }, /name must be 1–64 letters/],
    [{ name: 'a', limit: 0, window: 1 }, /limit must be a whole number from 1 to 10\^9, got a number/],
    [{ name: 'a', limit: 1.5, window: 1 }, /limit must be a whole number/],
    [{ name: 'a', limit: 1, window: 0.5 }, /window must be a whole number of seconds/],
    [{ name: 'a', limit: 5, window: 1, cost: 6 }, /cost must be a whole number from 0 to limit \(5\)/],
    [{ name: 'a', limit: 5, window: 1, key: 'ip' }, /key must be 'address', byUser\(…\) or a function/],
    [{ name: 'a', limit: 5, window: 1, windowMs: 3 }, /unknown option "windowMs"/],
  ])('refuses %j', (options, message) => {
    expect(() => new RateLimit(options as never)).toThrow(message);
  });

  it('names the policy and the fix, with a code', () => {
    try {
      new RateLimit({ name: 'api', limit: 0, window: 60 });
      throw new Error('no error');
    } catch (error) {
      expect(error).toBeInstanceOf(WiringError);
      expect((error as WiringError).code).toBe('API_WIRING_INVALID_ARGUMENT');
      expect((error as WiringError).where).toBe('new RateLimit("api")');
      expect((error as WiringError).fix).toBe('e.g. limit: 100');
    }
  });

  it('refuses two policies of one name in rateLimits(…)', () => {
    expect(() => rateLimits(perAddress, new RateLimit({ name: 'api', limit: 1, window: 1 }))).toThrow(
      'rateLimits(…): two policies are named "api". Fix: name each policy once.',
    );
  });
});

describe('rateLimit()', () => {
  it('requires onStoreDown with a store that can fail (no default is chosen for the app)', async () => {
    const error = await startFails((app) => app.include(rateLimit({ store: redisStore(fakeRedis) })));
    expect(error.message).toBe(
      "App.include(rateLimit()): the redis store can be unreachable, and onStoreDown does not say what limited routes do then. Fix: choose onStoreDown: 'allow' (fail open: serve unlimited) or onStoreDown: 'refuse' (fail closed: answer 503).",
    );
  });

  it('refuses a second install, an unknown option and a store that is not one', async () => {
    expect(
      (
        await startFails((app) => {
          app.include(rateLimit({ store: memoryStore() }));
          app.include(rateLimit({ store: memoryStore() }));
        })
      ).code,
    ).toBe('API_WIRING_DUPLICATE');
    const unknown = await startFails((app) =>
      app.include(rateLimit({ store: memoryStore(), polcy: perAddress } as never)),
    );
    expect([unknown.code, unknown.where]).toEqual(['API_WIRING_UNKNOWN_OPTION', 'App.include(rateLimit())']);
    expect(unknown.problem).toBe('unknown option "polcy" (did you mean "policy"?)');
    expect((await startFails((app) => app.include(rateLimit({ store: {} as never })))).message).toMatch(
      /store must be a rate-limit store, got an object/,
    );
  });

  it('fails a mount option on an app without rateLimit()', async () => {
    const error = await startFails((app) => app.includeEndpoint(new Notes(), { rateLimit: perAddress }));
    expect(error.code).toBe('API_WIRING_MOUNT_OPTION');
    expect(error.where).toBe('Notes.get');
  });

  it('refuses two different policies of one name in one app', async () => {
    const twin = new RateLimit({ name: 'api', limit: 9, window: 9 });
    const error = await startFails((app) => {
      app.include(rateLimit({ store: memoryStore(), policy: perAddress }));
      app.includeEndpoint(new Notes(), { rateLimit: twin });
    });
    expect(error.code).toBe('API_WIRING_DUPLICATE');
    expect(error.problem).toBe('two different policies are named "api" (their buckets would be shared)');
  });

  it('refuses a perOperation name that no mounted operation has', async () => {
    const error = await startFails((app) => {
      app.include(rateLimit({ store: memoryStore() }));
      // The type check refuses this too (mount-option.test-d.ts).
      app.includeResource(new Widgets(), { auth: tokenAuth, rateLimit: perOperation({ crate: perAddress }) });
    });
    expect(error.message).toBe(
      'perOperation({ crate: … }): no operation "crate" is mounted with this option. Fix: name an operation of the mount: create, readMany.',
    );
  });
});
