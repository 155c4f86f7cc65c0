// The memory store under concurrent connections: exactly `limit` admitted, never one more.
import { afterEach, describe, expect, it } from 'vitest';
import { BaseApp, serve, type RunningServer } from '@api/core';
import { memoryStore, RateLimit, rateLimit } from '../src/index';
import { Notes } from './fixtures/app';
import { load } from './fixtures/load';
import { memoryLogger } from './fixtures/logger';

const servers: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

describe('memoryStore under load', () => {
  it('admits exactly N of 400 requests over 50 concurrent connections', async () => {
    class App extends BaseApp {
      protected override async wire(): Promise<void> {
        this.include(
          rateLimit({ store: memoryStore(), policy: new RateLimit({ name: 'n', limit: 137, window: 3600 }) }),
        );
        this.includeEndpoint(new Notes());
      }
    }
    const server = await serve(new App({ logger: memoryLogger() }), {
      port: 0,
      host: '127.0.0.1',
      signals: false,
      quiet: true,
    });
    servers.push(server);
    const url = `http://127.0.0.1:${server.port}/notes`;
    const answers = await load([url], 50, 400);
    expect(answers.filter((a) => a.status === 200)).toHaveLength(137);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(263);
    // Remaining counts down without repeats: every admitted request saw its own r.
    const remaining = answers
      .filter((a) => a.status === 200)
      .map((a) => Number(/r=(\d+)/.exec(String(a.headers.ratelimit))![1]))
      .sort((x, y) => x - y);
    expect(remaining).toEqual(Array.from({ length: 137 }, (_, i) => i));
  });
});
