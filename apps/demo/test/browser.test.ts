import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type RunningServer } from '@api/core';
import { CORS } from '@api/cors';
import { DemoApp } from '../src/app';

// A real browser enforces CORS: a page on a second origin calls the demo with fetch().
// Playwright gives every launch a fresh, empty profile (user data dir).
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

let api: RunningServer;
let pages: Server;
let browser: Browser;
let pagePort: number;

function listen(server: Server): Promise<number> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  );
}

beforeAll(async () => {
  if (!existsSync(CHROMIUM))
    throw new Error(
      `Chromium not found at ${CHROMIUM}: install Debian's chromium (apt-get install chromium) or set CHROMIUM_PATH`,
    );
  pages = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<!doctype html><title>second origin</title><p>calls the API</p>');
  });
  pagePort = await listen(pages);
  process.env.DEMO_DB = ':memory:';
  // The allowed origin is http://localhost:<pagePort>; http://127.0.0.1:<pagePort> is another origin.
  const policy = new CORS({ allowOrigins: [`http://localhost:${pagePort}`], allowCredentials: true });
  api = await serve(
    new DemoApp({
      cors: policy,
      logger: { info: () => undefined, warn: () => undefined, error: () => undefined },
    }),
    {
      port: 0,
      host: '127.0.0.1',
      signals: false,
      quiet: true,
    },
  );
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--host-resolver-rules=MAP localhost 127.0.0.1',
    ],
  });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await api?.close();
  await new Promise((resolve) => pages?.close(resolve));
});

interface Outcome {
  readonly ok: boolean;
  readonly status?: number;
  readonly body?: unknown;
  readonly error?: string;
}

async function runCalls(pageOrigin: string): Promise<Record<string, Outcome>> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(`${pageOrigin}/`);
    const apiOrigin = `http://localhost:${api.port}`;
    return await page.evaluate(async (base) => {
      const call = async (path: string, init: RequestInit): Promise<Outcome> => {
        try {
          const res = await fetch(base + path, init);
          const text = await res.text();
          return { ok: true, status: res.status, body: text ? (JSON.parse(text) as unknown) : null };
        } catch (error) {
          return { ok: false, error: String(error) };
        }
      };
      return {
        simpleGet: await call('/healthz', {}),
        preflightedPost: await call('/widgets', {
          method: 'POST',
          headers: { authorization: 'Bearer token', 'content-type': 'application/json' },
          body: JSON.stringify({ name: `from-browser-${Math.random()}`, priceCents: 5 }),
        }),
        login: await call('/session', {
          method: 'POST',
          credentials: 'include',
          headers: { 'content-type': 'application/json' },
          body: '{"token":"token"}',
        }),
        profile: await call('/profile', { credentials: 'include' }),
      };
    }, apiOrigin);
  } finally {
    await context.close();
  }
}

describe('CORS in a real browser (headless Chromium)', () => {
  it('lets an allowed origin make a simple GET, a preflighted POST and a cookie session', async () => {
    const outcome = await runCalls(`http://localhost:${pagePort}`);
    expect(outcome.simpleGet).toEqual({ ok: true, status: 200, body: { status: 'ok' } });
    expect(outcome.preflightedPost).toMatchObject({ ok: true, status: 201, body: { priceCents: 5 } });
    expect(outcome.login).toEqual({ ok: true, status: 204, body: null });
    expect(outcome.profile).toEqual({
      ok: true,
      status: 200,
      body: { id: 'user-id', name: 'user-name', maySeeSpotlight: true },
    });
  }, 60_000);

  it('blocks the same calls from an origin not on the list', async () => {
    const outcome = await runCalls(`http://127.0.0.1:${pagePort}`);
    for (const [name, result] of Object.entries(outcome)) {
      expect(result.ok, name).toBe(false);
      expect(result.error, name).toMatch(/TypeError: Failed to fetch/);
    }
  }, 60_000);
});
