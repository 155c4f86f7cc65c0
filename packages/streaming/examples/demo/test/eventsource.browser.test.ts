// To add as apps/demo/test/eventsource.browser.test.ts: GET /notifications consumed by a real
// EventSource in headless Chromium (Debian's /usr/bin/chromium through playwright-core).
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type RunningServer } from '@api/core';
import { DemoApp } from '../src/app';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
let api: RunningServer;
let browser: Browser;

beforeAll(async () => {
  if (!existsSync(CHROMIUM))
    throw new Error(`Chromium not found at ${CHROMIUM}: apt-get install chromium, or set CHROMIUM_PATH`);
  process.env.DEMO_DB = ':memory:';
  const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
  api = await serve(new DemoApp({ logger: quiet }), { port: 0, signals: false, quiet: true });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await api?.close();
});

interface Received {
  readonly type: string;
  readonly id: string;
  readonly data: unknown;
}

describe('GET /notifications in a real browser', () => {
  it('delivers the three typed events with their ids to an EventSource', async () => {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(`${api.url}/healthz`); // any page of the API's origin
      const received = await page.evaluate(
        () =>
          new Promise<Received[]>((resolve, reject) => {
            const events: Received[] = [];
            const source = new EventSource('/notifications');
            const timer = setTimeout(() => reject(new Error(`only ${events.length} events`)), 5000);
            for (const type of ['widget.created', 'widget.updated', 'widget.deleted']) {
              source.addEventListener(type, (event) => {
                const message = event as MessageEvent<string>;
                events.push({ type, id: message.lastEventId, data: JSON.parse(message.data) as unknown });
                if (events.length === 3) {
                  clearTimeout(timer);
                  source.close();
                  resolve(events);
                }
              });
            }
          }),
      );
      expect(received).toEqual([
        { type: 'widget.created', id: '1', data: { message: 'Widget "sprocket" was created' } },
        { type: 'widget.updated', id: '2', data: { message: 'Widget "sprocket" was repriced' } },
        { type: 'widget.deleted', id: '3', data: { message: 'Widget "sprocket" was deleted' } },
      ]);
    } finally {
      await context.close();
    }
  });
});
