// Ready to paste into apps/demo/test/chat-browser.test.ts once the chat section (public/chat.html,
// public/chat.js) is part of the demo page. Not run in packages/ws (playwright-core is a dev
// dependency of apps/demo only); the same flow was run against the example app with
// /usr/bin/chromium while building @api/ws (see the package README, "Proof").
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type RunningServer } from '@api/core';
import { DemoApp } from '../src/app';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
let api: RunningServer;
let browser: Browser;

beforeAll(async () => {
  if (!existsSync(CHROMIUM))
    throw new Error(`Chromium not found at ${CHROMIUM}: apt-get install chromium or set CHROMIUM_PATH`);
  process.env.DEMO_DB = ':memory:';
  api = await serve(
    new DemoApp({ logger: { info: () => undefined, warn: () => undefined, error: () => undefined } }),
    {
      port: 0,
      host: '127.0.0.1',
      signals: false,
      quiet: true,
    },
  );
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--host-resolver-rules=MAP localhost 127.0.0.1'],
  });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await api?.close();
});

describe('the demo page chat', () => {
  it('opens /chat with the session cookie and receives a broadcast', async () => {
    const origin = api.url.replace('127.0.0.1', 'localhost');
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${origin}/assets/index.html`);
    // Sign in the way the page does: POST /session sets the session_id cookie (HttpOnly).
    const status = await page.evaluate(async () => {
      const res = await fetch('/session', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token: 'token' }),
      });
      return res.status;
    });
    expect(status).toBe(204);
    await page.reload();
    await page.waitForSelector('#chat-status[data-state="ok"]', { timeout: 10_000 });

    // Another client (no browser) says something; the page shows it.
    const other = new WebSocket(`${api.url.replace(/^http/, 'ws')}/chat`, {
      headers: { cookie: 'session_id=no-spotlight-token' },
    });
    const seen: unknown[] = [];
    other.on('message', (data) => seen.push(JSON.parse(String(data))));
    await new Promise((resolve, reject) => other.once('open', resolve).once('error', reject));
    await new Promise((resolve) => setTimeout(resolve, 100));
    other.send(JSON.stringify({ type: 'send-message', text: 'from node' }));
    await page.waitForSelector('#chat-log li:has-text("other-name: from node")', { timeout: 10_000 });

    // The page says something; the other client gets it.
    await page.fill('#chat-text', 'from the browser');
    await page.click('#chat-form button');
    await page.waitForSelector('#chat-log li:has-text("user-name: from the browser")', { timeout: 10_000 });
    await expect
      .poll(() => seen)
      .toContainEqual({ type: 'chat-message', text: 'from the browser', from: 'user-name' });
    other.close();
    await context.close();
  }, 60_000);
});
