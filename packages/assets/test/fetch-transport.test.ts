// On the fetch transport (app.fetch on a fetch-only runtime) there may be no file system to read
// the directory from: assets() fails wiring, saying so, rather than serving nothing.
import { describe, expect, it } from 'vitest';
import { WiringError } from '@api/core';
import { assets } from '../src/index';
import { appWith, tree } from './helpers';

describe('assets() on the fetch transport', () => {
  it('fails wiring with a WiringError naming the call and the fix', async () => {
    const directory = tree({ 'a.css': 'a{}' });
    const app = appWith((a) => a.include(assets({ directory })));
    const started = app.start({ transport: 'fetch' });
    await expect(started).rejects.toBeInstanceOf(WiringError);
    await expect(started).rejects.toThrow(
      "assets are read from a directory at wiring, which needs Node's file system, and the app is started for the fetch transport",
    );
  });

  it('serves the directory when the app is started for node (the default)', async () => {
    const directory = tree({ 'a.css': 'a{}' });
    const app = appWith((a) => a.include(assets({ directory })));
    await app.start();
    const res = await app.fetch(new Request('http://x/assets/a.css'));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect(await res.text()).toBe('a{}');
    await app.close();
  });
});
