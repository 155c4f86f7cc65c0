// Issue 22 item 2 on an assets route (a custom route): a response-header hook that throws fails
// the answer closed — never a 200 with the file and without the headers the app asked for.
import { describe, expect, it } from 'vitest';
import { defineMiddleware } from '@api/core';
import { assets } from '../src/index';
import { appWith, memoryLogger, started, tree } from './helpers';

const CSS = 'body { color: #333; }\n';

describe('assets under a failing response-header hook', () => {
  it('answers a logged 500 instead of the file (was 200 without the header)', async () => {
    const log = memoryLogger();
    const dir = tree({ 'site.css': CSS });
    const client = await started(
      appWith((app) => {
        app.includeMiddleware(
          defineMiddleware({
            responseHeaders: () => {
              throw new Error('signing service down');
            },
          }),
        );
        app.include(assets({ directory: dir }));
      }, log),
    );
    const res = await client.get('/assets/site.css');
    expect(res.status).toBe(500);
    expect(res.text).not.toContain('color');
    expect(res.json()).toEqual({
      type: 'internal-server-error',
      title: 'Internal server error',
      status: 500,
    });
    expect(log.lines).toContain('error GET /assets/site.css failed with an uncaught exception');
  });

  it('keeps a 304 a 304 under a hook that works, and an unknown asset a 404 under one that fails', async () => {
    const log = memoryLogger();
    const dir = tree({ 'site.css': CSS });
    let fail = false;
    const client = await started(
      appWith((app) => {
        app.includeMiddleware(
          defineMiddleware({
            responseHeaders: () => {
              if (fail) throw new Error('hook bug');
              return { 'x-signed': 'yes' };
            },
          }),
        );
        app.include(assets({ directory: dir }));
      }, log),
    );
    const first = await client.get('/assets/site.css');
    expect(first.headers.get('x-signed')).toBe('yes');
    const again = await client.get('/assets/site.css', {
      headers: { 'if-none-match': first.headers.get('etag')! },
    });
    expect(again.status).toBe(304);
    expect(again.headers.get('x-signed')).toBe('yes');
    fail = true;
    const missing = await client.get('/assets/nope.css');
    expect(missing.status).toBe(404);
    expect(log.lines).toContain(
      'error GET /assets/nope.css: a response-header hook failed while the 404 error answer was assembled (its headers are left out)',
    );
  });
});
