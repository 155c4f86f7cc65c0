// The demo's page in headless Chromium, served by @api/assets from apps/demo/public: it loads
// without console errors and uses the API through @api/client (widgets, the streamed answer, the
// chat over a WebSocket with the session cookie, the notifications feed), and GET /notifications
// feeds a real EventSource.
import type { Browser, Page } from 'playwright-core';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestClient } from '@api/testing';
import type { DemoApp } from '../src/app';
import { LOBBY } from '../src/operations/sockets';
import { consoleErrors, launchChromium, localhost } from './helpers/chromium';
import type { RecordedExchange } from './helpers/conformance';
import { checkContract } from './helpers/contract';
import { startDemo, until } from './helpers/demo';

const exchanges: RecordedExchange[] = [];
let browser: Browser;
let client: TestClient;
let app: DemoApp;
/** The page's origin: http://localhost:<port> (a secure context, so the Secure session cookie is kept). */
let origin: string;

beforeAll(async () => {
  ({ client, app } = await startDemo({ exchanges }));
  origin = localhost(client.url);
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await client?.close();
});

interface Loaded {
  readonly page: Page;
  readonly errors: string[];
  /** Requests that failed, and responses with a status ≥ 400. */
  readonly failures: string[];
  close(): Promise<void>;
}

/** Opens a page in a fresh context, recording console errors and failed requests. */
async function open(path: string): Promise<Loaded> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const errors = consoleErrors(page);
  const failures: string[] = [];
  page.on('requestfailed', (request) => failures.push(`${request.url()} ${request.failure()?.errorText}`));
  page.on('response', (response) => {
    if (response.status() >= 400) failures.push(`${response.url()} → ${response.status()}`);
  });
  await page.goto(`${origin}${path}`);
  return { page, errors, failures, close: () => context.close() };
}

