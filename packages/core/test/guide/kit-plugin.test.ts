import { readFileSync } from 'node:fs';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { BaseApp, Endpoint, Struct, WiringError } from '@api/core';
import type { Extension } from '@api/core/extension';
import { throttle } from './kit-plugin';
import { clientFactory, memoryLogger } from '../fixtures';

const Ok = Struct('Ok', { ok: v.boolean() });
class Things extends Endpoint('/things') {
  get = this.operation({ returns: Ok }, () => ({ ok: true }));
  post = this.operation({ returns: Ok }, () => ({ ok: true }));
}
function appWith(...extensions: Extension<void>[]): BaseApp {
  class App extends BaseApp {
    protected override async wire(): Promise<void> {
      for (const extension of extensions) this.include(extension);
      this.includeEndpoint(new Things());
    }
  }
  return new App({ logger: memoryLogger() });
}
function thrown(fn: () => unknown): WiringError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(WiringError);
    return error as WiringError;
  }
  throw new Error('did not throw');
}

const client = clientFactory();

describe('the checking-kit example (docs/extensions.md)', () => {
  it('contributes to the methods it covers', async () => {
    const c = client(appWith(throttle({ limit: 5 })));
    expect((await c.post('/things')).headers.get('x-throttle-limit')).toBe('5');
    expect((await c.get('/things')).headers.has('x-throttle-limit')).toBe(false);
  });

  it('words every mistake through the kit, with its code', async () => {
    expect(thrown(() => throttle({ limt: 5 })).message).toBe(
      'throttle(options): unknown option "limt" (did you mean "limit"?). Fix: use only limit, windowMs, methods.',
    );
    expect(thrown(() => throttle({ limit: 0 })).message).toBe(
      'throttle(options): limit must be a whole number of requests ≥ 1, got 0. Fix: e.g. limit: 100.',
    );
    expect(thrown(() => throttle({ windowMs: 10 })).code).toBe('API_WIRING_THROTTLE_WINDOW');
    expect(thrown(() => throttle({ methods: ['post'] })).fix).toBe("write 'POST'");
    const twice = await appWith(throttle(), throttle())
      .start()
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(twice).toMatchObject({ code: 'API_WIRING_DUPLICATE', where: 'App.include(throttle())' });
  });

  it('is the code the guide shows', () => {
    const source = readFileSync(new URL('./kit-plugin.ts', import.meta.url), 'utf8');
    const guide = readFileSync(new URL('../../../../docs/extensions.md', import.meta.url), 'utf8');
    expect(guide).toContain(source.slice(source.indexOf('\n') + 1).trim());
  });
});
