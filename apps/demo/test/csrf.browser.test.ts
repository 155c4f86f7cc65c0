// Cross-origin request protection in a real browser (headless Chromium): a page on another origin
// — same site (both on localhost), so the SameSite=Lax session cookie IS sent — submits a form and
// a credentialed fetch to the demo's cookie session; @api/auth refuses both (403). The same page
// on the demo's own origin gets through the check.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestClient } from '@api/testing';
import { launchChromium, localhost } from './helpers/chromium';
import type { RecordedExchange } from './helpers/conformance';
import { startDemo } from './helpers/demo';

const exchanges: RecordedExchange[] = [];
let client: TestClient;
let browser: Browser;
let pages: Server;
let api: string;
let other: string;

beforeAll(async () => {
  ({ client } = await startDemo({ exchanges }));
  api = localhost(client.url);
  pages = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<!doctype html><title>another site</title><p>a page on another origin</p>');
  });
  await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
  other = `http://localhost:${(pages.address() as AddressInfo).port}`;
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await client?.close();
  await new Promise((resolve) => pages?.close(resolve));
});

/** Signs in as `token` on the demo's own origin (the victim's session). */
async function signIn(context: BrowserContext): Promise<void> {
  const page = await context.newPage();
  await page.goto(`${api}/healthz`);
  const status = await page.evaluate(
    async () =>
      (
        await fetch('/session', {
          method: 'POST',
          credentials: 'include',
          headers: { 'content-type': 'application/json' },
          body: '{"token":"token"}',
        })
      ).status,
  );
  expect(status).toBe(204);
  await page.close();
}

/** Who the browser's session cookie belongs to, asked from the demo's origin. */
async function sessionUser(context: BrowserContext): Promise<unknown> {
  const page = await context.newPage();
  await page.goto(`${api}/healthz`);
  const user = await page.evaluate(async () => (await (await fetch('/profile')).json()) as unknown);
  await page.close();
  return user;
}

/**
 * The attack, as one page runs it from `pageUrl`: a credentialed fetch that needs no preflight
 * (text/plain) and a form submission, both logging the browser into the attacker's account (login
 * CSRF). Returns the statuses the server answered them with, in order.
 */
async function attackFrom(page: Page, pageUrl: string): Promise<number[]> {
  await page.goto(pageUrl);
  const before = exchanges.length;
  await page.evaluate(async (target) => {
    try {
      await fetch(`${target}/session`, {
        method: 'POST',
        mode: 'no-cors',
        credentials: 'include',
        headers: { 'content-type': 'text/plain' },
        body: '{"token":"no-spotlight-token"}',
      });
    } catch {
      // Sent, answered, then withheld from the page (cross-origin-resource-policy: same-origin).
    }
  }, api);
  const [navigation] = await Promise.all([
    page.waitForNavigation(),
    page.evaluate((target) => {
      const form = document.createElement('form');
      form.method = 'POST';
      form.action = `${target}/session`;
      form.enctype = 'text/plain';
      const input = document.createElement('input');
      input.name = '{"token":"no-spotlight-token","pad":"';
      input.value = '"}';
      form.append(input);
      document.body.append(form);
      form.submit();
    }, api),
  ]);
  const answered = exchanges
    .slice(before)
    .filter((e) => e.method === 'POST' && e.path === '/session')
    .map((e) => e.status);
  expect(answered[1]).toBe(navigation?.status());
  return answered;
}

describe('cross-origin request protection (headless Chromium)', () => {
  it('refuses a form and a credentialed fetch from another origin with the 403 Problem', async () => {
    const context = await browser.newContext();
    try {
      await signIn(context);
      const page = await context.newPage();
      expect(await attackFrom(page, `${other}/`)).toEqual([403, 403]);
      // The form's navigation shows the Problem the server sent.
      expect(JSON.parse((await page.textContent('body')) ?? '')).toEqual({
        type: 'cross-origin-request',
        title: 'Cross-origin request refused',
        status: 403,
      });
      // The victim is still signed in as themselves.
      expect(await sessionUser(context)).toEqual({ id: 'user-id', name: 'user-name', maySeeSpotlight: true });
    } finally {
      await context.close();
    }
  }, 60_000);

  it("lets the same page through on the demo's own origin", async () => {
    const context = await browser.newContext();
    try {
      await signIn(context);
      const page = await context.newPage();
      // Past the check, the route's own rules answer: POST /session takes JSON, not text/plain (415).
      expect(await attackFrom(page, `${api}/healthz`)).toEqual([415, 415]);
      expect(JSON.parse((await page.textContent('body')) ?? '')).toMatchObject({ status: 415 });
    } finally {
      await context.close();
    }
  }, 60_000);
});
