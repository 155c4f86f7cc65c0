// CustomRoute.ownHeaders: a route whose answers set a header themselves (a page's own CSP) does not
// also get a contribution's constant header of that name.
import { describe, expect, it } from 'vitest';
import { TestClient } from '@api/testing';
import { BaseApp, WiringError } from '../src/index';
import { defineExtension } from '../src/extension';
import { memoryLogger } from './fixtures';

function app(ownHeaders: unknown) {
  return class App extends BaseApp {
    protected override async wire(): Promise<void> {
      this.include(
        defineExtension({
          name: 'headers',
          setup: (w) =>
            w.addContributor(() => ({
              headers: [
                ['Content-Security-Policy', "default-src 'none'"],
                ['x-frame-options', 'DENY'],
              ],
            })),
        }),
      );
      this.include(
        defineExtension({
          name: 'page',
          setup: (w) => {
            w.addRoute({
              method: 'GET',
              path: '/page',
              owner: 'page',
              operation: 'page',
              ownHeaders: ownHeaders as string[],
              handle: (ex) =>
                ex.send(
                  200,
                  ['content-type', 'text/html', 'content-security-policy', "script-src 'self'"],
                  'hi',
                ),
            });
            w.addRoute({
              method: 'GET',
              path: '/other',
              owner: 'page',
              operation: 'other',
              handle: (ex) => ex.send(200, ['content-type', 'text/plain'], 'x'),
            });
          },
        }),
      );
    }
  };
}

describe('ownHeaders', () => {
  it('leaves out the constant headers the route sets itself, on that route only', async () => {
    const App = app(['Content-Security-Policy']);
    await using c = await TestClient.start(new App({ logger: memoryLogger() }));
    const page = await c.get('/page');
    expect(page.headers.getAll('content-security-policy')).toEqual(["script-src 'self'"]);
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    const options = await c.options('/page');
    expect(options.headers.get('content-security-policy')).toBeUndefined();
    const other = await c.get('/other');
    expect(other.headers.get('content-security-policy')).toBe("default-src 'none'");
  });

  it('must be a list of header names', async () => {
    const App = app(['bad name']);
    const c = new TestClient(new App({ logger: memoryLogger() }));
    await expect(c.start()).rejects.toThrow(WiringError);
    await expect(c.start()).rejects.toThrow(/ownHeaders must be a list of header names, got an array/);
    await c.close();
  });
});