describe('the demo page (/assets/index.html)', () => {
  it('loads its CSS, SVG and scripts, calls the API, and logs no console error', async () => {
    const { page, errors, failures, close } = await open('/assets/index.html');
    try {
      await page.waitForSelector('body[data-ready="true"]', { timeout: 10_000 });
      expect(await page.textContent('#health')).toBe('API ok');
      expect(await page.getAttribute('#health', 'data-state')).toBe('ok');
      expect(await page.textContent('#widgets')).toBe('No widgets yet: add one.');
      // The stylesheet applied (the masthead is a flex row) and the logo decoded.
      expect(await page.$eval('.masthead', (el) => getComputedStyle(el).display)).toBe('flex');
      expect(await page.$eval('img.logo', (img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(
        0,
      );
      await page.waitForSelector('#chat-status[data-state="ok"]', { timeout: 10_000 });

      await page.fill('input[name="name"]', 'Browser widget');
      await page.fill('input[name="priceCents"]', '1999');
      await page.click('#create button[type="submit"]');
      await page.waitForSelector('#result[data-state="ok"]', { timeout: 10_000 });
      expect(await page.textContent('#result')).toMatch(/^Created Browser widget \([0-9a-f-]{36}\)\.$/);
      await page.waitForFunction(() => document.querySelectorAll('#widgets tr:not(.empty)').length === 1);
      expect(
        await page.$$eval('#widgets tr td', (cells) => cells.slice(0, 2).map((td) => td.textContent)),
      ).toEqual(['Browser widget', '$19.99']);

      expect(errors).toEqual([]);
      expect(failures).toEqual([]);
    } finally {
      await close();
    }
  }, 60_000);

  it("shows a refused create from the client's typed failure (409 and its Problem title)", async () => {
    const { page, errors, failures, close } = await open('/assets/index.html');
    try {
      await page.waitForSelector('body[data-ready="true"]', { timeout: 10_000 });
      await page.fill('input[name="name"]', 'Browser widget'); // created by the test above
      await page.fill('input[name="priceCents"]', '1');
      await page.click('#create button[type="submit"]');
      await page.waitForSelector('#result[data-state="error"]', { timeout: 10_000 });
      expect(await page.textContent('#result')).toBe(
        'Not created: 409 The request conflicts with the current state of the resource',
      );
      expect(failures).toEqual([`${origin}/widgets → 409`]);
      expect(errors).toEqual([
        'Failed to load resource: the server responded with a status of 409 (Conflict)',
      ]);
    } finally {
      await close();
    }
  }, 60_000);

  it('streams the answer to a question into the page as NDJSON arrives', async () => {
    const { page, errors, failures, close } = await open('/assets/index.html');
    try {
      await page.waitForSelector('body[data-ready="true"]', { timeout: 10_000 });
      await page.fill('#ask input[name="text"]', 'How are prices stored?');
      await page.click('#ask button[type="submit"]');
      await page.waitForSelector('#answer[data-state="done"]', { timeout: 10_000 });
      expect(await page.textContent('#answer')).toBe('Prices are integers in cents, so 1999 means 19.99.');
      expect(errors).toEqual([]);
      expect(failures).toEqual([]);
    } finally {
      await close();
    }
  }, 60_000);
});

describe('the page chat (WS /chat with the session cookie)', () => {
  it('broadcasts between two browser pages and a non-browser client', async () => {
    await until(() => app.chat.subscribers(LOBBY) === 0); // the pages of the tests above have gone
    const alice = await open('/assets/index.html');
    const bob = await open('/assets/index.html');
    const other = new WebSocket(`${client.url.replace(/^http/, 'ws')}/chat`, {
      headers: { cookie: 'session_id=no-spotlight-token' },
    });
    const seen: unknown[] = [];
    other.on('message', (data: Buffer) => seen.push(JSON.parse(data.toString('utf8'))));
    const opened = new Promise((resolve, reject) => other.once('open', resolve).once('error', reject));
    try {
      for (const { page } of [alice, bob])
        await page.waitForSelector('#chat-status[data-state="ok"]', { timeout: 10_000 });
      await opened;
      await until(() => app.chat.subscribers(LOBBY) === 3);

      other.send(JSON.stringify({ type: 'send-message', text: 'from node' }));
      for (const { page } of [alice, bob])
        await page.waitForSelector('#chat-log li:has-text("other-name: from node")', { timeout: 10_000 });

      await alice.page.fill('#chat-text', 'from the browser');
      await alice.page.click('#chat-form button');
      await bob.page.waitForSelector('#chat-log li:has-text("user-name: from the browser")', {
        timeout: 10_000,
      });
      await until(() => seen.length === 2);
      expect(seen).toEqual([
        { type: 'chat-message', text: 'from node', from: 'other-name' },
        { type: 'chat-message', text: 'from the browser', from: 'user-name' },
      ]);
      expect(await alice.page.$$eval('#chat-log li', (items) => items.map((li) => li.textContent))).toEqual([
        'other-name: from node',
        'user-name: from the browser',
      ]);
      expect([...alice.errors, ...bob.errors]).toEqual([]);
    } finally {
      other.close();
      await alice.close();
      await bob.close();
    }
  }, 60_000);
});

interface Received {
  readonly type: string;
  readonly id: string;
  readonly data: unknown;
}

describe('GET /notifications in a real browser', () => {
  it('delivers the three typed events with their ids to an EventSource', async () => {
    const { page, close } = await open('/healthz'); // any page of the API's origin
    try {
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
      await close();
    }
  }, 60_000);

  it('the notifications page lists them live, without console errors', async () => {
    const { page, errors, failures, close } = await open('/assets/notifications.html');
    try {
      await page.waitForFunction(() => document.querySelectorAll('#events li').length === 3, undefined, {
        timeout: 10_000,
      });
      expect(await page.$$eval('#events li', (items) => items.map((li) => li.textContent))).toEqual([
        'widget.created #1: Widget "sprocket" was created',
        'widget.updated #2: Widget "sprocket" was repriced',
        'widget.deleted #3: Widget "sprocket" was deleted',
      ]);
      expect(await page.textContent('#state')).toBe('connected');
      expect(errors).toEqual([]);
      expect(failures).toEqual([]);
    } finally {
      await close();
    }
  }, 60_000);
});

describe('OpenAPI contract', () => {
  it('every response the browser got from an operation matches /openapi.json', async () => {
    const report = await checkContract(exchanges);
    expect(report.violations).toEqual([]);
    for (const pair of [
      'HealthEndpoint_get 200',
      'WidgetResource_readMany 200',
      'WidgetResource_create 201',
      'SessionEndpoint_post 204',
      'QuestionsEndpoint_post 200',
    ])
      expect(report.covered, pair).toContain(pair);
    expect(report.skipped).toContain('GET /assets/index.html → 200');
  }, 60_000);
});
