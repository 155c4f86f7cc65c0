// The account page in headless Chromium: sign-up and sign-in against Better Auth mounted at
// /api/auth, GET /account (an @api route over its session cookie), and a plain HTML form posted
// url-encoded by the browser itself.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestClient } from '@api/testing';
import { launchChromium, localhost } from './helpers/chromium';
import { startDemo } from './helpers/demo';

let browser: Browser;
let client: TestClient;
let origin: string;

beforeAll(async () => {
  ({ client } = await startDemo());
  origin = localhost(client.url);
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await client?.close();
});

describe('the account page (/assets/account.html)', () => {
  it('signs up, signs in and renames through a url-encoded HTML form', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    try {
      await page.goto(`${origin}/assets/account.html`);
      await page.waitForSelector('body[data-ready="true"]', { timeout: 10_000 });
      expect(await page.textContent('#who')).toBe('signed out');

      await page.fill('#sign-up input[name=name]', 'Ada');
      await page.fill('#sign-up input[name=email]', 'ada@page.example');
      await page.fill('#sign-up input[name=password]', 'correct-horse-battery');
      await page.click('#sign-up button');
      await page.waitForSelector('#who[data-state="signed-in"]', { timeout: 10_000 });
      expect(await page.textContent('#who')).toBe('Ada <ada@page.example>');

      // A fresh browser profile signs in with the same account.
      const other = await browser.newContext();
      const second = await other.newPage();
      await second.goto(`${origin}/assets/account.html`);
      await second.waitForSelector('body[data-ready="true"]', { timeout: 10_000 });
      await second.fill('#sign-in input[name=email]', 'ada@page.example');
      await second.fill('#sign-in input[name=password]', 'correct-horse-battery');
      await second.click('#sign-in button');
      await second.waitForSelector('#who[data-state="signed-in"]', { timeout: 10_000 });
      expect(await second.textContent('#auth-status')).toBe('sign-in/email: ok');
      await other.close();

      // The rename form has no script: Chromium posts it url-encoded, follows the 303 back here.
      const posted = page.waitForRequest((r) => r.url().endsWith('/account/name') && r.method() === 'POST');
      await page.fill('#rename input[name=name]', 'Ada Lovelace & co');
      await page.click('#rename button');
      const request = await posted;
      expect(request.headers()['content-type']).toBe('application/x-www-form-urlencoded');
      expect(request.postData()).toBe('name=Ada+Lovelace+%26+co');
      await page.waitForURL(`${origin}/assets/account.html`);
      await page.waitForSelector('#who[data-state="signed-in"]', { timeout: 10_000 });
      expect(await page.textContent('#who')).toBe('Ada Lovelace & co <ada@page.example>');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
