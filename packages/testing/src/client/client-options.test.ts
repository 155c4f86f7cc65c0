import { describe, expect, it } from 'vitest';
import { BaseApp, WiringError } from '@api/core';
import { quietLogger, TestApp, thrownWiringError } from '../../test/apps';
import { TestClient } from './test-client';

/** Builds a client the way an untyped (JavaScript) caller can. */
function build(app: unknown, options?: unknown): TestClient {
  return new (TestClient as unknown as new (app: unknown, options?: unknown) => TestClient)(app, options);
}
const thrown = thrownWiringError;

describe('TestClient arguments', () => {
  it('refuses the app class in place of an instance, naming the fix', () => {
    expect(thrown(() => build(TestApp)).message).toBe(
      'TestClient: expected an app (an instance of a BaseApp subclass, or a view of one with its `start`, `listener` and `close`), got the class TestApp. Fix: pass an instance: `new TestClient(new TestApp())`.',
    );
  });

  it.each([
    ['undefined', undefined, 'undefined'],
    ['a plain object', { wire() {} }, 'an object'],
    ['an object missing `close`', { start() {}, listener() {} }, 'an object'],
    ['a URL string', 'http://localhost:8000', '"http://localhost:8000"'],
    ['another class', class Server {}, 'the class Server'],
    ['the abstract BaseApp itself', BaseApp, 'the class BaseApp'],
  ])('refuses %s as the app', (_label, app, got) => {
    expect(thrown(() => build(app)).message).toBe(
      `TestClient: expected an app (an instance of a BaseApp subclass, or a view of one with its \`start\`, \`listener\` and \`close\`), got ${got}. Fix: pass \`new App()\` for your app class.`,
    );
  });

  it('accepts a structural view of an app (a wrapper around its listener) and serves it', async () => {
    const app = new TestApp({ logger: quietLogger() });
    let seen = 0;
    const view = {
      start: () => app.start(),
      listener: (...args: Parameters<TestApp['listener']>) => {
        seen += 1;
        app.listener(...args);
      },
      upgradeListener: app.upgradeListener,
      hasUpgradeRoutes: false,
      drain: () => app.drain(),
      close: (...args: Parameters<TestApp['close']>) => app.close(...args),
      get limits() {
        return app.limits;
      },
    };
    await using client = await TestClient.start(view as unknown as TestApp);
    expect((await client.get('/healthz')).json()).toEqual({ status: 'ok' });
    expect(seen).toBe(1);
  });

  it('refuses options that are not an object, unknown options and a non-boolean cookieJar', () => {
    const app = new TestApp({ logger: quietLogger() });
    expect(thrown(() => build(app, true)).message).toBe(
      'TestClient: expected an options object (`cookieJar`), got boolean true. Fix: pass a plain object literal.',
    );
    expect(thrown(() => build(app, { cookiejar: true })).message).toBe(
      'TestClient: unknown option "cookiejar" (did you mean "cookieJar"?). Fix: use only cookieJar (names are case-sensitive).',
    );
    expect(thrown(() => build(app, { cookieJar: 'yes' })).message).toBe(
      'TestClient option `cookieJar`: expected a boolean, got "yes". Fix: pass `cookieJar: true` or leave it out.',
    );
    expect(app.wires).toBe(0);
  });

  it('accepts an app with no options, undefined options and an explicit cookieJar', () => {
    const app = new TestApp({ logger: quietLogger() });
    expect(build(app).cookieJar).toBeUndefined();
    expect(build(app, undefined).cookieJar).toBeUndefined();
    expect(build(app, { cookieJar: false }).cookieJar).toBeUndefined();
    expect(build(app, { cookieJar: true }).cookieJar).toBeInstanceOf(Map);
  });

  it('rejects TestClient.start with the same WiringError, before wiring', async () => {
    const start = TestClient.start as unknown as (app: unknown, options?: unknown) => Promise<TestClient>;
    await expect(start(TestApp)).rejects.toBeInstanceOf(WiringError);
    const app = new TestApp({ logger: quietLogger() });
    await expect(start(app, { cookieJar: 1 })).rejects.toThrow(/expected a boolean, got number 1/);
    expect(app.wires).toBe(0);
  });
});
