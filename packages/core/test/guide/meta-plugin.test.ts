import { readFileSync } from 'node:fs';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { BaseApp, Endpoint, Struct } from '@api/core';
import { Csv, CsvRows, meta, quota } from './meta-plugin';
import { clientFactory, memoryLogger } from '../fixtures';

class Report extends Endpoint('/report') {
  get = this.operation(
    { clientAddress: true, returns: CsvRows },
    ({ clientAddress }) =>
      new Csv([
        ['client', clientAddress],
        ['a', 'b'],
      ]),
  );
}
class Ping extends Endpoint('/ping') {
  get = this.operation({ returns: Struct('Pong', { ok: v.boolean() }) }, () => ({ ok: true }));
}
class App extends BaseApp {
  protected override async wire(): Promise<void> {
    this.include(meta);
    this.includeEndpoint(new Report());
    this.includeEndpoint(new Ping(), { quota: quota(2) });
  }
}

const client = clientFactory();

describe('the extension guide plugin (docs/extensions.md)', () => {
  it('binds clientAddress, streams CSV through its own writer, counts the quota, lists the catalogue', async () => {
    const c = client(new App({ logger: memoryLogger() }));
    const report = await c.get('/report');
    expect(report.status).toBe(200);
    expect(report.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(report.text).toBe('client,127.0.0.1\r\na,b\r\n');
    expect((await c.get('/ping')).status).toBe(200);
    expect((await c.get('/ping')).status).toBe(200);
    const third = await c.get('/ping');
    expect(third.status).toBe(429);
    expect(third.json()).toEqual({
      type: 'too-many-requests',
      title: 'The caller has exceeded a rate limit',
      status: 429,
    });
    expect((await c.get('/_meta/routes')).text).toBe(
      'GET /_meta/routes custom\nGET /report operation\nGET /ping operation',
    );
  });

  it('is the code the guide shows, and stays under 80 lines', () => {
    const source = readFileSync(new URL('./meta-plugin.ts', import.meta.url), 'utf8');
    const guide = readFileSync(new URL('../../../../docs/extensions.md', import.meta.url), 'utf8');
    const body = source.slice(source.indexOf('\n') + 1).trim();
    expect(guide).toContain(body);
    expect(source.trimEnd().split('\n').length).toBeLessThan(80);
  });
});
