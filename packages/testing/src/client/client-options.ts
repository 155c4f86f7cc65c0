import { BaseApp } from '@api/core';
import { checkOptions, wrongArgument } from '../arguments/arguments';

/** What the client drives: any app (it is served with core's own `serve()`). */
export type TestableApp = BaseApp<unknown>;

/** Options of `TestClient`. */
export interface TestClientOptions<TJar extends boolean = boolean> {
  /**
   * Keep a cookie jar: store every response's `Set-Cookie` values in `client.cookieJar`
   * (name → value, no path or domain scoping) and send them with later requests. Default false.
   */
  readonly cookieJar?: TJar;
}

/** The client's cookie jar type: a `Map` when enabled, `undefined` otherwise. */
export type CookieJarOf<TJar extends boolean> = TJar extends true ? Map<string, string> : undefined;

const APP =
  'an app (an instance of a BaseApp subclass, or a view of one with its `start`, `listener` and `close`)';

/**
 * True for what `serve()` can drive: a `BaseApp`, or a structural view of one (a wrapper that
 * records every exchange, say) with the same `start`, `listener` and `close`.
 */
function isApp(app: unknown): boolean {
  if (app instanceof BaseApp) return true;
  if (typeof app !== 'object' || app === null) return false;
  const view = app as { start?: unknown; listener?: unknown; close?: unknown };
  return (
    typeof view.start === 'function' &&
    typeof view.listener === 'function' &&
    typeof view.close === 'function'
  );
}

/**
 * Checks the arguments of `new TestClient(app, options)` / `TestClient.start(app, options)`,
 * so an untyped caller gets a `WiringError` naming what was expected rather than a failure deep
 * inside `serve()`.
 */
export function checkClientArguments(app: unknown, options: unknown): TestClientOptions {
  const where = 'TestClient';
  if (!isApp(app)) {
    const isClass = typeof app === 'function' && app.prototype instanceof BaseApp;
    throw wrongArgument(
      where,
      APP,
      app,
      isClass
        ? `pass an instance: \`new TestClient(new ${app.name}())\``
        : 'pass `new App()` for your app class',
    );
  }
  const checked = checkOptions(where, options, ['cookieJar']);
  const jar = checked.cookieJar;
  if (jar !== undefined && typeof jar !== 'boolean')
    throw wrongArgument(
      `${where} option \`cookieJar\``,
      'a boolean',
      jar,
      'pass `cookieJar: true` or leave it out',
    );
  return { ...(jar === undefined ? {} : { cookieJar: jar }) };
}
